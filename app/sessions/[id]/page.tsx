import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { notFound } from 'next/navigation';
import { ReplayView } from '@/components/sessions/replay-view';
import { storableId } from '@/lib/ingest/contract';
import { decodeSegment } from '@/lib/net/path';
import { TURN_WINDOW as WINDOW } from '@/lib/ccs/digest';
import { getQueryClient, trpc } from '@/server/trpc/rsc';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return { title: decodeSegment(id) };
}

export default async function SessionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ turn?: string; compare?: string; artifact?: string }>;
}) {
  const id = decodeSegment((await params).id);
  if (!storableId(id)) notFound();
  const query = await searchParams;
  const qc = getQueryClient();
  const artifact = typeof query.artifact === 'string' && query.artifact ? query.artifact : null;
  // A link to an artifact (recall's hits) opens the first turn that recalled it.
  const turnParam =
    query.turn === undefined && artifact
      ? ((await qc.fetchQuery(trpc.sessions.artifactTurn.queryOptions({ id, artifact }))) ?? NaN)
      : Number(query.turn);
  const compareParam = Number(query.compare);
  try {
    await qc.fetchQuery(trpc.sessions.byId.queryOptions({ id }));
  } catch (e) {
    if ((e as { code?: string }).code === 'NOT_FOUND') notFound();
    throw e;
  }
  // The window of full turns the player opens at (and the one before, when the previous turn is there, for the diff):
  // the HTML shows the turn's CCS and the turn itself, painted before any script runs. The session's digest (the
  // timeline, charts and alerts) is not put in the HTML: the browser fetches it on its own, while the turn paints.
  const initial = Number.isFinite(turnParam)
    ? await qc.fetchQuery(trpc.sessions.position.queryOptions({ id, turn: turnParam }))
    : 0;
  const offset = Math.floor(initial / WINDOW) * WINDOW;
  await Promise.all([
    qc.prefetchQuery(trpc.sessions.window.queryOptions({ id, offset, limit: WINDOW })),
    initial > 0 && initial === offset
      ? qc.prefetchQuery(trpc.sessions.window.queryOptions({ id, offset: offset - WINDOW, limit: WINDOW }))
      : null,
    qc.prefetchQuery(trpc.sessions.artifacts.queryOptions({ id })),
    qc.prefetchQuery(trpc.sessions.shape.queryOptions({ id })),
  ]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <ReplayView
        id={id}
        initialIndex={initial}
        askedTurn={query.turn && Number.isFinite(turnParam) ? turnParam : null}
        notATurn={typeof query.turn === 'string' && query.turn && !Number.isFinite(turnParam) ? query.turn : null}
        initialCompare={query.compare && Number.isFinite(compareParam) ? compareParam : null}
        notACompare={
          typeof query.compare === 'string' && query.compare && !Number.isFinite(compareParam) ? query.compare : null
        }
        focusArtifact={artifact}
      />
    </HydrationBoundary>
  );
}
