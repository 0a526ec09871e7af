import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { EventsTable } from '@/components/curation/events-table';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Curation' };

export default async function CurationPage() {
  const qc = getQueryClient();
  await qc.prefetchQuery(trpc.memory.events.queryOptions());
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <EventsTable />
    </HydrationBoundary>
  );
}
