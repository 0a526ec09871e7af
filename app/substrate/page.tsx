import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { AgentsGrid } from '@/components/substrate/agents-grid';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Substrate' };

export default async function SubstratePage() {
  const qc = getQueryClient();
  await qc.prefetchQuery(trpc.substrate.agents.queryOptions());
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <AgentsGrid />
    </HydrationBoundary>
  );
}
