import { and, eq, ilike, or, sql, desc } from 'drizzle-orm';
import type { Tx } from '@/server/db';
import { artifacts, turns } from '@/server/db/schema/sessions';
import { memoryEvents } from '@/server/db/schema/memory';
import { ucsDeadEnds, ucsMethodology } from '@/server/db/schema/ucs';

export interface SearchHit {
  kind: 'turn' | 'memory_event' | 'artifact' | 'dead_end' | 'methodology';
  id: string;
  /** Where it lives: a session id, an agent. */
  scope: string;
  text: string;
  href: string | null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Keyword search over a project's memory (every word must match). The semantic part runs in the browser. */
export async function keywordSearch(db: Tx, projectId: string, query: string, limit = 25): Promise<SearchHit[]> {
  const words = query.trim().split(/\s+/).filter(Boolean).slice(0, 8);
  if (!words.length) return [];
  const all = <T>(f: (p: string) => T) => words.map((w) => f(`%${escapeLike(w)}%`));

  const [t, e, a, d, m] = await Promise.all([
    db
      .select({ sessionId: turns.sessionId, turn: turns.turn, input: turns.input, output: turns.output })
      .from(turns)
      .where(and(eq(turns.projectId, projectId), ...all((p) => or(ilike(turns.input, p), ilike(turns.output, p), sql`${turns.ccs}::text ilike ${p}`))))
      .orderBy(desc(turns.ts))
      .limit(limit),
    db
      .select({ id: memoryEvents.eventId, agent: memoryEvents.sourceAgent, content: memoryEvents.content })
      .from(memoryEvents)
      .where(and(eq(memoryEvents.projectId, projectId), ...all((p) => ilike(memoryEvents.content, p))))
      .limit(limit),
    db
      .select({ id: artifacts.id, sessionId: artifacts.sessionId, content: artifacts.content })
      .from(artifacts)
      .where(and(eq(artifacts.projectId, projectId), ...all((p) => ilike(artifacts.content, p))))
      .limit(limit),
    db
      .select({ id: ucsDeadEnds.id, agent: ucsDeadEnds.agentId, topic: ucsDeadEnds.topic, why: ucsDeadEnds.whyClosed, reopen: ucsDeadEnds.reopenConditions })
      .from(ucsDeadEnds)
      .where(and(eq(ucsDeadEnds.projectId, projectId), ...all((p) => sql`concat_ws(' ', ${ucsDeadEnds.topic}, ${ucsDeadEnds.whyClosed}, ${ucsDeadEnds.reopenConditions}, ${ucsDeadEnds.keywords}::text, ${ucsDeadEnds.capabilities}::text) ilike ${p}`)))
      .limit(limit),
    db
      .select({ id: ucsMethodology.id, agent: ucsMethodology.agentId, summary: ucsMethodology.summary })
      .from(ucsMethodology)
      .where(and(eq(ucsMethodology.projectId, projectId), ...all((p) => ilike(ucsMethodology.summary, p))))
      .limit(limit),
  ]);
  return [
    ...t.map((x) => ({ kind: 'turn' as const, id: `${x.sessionId}/${x.turn}`, scope: x.sessionId, text: `${x.input}\n→ ${x.output}`, href: `/sessions/${encodeURIComponent(x.sessionId)}` })),
    ...e.map((x) => ({ kind: 'memory_event' as const, id: x.id, scope: x.agent, text: x.content, href: '/curation' })),
    ...a.map((x) => ({ kind: 'artifact' as const, id: x.id, scope: x.sessionId ?? '', text: x.content, href: x.sessionId ? `/sessions/${encodeURIComponent(x.sessionId)}` : null })),
    ...d.map((x) => ({ kind: 'dead_end' as const, id: x.id, scope: x.agent, text: `${x.topic} — ${x.why ?? ''} (reopen if: ${x.reopen ?? '—'})`, href: '/substrate' })),
    ...m.map((x) => ({ kind: 'methodology' as const, id: x.id, scope: x.agent, text: x.summary, href: '/substrate' })),
  ];
}
