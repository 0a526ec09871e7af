import { Inbox } from '@/components/curation/inbox';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Inbox · Curation' };

export default function Page() {
  return <Inbox />;
}
