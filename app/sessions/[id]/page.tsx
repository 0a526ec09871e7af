import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { SessionDetail } from '@/components/sessions/session-detail';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return { title: safeDecode(id) };
}

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: raw } = await params;
  const id = safeDecode(raw);
  const qc = getQueryClient();
  await Promise.all([qc.prefetchQuery(trpc.session.byId.queryOptions({ id })), qc.prefetchQuery(trpc.session.turns.queryOptions({ id }))]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <SessionDetail id={id} />
    </HydrationBoundary>
  );
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
