import { AnnotationsPage } from '@/components/annotations/annotations-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Annotations' };

export default function Page() {
  return <AnnotationsPage />;
}
