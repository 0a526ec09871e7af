import { KeywordSearch } from '@/components/recall/keyword-search';

export const metadata = { title: 'Recall' };

export default function RecallPage() {
  return <KeywordSearch />;
}
