import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { AuditView } from '@/components/substrate/audit-view';
import { getQueryClient, trpc } from '@/server/trpc/rsc';
import { decodeSegment } from '@/lib/net/path';
import { NoFieldState } from '@/components/substrate/no-field-state';
import { agentPageTitle } from '../title';

export const dynamic = 'force-dynamic';
export const generateMetadata = agentPageTitle('Audit');

export default async function AuditPage({ params }: { params: Promise<{ agent: string }> }) {
  const agent = decodeSegment((await params).agent);
  const qc = getQueryClient();
  try {
    await qc.fetchQuery(trpc.substrate.audit.queryOptions({ agent }));
  } catch (e) {
    // The layout found the agent: what is missing is its field state.
    if ((e as { code?: string }).code === 'NOT_FOUND') return <NoFieldState agent={agent} page="Audit" />;
    throw e;
  }
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <AuditView agent={agent} />
    </HydrationBoundary>
  );
}
