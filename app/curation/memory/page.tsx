import { MemoryBrowser } from '@/components/curation/memory-browser';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Memory · Curation' };

export default function Page() {
  return <MemoryBrowser />;
}
