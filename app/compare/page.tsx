import { CompareView } from '@/components/sessions/compare-view';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Compare runs' };

export default function Page() {
  return <CompareView />;
}
