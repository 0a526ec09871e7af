/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): score(d) = Σ 1 / (k + rank_i(d)).
 * Rank-based, so BM25 scores and cosines need no common scale; k = 60 is Cormack et al.'s constant.
 */
export interface Ranked {
  id: string;
  score: number;
}

export interface Fused {
  id: string;
  score: number;
  /** 1-based rank in each list, null where the list missed it. */
  ranks: (number | null)[];
}

/** `weights` scale each list's contribution (1 each by default). */
export function reciprocalRankFusion(
  lists: readonly (readonly Ranked[])[],
  k = 60,
  weights?: readonly number[],
): Fused[] {
  const byId = new Map<string, Fused>();
  lists.forEach((list, li) => {
    list.forEach((r, i) => {
      let f = byId.get(r.id);
      if (!f) {
        f = { id: r.id, score: 0, ranks: lists.map(() => null) };
        byId.set(r.id, f);
      }
      f.score += (weights?.[li] ?? 1) / (k + i + 1);
      f.ranks[li] = i + 1;
    });
  });
  return [...byId.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
