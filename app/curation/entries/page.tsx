import { EntriesBrowser } from '@/components/curation/entries';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Entries · Curation' };

export default function Page() {
  return <EntriesBrowser />;
}
