import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { EventsTable } from '@/components/curation/events-table';
import { RejectedEvents } from '@/components/curation/rejected-events';
import { CURATION_PAGE } from '@/lib/curation/event';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Memory events · Curation' };

export default async function EventsPage({ searchParams }: { searchParams: Promise<{ focus?: string }> }) {
  const { focus } = await searchParams;
  const qc = getQueryClient();
  // The first page, as the table asks for it on load.
  await qc.prefetchInfiniteQuery(
    trpc.curation.events.infiniteQueryOptions(
      { kind: null, focus: typeof focus === 'string' ? focus : null, limit: CURATION_PAGE },
      { getNextPageParam: (last) => last.next },
    ),
  );
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <EventsTable />
      <RejectedEvents />
    </HydrationBoundary>
  );
}
