import { Simulator } from '@/components/curation/simulator';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Simulator · Curation' };

export default function Page() {
  return <Simulator />;
}
