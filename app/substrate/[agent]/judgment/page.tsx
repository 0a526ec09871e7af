import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { JudgmentView } from '@/components/substrate/judgment-view';
import { getQueryClient, trpc } from '@/server/trpc/rsc';
import { decodeSegment } from '@/lib/net/path';
import { agentPageTitle } from '../title';

export const dynamic = 'force-dynamic';
export const generateMetadata = agentPageTitle('Judgment');

export default async function JudgmentPage({ params }: { params: Promise<{ agent: string }> }) {
  const agent = decodeSegment((await params).agent);
  const qc = getQueryClient();
  await qc.prefetchQuery(trpc.substrate.judgment.queryOptions({ agent }));
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <JudgmentView agent={agent} />
    </HydrationBoundary>
  );
}
