/**
 * Consolidation under a budget of B atoms ("Memory Consolidation Strategies for Long-Running AI Agents",
 * §3): which atoms each policy keeps. An atom is an active memory item of the agent's store.
 *
 * - recency: the B most recent atoms.
 * - frequency: the B most retrieved (ties: more recent first).
 * - surprise-weighted: s(e) = 0.55·σ(e) + 0.25·recency(e) + 0.20·usage(e), each term scaled to 0–1
 *   over the atoms. σ is the agent's −log p(e | context) when it supplied one; otherwise embedding
 *   novelty, 1 − the cosine to the atom's nearest other atom (said so on screen).
 * - sleep-replay: the paper's `sleep_replay(atoms, summarizer, k=8)`: cluster by embedding into k = 8 clusters
 *   (spherical k-means, k-means++ seeding with a fixed seed; k can be changed) and merge each cluster into one atom.
 *   With no summarizer model here the merge is extractive and lossless in content — the merged atom holds every
 *   distinct member statement, is embedded as the members' mean direction and costs their tokens — so what it can
 *   lose is findability: a probe must still retrieve the merged atom among the top k.
 *
 * Each policy leaves a retrieval pool (`PoolAtom`s: kept atoms, or merged ones with the atoms they hold), measured as
 * the paper measures (§2, §5.1): fact recall — the share of labelled probes whose fact a top-k retrieval over the
 * pool still returns (`factRecall`) —, compression (atoms and tokens before ÷ after), and replay cost (the tokens
 * the consolidation pass itself must read: none for recency and frequency, every atom for a model-scored σ or for
 * the summarizer, plus the merged output).
 */
import { rng } from '@/lib/random';

export interface Atom {
  id: string;
  /** Unit-length embedding. */
  vector: Float32Array;
  /** The statement the atom stores, and its size in tokens. */
  content: string;
  tokens: number;
  addedStep: number;
  usage: number;
  /** −log p(e | context) from the agent's model, when supplied. */
  surprise: number | null;
}

export type Consolidation = 'recency' | 'frequency' | 'surprise' | 'sleep';
export const CONSOLIDATIONS: Consolidation[] = ['recency', 'frequency', 'surprise', 'sleep'];
export const SURPRISE_WEIGHTS = { sigma: 0.55, recency: 0.25, usage: 0.2 } as const;
/** The paper's `sleep_replay(atoms, summarizer, k=8)`. */
export const SLEEP_K = 8;
/** Atoms a probe retrieves (top-k). */
export const RECALL_TOP_K = 5;

/** An atom of memory after consolidation: a kept atom, or a merged one holding several. */
export interface PoolAtom {
  id: string;
  holds: string[];
  vector: Float32Array;
  tokens: number;
}

export interface Cluster {
  keep: string;
  members: string[];
  /** Mean cosine of the members to the kept atom. */
  cohesion: number;
}

export interface ConsolidationResult {
  policy: Consolidation;
  /** The atoms kept as they were (sleep-replay: each cluster's medoid, which represents it). */
  kept: string[];
  /** What retrieval searches afterwards. */
  pool: PoolAtom[];
  /** Tokens the consolidation pass reads (and, merging, writes). */
  replayTokens: number;
  /** Per atom, the policy's score (higher keeps); for sleep-replay the cosine to its cluster's kept atom. */
  score: Record<string, number>;
  clusters?: Cluster[];
  /** Whether σ came from the agent (all atoms) or was estimated as embedding novelty. */
  sigma?: 'supplied' | 'novelty';
}

/**
 * Nearest neighbours by cosine (unit vectors): for each query, the k best rows of `pool`. The
 * server passes a native implementation (one matrix product); `jsNearest` is the pure fallback.
 */
export type Nearest = (
  queries: Float32Array[],
  pool: Float32Array[],
  k: number,
) => Promise<{ rows: number[][]; cosines: number[][] }>;

