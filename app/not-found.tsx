import type { Metadata } from 'next';
import { NotFoundBody } from '@/components/ui/not-found-body';

/** An unmatched address's tab title (a missing session's or agent's is in app/sessions/[id]/, app/substrate/). */
export const metadata: Metadata = { title: 'No such page' };

export default function NotFound() {
  return <NotFoundBody />;
}
