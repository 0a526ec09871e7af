import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { Retrievals } from '@/components/curation/retrievals';
import { CURATION_PAGE } from '@/lib/curation/event';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Retrievals · Curation' };

export default async function RetrievalsPage() {
  const qc = getQueryClient();
  // The first page, as the list asks for it on load.
  await qc.prefetchInfiniteQuery(
    trpc.curation.retrievals.infiniteQueryOptions(
      { unlabelled: false, limit: CURATION_PAGE },
      { getNextPageParam: (last) => last.next },
    ),
  );
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Retrievals />
    </HydrationBoundary>
  );
}
