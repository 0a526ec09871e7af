import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { getQueryClient, trpc } from '@/server/trpc/rsc';
import { storableId } from '@/lib/ingest/contract';
import { decodeSegment } from '@/lib/net/path';

/** Every tab of an agent's substrate is "not found" alike when nothing of it is stored. */
export default async function AgentSubstrateLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ agent: string }>;
}) {
  const agent = decodeSegment((await params).agent);
  if (!storableId(agent) || !(await getQueryClient().fetchQuery(trpc.substrate.known.queryOptions({ agent }))))
    notFound();
  return children;
}
