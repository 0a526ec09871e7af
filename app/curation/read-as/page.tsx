import { ReadAsView } from '@/components/curation/read-as';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Read as · Curation' };

export default function Page() {
  return <ReadAsView />;
}
