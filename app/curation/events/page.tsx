import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { EventsTable } from '@/components/curation/events-table';
import { RejectedEvents } from '@/components/curation/rejected-events';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Memory events · Curation' };

export default async function EventsPage() {
  const qc = getQueryClient();
  await qc.prefetchQuery(trpc.curation.events.queryOptions());
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <EventsTable />
      <RejectedEvents />
    </HydrationBoundary>
  );
}
