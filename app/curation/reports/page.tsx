import { Reports } from '@/components/curation/reports';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Reports · Curation' };

export default function Page() {
  return <Reports />;
}
