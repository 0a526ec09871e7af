import type { Metadata } from 'next';
import { NotFoundBody } from '@/components/ui/not-found-body';

/** An unmatched address's tab title (a missing session or agent sets its own, in the body, from the path). */
export const metadata: Metadata = { title: 'No such page' };

export default function NotFound() {
  return <NotFoundBody />;
}