export const jsNearest: Nearest = async (queries, pool, k) => {
  const rows: number[][] = [];
  const cosines: number[][] = [];
  for (const q of queries) {
    const scored = pool.map((p, i) => ({ i, s: dot(q, p) })).sort((a, b) => b.s - a.s || a.i - b.i);
    rows.push(scored.slice(0, k).map((x) => x.i));
    cosines.push(scored.slice(0, k).map((x) => x.s));
  }
  return { rows, cosines };
};

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

const scale = (xs: number[]) => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0));
};

function topB(atoms: Atom[], score: number[], B: number): string[] {
  return atoms
    .map((a, i) => ({ a, s: score[i]! }))
    .sort((x, y) => y.s - x.s || y.a.addedStep - x.a.addedStep || (x.a.id < y.a.id ? -1 : 1))
    .slice(0, B)
    .map((x) => x.a.id);
}

/** 1 − cosine to the nearest other atom. */
export async function novelty(atoms: Atom[], nearest: Nearest = jsNearest): Promise<number[]> {
  if (atoms.length < 2) return atoms.map(() => 1);
  const v = atoms.map((a) => a.vector);
  const nn = await nearest(v, v, 2);
  return atoms.map((_, i) => {
    const j = nn.rows[i]![0] === i ? 1 : 0; // skip the atom itself (a twin may tie with it)
    return 1 - (nn.cosines[i]![j] ?? nn.cosines[i]![0]!);
  });
}

export async function consolidate(
  atoms: Atom[],
  B: number,
  policy: Consolidation,
  nearest: Nearest = jsNearest,
  seed = 7,
  /** Sleep-replay's clusters. */
  k: number = SLEEP_K,
): Promise<ConsolidationResult> {
  const recency = atoms.map((a) => a.addedStep);
  const usage = atoms.map((a) => a.usage);
  const byId = new Map(atoms.map((a) => [a.id, a]));
  const byAtom = (score: number[]) => Object.fromEntries(atoms.map((a, i) => [a.id, score[i]!]));
  const keptPool = (ids: string[]): PoolAtom[] =>
    ids.map((id) => ({ id, holds: [id], vector: byId.get(id)!.vector, tokens: byId.get(id)!.tokens }));
  const allTokens = atoms.reduce((n, a) => n + a.tokens, 0);
  const pick = (ids: string[], score: number[], replayTokens: number) => ({
    policy,
    kept: ids,
    pool: keptPool(ids),
    score: byAtom(score),
    replayTokens,
  });
  if (policy === 'recency') return pick(topB(atoms, recency, B), recency, 0);
  if (policy === 'frequency') return pick(topB(atoms, usage, B), usage, 0);
  if (policy === 'surprise') {
    const supplied = atoms.length > 0 && atoms.every((a) => a.surprise !== null);
    const sigma = supplied ? atoms.map((a) => a.surprise!) : await novelty(atoms, nearest);
    const [s, r, u] = [scale(sigma), scale(recency), scale(usage)];
    const score = atoms.map(
      (_, i) => SURPRISE_WEIGHTS.sigma * s[i]! + SURPRISE_WEIGHTS.recency * r[i]! + SURPRISE_WEIGHTS.usage * u[i]!,
    );
    // σ from the agent was paid for when it ran; estimated here, every atom is read (embedded) once.
    return {
      ...pick(topB(atoms, score, B), score, supplied ? 0 : allTokens),
      sigma: supplied ? 'supplied' : 'novelty',
    };
  }
  const clusters = await sleepClusters(atoms, k, nearest, seed);
  const score: Record<string, number> = {};
  for (const c of clusters) for (const m of c.members) score[m] = dot(byId.get(m)!.vector, byId.get(c.keep)!.vector);
  const pool = clusters.map((c) =>
    mergeAtoms(
      c.members.map((m) => byId.get(m)!),
      `merged:${c.keep}`,
    ),
  );
  const written = pool.reduce((n, a) => n + a.tokens, 0);
  return { policy, kept: clusters.map((c) => c.keep), pool, score, clusters, replayTokens: allTokens + written };
}

/**
 * An extractive merge of a cluster (no summarizer model here): the distinct statements of its members, embedded as
 * their mean direction, costing their tokens.
 */
