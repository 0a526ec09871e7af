import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { notFound } from 'next/navigation';
import { FieldPlayer } from '@/components/substrate/field-player';
import { getQueryClient, trpc } from '@/server/trpc/rsc';
import { decodeSegment } from '@/lib/net/path';

export const dynamic = 'force-dynamic';

export default async function AgentSubstratePage({ params }: { params: Promise<{ agent: string }> }) {
  const agent = decodeSegment((await params).agent);
  const qc = getQueryClient();
  try {
    await qc.fetchQuery(trpc.substrate.snapshots.queryOptions({ agent }));
  } catch (e) {
    if ((e as { code?: string }).code === 'NOT_FOUND') notFound();
    throw e;
  }
  await qc.prefetchQuery(trpc.substrate.fieldSeries.queryOptions({ agent, field: 'energy' }));
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <FieldPlayer agent={agent} />
    </HydrationBoundary>
  );
}
