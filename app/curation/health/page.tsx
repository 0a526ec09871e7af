import { Health } from '@/components/curation/health';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Health · Curation' };

export default function Page() {
  return <Health />;
}
