import type { Metadata } from 'next';
import { NotFoundBody } from '@/components/ui/not-found-body';

/**
 * The tab's title when an agent's pages (its layout) asked for one whose substrate this project does not hold (the
 * page's title is not used).
 */
export const metadata: Metadata = { title: 'No such agent' };

export default function NotFound() {
  return <NotFoundBody />;
}
