import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { DeadEnds } from '@/components/substrate/dead-ends';
import { getQueryClient, trpc } from '@/server/trpc/rsc';
import { decodeSegment } from '@/lib/net/path';
import { agentPageTitle } from '../title';

export const dynamic = 'force-dynamic';
export const generateMetadata = agentPageTitle('Dead ends');

export default async function DeadEndsPage({ params }: { params: Promise<{ agent: string }> }) {
  const agent = decodeSegment((await params).agent);
  const qc = getQueryClient();
  await Promise.all([
    qc.prefetchQuery(trpc.substrate.deadEnds.queryOptions({ agent })),
    qc.prefetchQuery(trpc.substrate.bridgeIndex.queryOptions({ agent })),
  ]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <DeadEnds agent={agent} />
    </HydrationBoundary>
  );
}
