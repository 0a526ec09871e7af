import type { Embedder } from '@/lib/recall/engine';
import { differingWords, sameness, type Sameness } from '@/lib/curation/sameness';

/**
 * The curator's equivalence judgment (`lib/curation/sameness.ts`) with word similarities from the bundled model: the
 * words two statements do not share are embedded (once each, kept in `cache` across calls) and compared one by one.
 */
export async function judgeSameness(
  embedder: Embedder,
  pairs: readonly { a: string; b: string }[],
  cache: Map<string, Float32Array> = new Map(),
): Promise<Sameness[]> {
  await embedWords(embedder, pairs, cache);
  const wordSimilarity = cachedSimilarity(cache);
  return pairs.map((p) => sameness(p.a, p.b, { wordSimilarity }));
}

/** Embeds, in one call, the differing words of the pairs that `cache` does not hold yet. */
export async function embedWords(
  embedder: Embedder,
  pairs: readonly { a: string; b: string }[],
  cache: Map<string, Float32Array>,
): Promise<void> {
  const words = new Set<string>();
  for (const p of pairs) for (const side of differingWords(p.a, p.b)) for (const w of side) words.add(w);
  const missing = [...words].filter((w) => !cache.has(w));
  if (!missing.length) return;
  const v = await embedder.embed(missing);
  missing.forEach((w, i) => cache.set(w, v.slice(i * embedder.dims, (i + 1) * embedder.dims)));
}

/** Cosine of two words' vectors in `cache` (unit vectors); a word not there is similar only to itself. */
export function cachedSimilarity(cache: ReadonlyMap<string, Float32Array>) {
  return (x: string, y: string) => {
    const a = cache.get(x);
    const b = cache.get(y);
    if (!a || !b) return x === y ? 1 : 0;
    let s = 0;
    for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
    return s;
  };
}
