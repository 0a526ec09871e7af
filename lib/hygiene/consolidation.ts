/**
 * Consolidation under a budget of B atoms (memory-consolidation-policies paper §3): which atoms each
 * policy keeps.
 *
 * - recency: the B most recent atoms.
 * - frequency: the B most retrieved (ties: more recent first).
 * - surprise-weighted: s(e) = 0.55·σ(e) + 0.25·recency(e) + 0.20·usage(e), each term scaled to 0–1
 *   over the atoms. σ is the agent's −log p(e | context) when it supplied one; otherwise embedding
 *   novelty, 1 − the cosine to the atom's nearest other atom (said so on screen).
 * - sleep-replay: cluster by embedding into B clusters (spherical k-means, k-means++ seeding with a
 *   fixed seed) and merge each cluster into one atom; the kept atom of a cluster is its medoid, the
 *   others are merge candidates.
 */
import { rng } from '@/lib/random';

export interface Atom {
  id: string;
  /** Unit-length embedding. */
  vector: Float32Array;
  addedStep: number;
  usage: number;
  /** −log p(e | context) from the agent's model, when supplied. */
  surprise: number | null;
}

export type Consolidation = 'recency' | 'frequency' | 'surprise' | 'sleep';
export const CONSOLIDATIONS: Consolidation[] = ['recency', 'frequency', 'surprise', 'sleep'];
export const SURPRISE_WEIGHTS = { sigma: 0.55, recency: 0.25, usage: 0.2 } as const;

export interface Cluster {
  keep: string;
  members: string[];
  /** Mean cosine of the members to the kept atom. */
  cohesion: number;
}

export interface ConsolidationResult {
  policy: Consolidation;
  kept: string[];
  /** Per atom, the policy's score (higher keeps); for sleep-replay the cosine to its cluster's kept atom. */
  score: Record<string, number>;
  clusters?: Cluster[];
  /** Whether σ came from the agent (all atoms) or was estimated as embedding novelty. */
  sigma?: 'supplied' | 'novelty';
}

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
export function novelty(atoms: Atom[]): number[] {
  return atoms.map((a, i) => {
    let best = -1;
    atoms.forEach((b, j) => {
      if (i !== j) best = Math.max(best, dot(a.vector, b.vector));
    });
    return atoms.length > 1 ? 1 - best : 1;
  });
}

export function consolidate(atoms: Atom[], B: number, policy: Consolidation, seed = 7): ConsolidationResult {
  const recency = atoms.map((a) => a.addedStep);
  const usage = atoms.map((a) => a.usage);
  const record = (score: number[]) => Object.fromEntries(atoms.map((a, i) => [a.id, score[i]!]));
  if (policy === 'recency') return { policy, kept: topB(atoms, recency, B), score: record(recency) };
  if (policy === 'frequency') return { policy, kept: topB(atoms, usage, B), score: record(usage) };
  if (policy === 'surprise') {
    const supplied = atoms.length > 0 && atoms.every((a) => a.surprise !== null);
    const sigma = supplied ? atoms.map((a) => a.surprise!) : novelty(atoms);
    const [s, r, u] = [scale(sigma), scale(recency), scale(usage)];
    const score = atoms.map((_, i) => SURPRISE_WEIGHTS.sigma * s[i]! + SURPRISE_WEIGHTS.recency * r[i]! + SURPRISE_WEIGHTS.usage * u[i]!);
    return { policy, kept: topB(atoms, score, B), score: record(score), sigma: supplied ? 'supplied' : 'novelty' };
  }
  const clusters = sleepClusters(atoms, B, seed);
  const score: Record<string, number> = {};
  const byId = new Map(atoms.map((a) => [a.id, a]));
  for (const c of clusters) for (const m of c.members) score[m] = dot(byId.get(m)!.vector, byId.get(c.keep)!.vector);
  return { policy, kept: clusters.map((c) => c.keep), score, clusters };
}

/** Spherical k-means into min(B, n) clusters; each cluster's kept atom is its medoid. Deterministic for a seed. */
export function sleepClusters(atoms: Atom[], B: number, seed = 7, iterations = 25): Cluster[] {
  const n = atoms.length;
  const k = Math.min(B, n);
  if (!k) return [];
  const rand = rng(seed);
  const dims = atoms[0]!.vector.length;
  // k-means++ seeding on cosine distance.
  const centres: Float32Array[] = [Float32Array.from(atoms[Math.floor(rand() * n)]!.vector)];
  while (centres.length < k) {
    const d = atoms.map((a) => Math.max(0, 1 - Math.max(...centres.map((c) => dot(a.vector, c)))) ** 2);
    const total = d.reduce((x, y) => x + y, 0);
    let pick = 0;
    if (total > 0) {
      let r = rand() * total;
      while (pick < n - 1 && (r -= d[pick]!) > 0) pick++;
    } else pick = centres.length; // all atoms identical to a centre: take them in order
    centres.push(Float32Array.from(atoms[pick % n]!.vector));
  }
  let assign = new Array<number>(n).fill(0);
  for (let it = 0; it < iterations; it++) {
    const next = atoms.map((a) => {
      let best = 0;
      let bs = -Infinity;
      centres.forEach((c, j) => {
        const s = dot(a.vector, c);
        if (s > bs) {
          bs = s;
          best = j;
        }
      });
      return best;
    });
    const moved = next.some((x, i) => x !== assign[i]);
    assign = next;
    for (let j = 0; j < k; j++) {
      const sum = new Float32Array(dims);
      let count = 0;
      atoms.forEach((a, i) => {
        if (assign[i] !== j) return;
        count++;
        for (let d = 0; d < dims; d++) sum[d]! += a.vector[d]!;
      });
      if (!count) continue; // an empty cluster keeps its centre
      const norm = Math.hypot(...sum) || 1;
      for (let d = 0; d < dims; d++) sum[d]! /= norm;
      centres[j] = sum;
    }
    if (!moved && it > 0) break;
  }
  const out: Cluster[] = [];
  for (let j = 0; j < k; j++) {
    const members = atoms.filter((_, i) => assign[i] === j);
    if (!members.length) continue;
    // Medoid: the member with the highest total cosine to the others.
    let keep = members[0]!;
    let best = -Infinity;
    for (const m of members) {
      const s = members.reduce((acc, o) => acc + dot(m.vector, o.vector), 0);
      if (s > best) {
        best = s;
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

/**
 * What a policy loses: the atoms it drops, with how often they were recalled; and the share of all
 * recorded recalls that still land on a kept atom (for sleep-replay, on a kept or merged one).
 */
export function coverage(atoms: Atom[], r: ConsolidationResult): { retainedUsage: number; dropped: string[] } {
  const kept = new Set(r.clusters ? r.clusters.flatMap((c) => c.members) : r.kept);
  const total = atoms.reduce((s, a) => s + a.usage, 0);
  const held = atoms.filter((a) => kept.has(a.id)).reduce((s, a) => s + a.usage, 0);
  const dropped = atoms.filter((a) => !new Set(r.kept).has(a.id)).sort((a, b) => b.usage - a.usage).map((a) => a.id);
  return { retainedUsage: total ? held / total : 1, dropped };
}
