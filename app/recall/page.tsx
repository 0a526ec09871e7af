import { RecallPage } from '@/components/recall/recall-page';

export const metadata = { title: 'Recall' };

export default function Page() {
  return <RecallPage />;
}
