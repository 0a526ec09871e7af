import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { notFound } from 'next/navigation';
import { ReplayView } from '@/components/replay/replay-view';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return { title: safeDecode(id) };
}

export default async function SessionPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ turn?: string }> }) {
  const id = safeDecode((await params).id);
  const turnParam = Number((await searchParams).turn);
  const qc = getQueryClient();
  try {
    await qc.fetchQuery(trpc.session.byId.queryOptions({ id }));
  } catch (e) {
    if ((e as { code?: string }).code === 'NOT_FOUND') notFound();
    throw e;
  }
  await Promise.all([qc.prefetchQuery(trpc.session.turns.queryOptions({ id })), qc.prefetchQuery(trpc.session.artifacts.queryOptions({ id }))]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <ReplayView id={id} initialTurn={Number.isFinite(turnParam) ? turnParam : null} />
    </HydrationBoundary>
  );
}
