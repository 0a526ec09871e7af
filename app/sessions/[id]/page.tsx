import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { notFound } from 'next/navigation';
import { SessionDetail } from '@/components/sessions/session-detail';
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

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const id = safeDecode((await params).id);
  const qc = getQueryClient();
  try {
    await qc.fetchQuery(trpc.session.byId.queryOptions({ id }));
  } catch (e) {
    if ((e as { code?: string }).code === 'NOT_FOUND') notFound();
    throw e;
  }
  await qc.prefetchQuery(trpc.session.turns.queryOptions({ id }));
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <SessionDetail id={id} />
    </HydrationBoundary>
  );
}
