import type { RecallHit } from './engine';
import type { RecallKind } from './items';

/**
 * A short list of hits (the Ctrl-K palette) that does not fill with one source: at most `perSource` hits of one kind
 * from one session (or, for what an agent's substrate holds, one agent), the rest of them counted in one row that opens
 * them all on the Recall page. A judge's dozen judgments of one task, alike but each its own, would otherwise push
 * every other answer off the list. Memory entries and events are never held back: they are what people search for,
 * and an entry belongs to no session.
 */
const SUBSTRATE: readonly RecallKind[] = ['judgment', 'methodology', 'reflection', 'dead_end'];

/** The source a hit is counted under, or null for a hit that is never held back. */
function sourceOf({ kind, agent, session }: RecallHit['item']): string | null {
  if (session) return JSON.stringify([kind, agent, session]);
  return agent && SUBSTRATE.includes(kind) ? JSON.stringify([kind, agent]) : null;
}

export type GroupedRow =
  | { type: 'hit'; hit: RecallHit }
  | { type: 'more'; kind: RecallKind; agent: string | null; session: string | null; count: number };

export function groupHits(hits: readonly RecallHit[], perSource = 3, max = 12): GroupedRow[] {
  const rows: GroupedRow[] = [];
  const shown = new Map<string, number>();
  const more = new Map<string, Extract<GroupedRow, { type: 'more' }>>();
  for (const hit of hits) {
    const { kind, agent, session } = hit.item;
    const key = sourceOf(hit.item);
    if (key === null) {
      if (rows.length < max) rows.push({ type: 'hit', hit });
      continue;
    }
    const n = shown.get(key) ?? 0;
    if (n < perSource) {
      if (rows.length >= max) continue;
      shown.set(key, n + 1);
      rows.push({ type: 'hit', hit });
      continue;
    }
    const row = more.get(key);
    if (row) row.count++;
    else if (rows.length < max) {
      const added = { type: 'more' as const, kind, agent, session, count: 1 };
      more.set(key, added);
      rows.push(added);
    }
  }
  return rows;
}
