import type { RecallEngine, SearchMode } from './engine';

export interface LabelledQuery {
  q: string;
  /** Item id of the one memory the query is about. */
  relevant: string;
}

export interface Quality {
  mode: SearchMode;
  queries: number;
  recallAt5: number;
  mrr: number;
}

/** recall@5 and mean reciprocal rank (within the top 50) of one ranking mode over a labelled set. */
export async function evaluate(
  engine: RecallEngine,
  queries: readonly LabelledQuery[],
  mode: SearchMode,
): Promise<Quality> {
  let hits5 = 0;
  let rr = 0;
  for (const { q, relevant } of queries) {
    const ranked = await engine.search(q, { mode, limit: 50 });
    const at = ranked.findIndex((h) => h.item.id === relevant);
    if (at >= 0 && at < 5) hits5++;
    if (at >= 0) rr += 1 / (at + 1);
  }
  return { mode, queries: queries.length, recallAt5: hits5 / queries.length, mrr: rr / queries.length };
}
