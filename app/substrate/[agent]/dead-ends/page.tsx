import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { DeadEnds } from '@/components/substrate/dead-ends';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Dead ends' };

export default async function DeadEndsPage({ params }: { params: Promise<{ agent: string }> }) {
  const agent = decodeURIComponent((await params).agent);
  const qc = getQueryClient();
  await qc.prefetchQuery(trpc.ucs.deadEnds.queryOptions({ agent }));
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <DeadEnds agent={agent} />
    </HydrationBoundary>
  );
}
