import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { FieldPlayer } from '@/components/substrate/field-player';
import { getQueryClient, trpc } from '@/server/trpc/rsc';
import { decodeSegment } from '@/lib/net/path';
import { NoFieldState } from '@/components/substrate/no-field-state';
import { agentPageTitle } from './title';

export const dynamic = 'force-dynamic';
export const generateMetadata = agentPageTitle('Torus field');

export default async function AgentSubstratePage({ params }: { params: Promise<{ agent: string }> }) {
  const agent = decodeSegment((await params).agent);
  const qc = getQueryClient();
  let latest: number | undefined;
  try {
    latest = (await qc.fetchQuery(trpc.substrate.snapshots.queryOptions({ agent }))).snapshots.at(-1)?.t;
  } catch (e) {
    // The layout found the agent: what is missing is its field state.
    if ((e as { code?: string }).code === 'NOT_FOUND') return <NoFieldState agent={agent} page="Torus field" />;
    throw e;
  }
  // The latest state whole: the field player opens on it, and the consult runs on it in the browser.
  await Promise.all([
    qc.prefetchQuery(trpc.substrate.fieldSeries.queryOptions({ agent, field: 'energy' })),
    qc.prefetchQuery(trpc.substrate.state.queryOptions({ agent, t: latest })),
    qc.prefetchQuery(trpc.substrate.bridgeIndex.queryOptions({ agent })),
    qc.prefetchQuery(trpc.substrate.contexts.queryOptions({ agent })),
    qc.prefetchQuery(trpc.substrate.consultSamples.queryOptions({ agent })),
  ]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <FieldPlayer agent={agent} />
    </HydrationBoundary>
  );
}