export function mergeAtoms(members: readonly Atom[], id: string): PoolAtom & { content: string } {
  const seen = new Set<string>();
  const distinct = members.filter((m) => {
    const key = m.content.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const dims = members[0]?.vector.length ?? 0;
  const v = new Float32Array(dims);
  for (const m of members) for (let d = 0; d < dims; d++) v[d]! += m.vector[d]!;
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += v[d]! * v[d]!;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dims; d++) v[d]! /= norm;
  return {
    id,
    holds: members.map((m) => m.id),
    vector: v,
    tokens: distinct.reduce((n, m) => n + m.tokens, 0),
    content: distinct.map((m) => m.content).join('\n'),
  };
}

export interface Probe {
  /** What the agent asked (unit vector), and the atom whose fact answered it. */
  vector: Float32Array;
  item: string;
}

export interface FactRecall {
  probes: number;
  recalled: number;
  /** recalled ÷ probes; null without probes. */
  share: number | null;
  /** Atoms whose facts a probe no longer retrieves, most-missed first. */
  lost: { item: string; probes: number }[];
  /** The probes missed (indices into the probes), for `lostBeyond`. */
  missed: number[];
}

/** The paper's fact recall (§2): the share of probes whose fact a top-k retrieval over the pool still returns. */
export async function factRecall(
  pool: readonly PoolAtom[],
  probes: readonly Probe[],
  k: number = RECALL_TOP_K,
  nearest: Nearest = jsNearest,
): Promise<FactRecall> {
  // In one order whatever the policy (by id): atoms alike to the digit (a copied statement) tie, and a tie is broken
  // by the order, so a pool that keeps every atom must answer as the memory before it does.
  pool = [...pool].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (!probes.length || !pool.length)
    return {
      probes: probes.length,
      recalled: 0,
      share: probes.length ? 0 : null,
      lost: lostOf(probes),
      missed: probes.map((_, i) => i),
    };
  const nn = await nearest(
    probes.map((p) => p.vector),
    pool.map((a) => a.vector),
    Math.min(k, pool.length),
  );
  const missed: number[] = [];
  probes.forEach((p, i) => {
    if (!nn.rows[i]!.some((row) => pool[row]!.holds.includes(p.item))) missed.push(i);
  });
  return {
    probes: probes.length,
    recalled: probes.length - missed.length,
    share: (probes.length - missed.length) / probes.length,
    lost: lostOf(missed.map((i) => probes[i]!)),
    missed,
  };
}

/**
 * The facts a consolidated pool lost that the memory before it still gave: its missed probes that `before` (the same
 * probes over every atom) recalled, by atom, most-missed first. A probe retrieval missed with nothing removed was
 * never findable, and no policy lost it.
 */
export function lostBeyond(
  after: FactRecall,
  before: FactRecall,
  probes: readonly Probe[],
): { item: string; probes: number }[] {
  const missedBefore = new Set(before.missed);
  return lostOf(after.missed.filter((i) => !missedBefore.has(i)).map((i) => probes[i]!));
}

function lostOf(probes: readonly Probe[]): { item: string; probes: number }[] {
  const n = new Map<string, number>();
  for (const p of probes) n.set(p.item, (n.get(p.item) ?? 0) + 1);
  return [...n]
    .map(([item, c]) => ({ item, probes: c }))
    .sort((a, b) => b.probes - a.probes || (a.item < b.item ? -1 : 1));
}

/**
 * Spherical k-means into min(B, n) clusters; each cluster's kept atom is its medoid. Deterministic for
 * a seed. Seeding is k-means++ in rounds; the assignment step is one `nearest` call per iteration.
 */
export async function sleepClusters(
  atoms: Atom[],
  B: number,
  nearest: Nearest = jsNearest,
  seed = 7,
  iterations = 12,
): Promise<Cluster[]> {
  const n = atoms.length;
  const k = Math.min(B, n);
  if (!k) return [];
  const rand = rng(seed);
  const dims = atoms[0]!.vector.length;
  const vectors = atoms.map((a) => a.vector);
  // k-means++ in rounds: each round samples up to ⌈k/32⌉ centres in proportion to the squared cosine
  // distance to the centres so far, then one `nearest` call updates every atom's best cosine.
  const first = Math.floor(rand() * n);
  const centres: Float32Array[] = [Float32Array.from(atoms[first]!.vector)];
  const best = atoms.map((a) => dot(a.vector, centres[0]!));
  const taken = new Set([first]);
  const perRound = Math.max(1, Math.ceil(k / 32));
  while (centres.length < k) {
    const fresh: Float32Array[] = [];
    const d = best.map((b, i) => (taken.has(i) ? 0 : Math.max(0, 1 - b) ** 2));
    let total = d.reduce((x, y) => x + y, 0);
    while (fresh.length < perRound && centres.length + fresh.length < k) {
      let pick = -1;
      if (total > 0) {
        let r = rand() * total;
        for (let i = 0; i < n; i++)
          if (d[i]! > 0 && (r -= d[i]!) <= 0) {
            pick = i;
            break;
          }
      }
      if (pick < 0) pick = [...Array(n).keys()].find((i) => !taken.has(i))!; // all left are copies of centres
      taken.add(pick);
      total -= d[pick]!;
      d[pick] = 0;
      fresh.push(Float32Array.from(atoms[pick]!.vector));
    }
    centres.push(...fresh);
    const nn = await nearest(vectors, fresh, 1);
    for (let i = 0; i < n; i++) best[i] = Math.max(best[i]!, nn.cosines[i]![0]!);
  }
  let assign = new Array<number>(n).fill(-1);
  for (let it = 0; it < iterations; it++) {
    const next = (await nearest(vectors, centres, 1)).rows.map((r) => r[0]!);
    const moved = next.some((x, i) => x !== assign[i]);
    assign = next;
    if (!moved) break;
    const sums = centres.map(() => new Float32Array(dims));
    const counts = new Array<number>(centres.length).fill(0);
    for (let i = 0; i < n; i++) {
      const sum = sums[assign[i]!]!;
      counts[assign[i]!]!++;
      const v = vectors[i]!;
      for (let d = 0; d < dims; d++) sum[d]! += v[d]!;
    }
    for (let j = 0; j < k; j++) {
      const sum = sums[j]!;
      if (!counts[j]) continue; // an empty cluster keeps its centre
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += sum[d]! * sum[d]!;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) sum[d]! /= norm;
      centres[j] = sum;
    }
  }
  const groups = new Map<number, Atom[]>();
  atoms.forEach((a, i) => groups.set(assign[i]!, [...(groups.get(assign[i]!) ?? []), a]));
  const out: Cluster[] = [];
  for (const members of groups.values()) {
    // Medoid: the member closest to the cluster's mean direction (the member with the highest total
    // cosine to the others).
    const mean = new Float32Array(dims);
    for (const m of members) for (let d = 0; d < dims; d++) mean[d]! += m.vector[d]!;
    let keep = members[0]!;
    let top = -Infinity;
    for (const m of members) {
      const s = dot(m.vector, mean);
      if (s > top) {
        top = s;
        keep = m;
      }
    }
    const cohesion = members.reduce((acc, m) => acc + dot(m.vector, keep.vector), 0) / members.length;
    out.push({ keep: keep.id, members: members.map((m) => m.id), cohesion });
  }
  return out.sort((a, b) => b.members.length - a.members.length || (a.keep < b.keep ? -1 : 1));
}

/** |A ∩ B| for every pair of policies, and for each policy the atoms no other policy would keep. */
export function compareKept(results: ConsolidationResult[]) {
  const sets = results.map((r) => new Set(r.kept));
  const overlap = results.map((_, i) => results.map((__, j) => [...sets[i]!].filter((x) => sets[j]!.has(x)).length));
  const onlyHere = results.map((r, i) => r.kept.filter((x) => sets.every((s, j) => j === i || !s.has(x))));
  return { overlap, onlyHere };
}
