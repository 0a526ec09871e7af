import type { Metadata } from 'next';
import { NotFoundBody } from '@/components/ui/not-found-body';

/** The tab's title when a session's page asked for one this project does not hold (the page's title is not used). */
export const metadata: Metadata = { title: 'No such session' };

export default function NotFound() {
  return <NotFoundBody />;
}
