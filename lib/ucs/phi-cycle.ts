/**
 * The φ-cycle of the UCS reference (torusfield_kernel.py `TorusfieldEngine.step_phi`, github.com/KyleMillion/
 * unified-cognitive-substrate at bc0cd59), run every 5th report: `Harvester.detect_all` + `validate` over the trace
 * tail, `ArtifactStore.promote` by stable id, and `PolicyKernel.update` of the routing bias. substrate-sim.ts runs it
 * inside a simulated bridge tick (and injects the artifact mass into the memory field); audit.ts replays it over an
 * action log.
 */
import { clamp, pyRound, REFERENCE_RULES, type TraceStep } from './reference';
import type { EdgeParams } from './routing';

type Json = Record<string, unknown>;

/** An artifact as the kernel exports it (its `meta` is left out: `import_state` drops it on every load). */
export interface HarvestedArtifact {
  id: string;
  kind: string;
  payload: Json;
  score: number;
  created_t: number;
}

/**
 * An artifact's stable id: `_sha256(_stable_json({"kind": kind, <key>: value}))[:16]` (`Harvester.detect_*`), keyed
 * on edge_index (wormhole, resonance) or node (attractor).
 */
export function artifactId(kind: string, key: { edge_index: number } | { node: string }): string {
  const body = 'node' in key ? { kind, node: key.node } : { edge_index: key.edge_index, kind };
  return sha256Hex(JSON.stringify(body)).slice(0, 16);
}

function groupBy<V>(steps: readonly TraceStep[], key: (s: TraceStep) => number | string, val: (s: TraceStep) => V) {
  const m = new Map<number | string, V[]>();
  for (const s of steps) {
    const k = key(s);
    const list = m.get(k);
    if (list) list.push(val(s));
    else m.set(k, [val(s)]);
  }
  return m;
}

/**
 * One φ-cycle's harvest over the trace window (`Harvester.detect_all` then `validate`, the default detectors):
 * wormholes (an edge with ≥ 6 steps and mean reward − cost ≥ 0.35; score mean·ln(1 + hits)), attractors (a
 * destination with > 15 % of the steps and ≥ 6 visits; score frequency·ln(1 + visits)) and resonances (with ≥ 20
 * steps, an edge taken ≥ 6 times at intervals whose coefficient of variation is < 0.3; score (1 − cv)·ln(1 + n)),
 * each in order of first appearance, those scoring > 0.
 */
export function harvest(window: readonly TraceStep[], nowT: number): HarvestedArtifact[] {
  const R = REFERENCE_RULES;
  const out: HarvestedArtifact[] = [];
  for (const [eidx, vals] of groupBy(
    window,
    (s) => s.edge_index,
    (s) => s.reward - s.cost,
  )) {
    if (vals.length < R.wormhole.minHits) continue;
    const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
    if (mean < R.wormhole.minMeanNet) continue;
    const edge_index = eidx as number;
    out.push({
      id: artifactId('wormhole', { edge_index }),
      kind: 'wormhole',
      payload: { edge_index, hits: vals.length, mean_net: pyRound(mean, 6) },
      score: mean * Math.log(1 + vals.length),
      created_t: nowT,
    });
  }
  const total = window.length || 1;
  for (const [key, visits] of groupBy(
    window,
    (s) => s.dst,
    () => 1,
  )) {
    const [node, count] = [key as string, visits.length];
    const freq = count / total;
    if (!(freq > R.attractor.minFrequency && count >= R.attractor.minHits)) continue;
    out.push({
      id: artifactId('attractor', { node }),
      kind: 'attractor',
      payload: { node, visits: count, frequency: pyRound(freq, 4) },
      score: freq * Math.log(1 + count),
      created_t: nowT,
    });
  }
  if (window.length >= R.resonance.minTrace) {
    for (const [eidx, ts] of groupBy(
      window,
      (s) => s.edge_index,
      (s) => s.t,
    )) {
      if (ts.length < R.resonance.minTimes) continue;
      const iv = ts.slice(1).map((t, k) => t - ts[k]!);
      const mean = iv.reduce((a, b) => a + b, 0) / iv.length;
      if (mean < 1) continue;
      const variance = iv.reduce((a, x) => a + (x - mean) * (x - mean), 0) / iv.length;
      const cv = mean > 0 ? Math.sqrt(variance) / mean : 999;
      if (!(cv < R.resonance.maxCv && ts.length >= R.resonance.minOccurrences)) continue;
      const edge_index = eidx as number;
      out.push({
        id: artifactId('resonance', { edge_index }),
        kind: 'resonance',
        payload: { edge_index, period: pyRound(mean, 2), cv: pyRound(cv, 4), occurrences: ts.length },
        score: (1.0 - cv) * Math.log(1 + ts.length),
        created_t: nowT,
      });
    }
  }
  return out.filter((a) => a.score > 0);
}

/**
 * `PolicyKernel.update`, in place: each wormhole adds clamp(score, 0, 5) to its edge's bias, each attractor
 * clamp(0.3·score, 0, 2) to every outgoing edge of its node; then every bias × 0.995, and those under 1e-6 are
 * dropped. (The cap bounds each addition, not the bias, which keeps growing while a pattern holds.) Biases are keyed
 * by edge index as text.
 */
export function updatePolicyBias(
  bias: Record<string, number>,
  harvested: readonly HarvestedArtifact[],
  edges: readonly EdgeParams[],
) {
  const B = REFERENCE_RULES.bias;
  const add = (i: number, v: number) => (bias[String(i)] = (bias[String(i)] ?? 0.0) + v);
  for (const a of harvested) {
    if (a.kind === 'wormhole' && 'edge_index' in a.payload)
      add(Math.trunc(Number(a.payload.edge_index)), clamp(a.score, 0, B.wormholeCap));
    else if (a.kind === 'attractor' && 'node' in a.payload)
      edges.forEach(
        (e, i) => e.src === a.payload.node && add(i, clamp(a.score * B.attractorFactor, 0, B.attractorCap)),
      );
  }
  for (const k of Object.keys(bias)) {
    const d = bias[k]! * B.decay;
    if (Math.abs(d) < B.floor) delete bias[k];
    else bias[k] = d;
  }
}

/**
 * `ArtifactStore.promote`, in place: new ids are added, known ones take the new payload and score (keeping their
 * created_t). Returns the new ids.
 */
export function promote(store: Map<string, HarvestedArtifact>, harvested: readonly HarvestedArtifact[]): string[] {
  const fresh: string[] = [];
  for (const a of harvested) {
    const prev = store.get(a.id);
    if (prev) store.set(a.id, { ...prev, payload: a.payload, score: a.score });
    else {
      store.set(a.id, { ...a });
      fresh.push(a.id);
    }
  }
  return fresh;
}

export interface PhiCycle {
  harvested: HarvestedArtifact[];
  /** Ids new to the store (empty without a store). */
  promoted: string[];
  /** Σ score of what was harvested: step_phi injects 0.15 × this into the memory field. */
  mass: number;
}

/**
 * One φ-cycle at step t over the trace tail: harvest, promote into `store` (when one is kept), update `bias` in
 * place. The memory injection is left to the caller, who holds the field.
 */
export function phiCycle(
  trace: readonly TraceStep[],
  t: number,
  edges: readonly EdgeParams[],
  bias: Record<string, number>,
  store?: Map<string, HarvestedArtifact>,
): PhiCycle {
  const harvested = harvest(trace, t);
  const promoted = store ? promote(store, harvested) : [];
  updatePolicyBias(bias, harvested, edges);
  return { harvested, promoted, mass: harvested.reduce((a, x) => a + x.score, 0) };
}

// ---------------------------------------------------------------- sha256 (artifact ids)

const K256 = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];

/** SHA-256 of a string's UTF-8 bytes, as hex (what `_sha256` returns). */
export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const len = (((bytes.length + 9 + 63) >> 6) << 6) >>> 0;
  const buf = new Uint8Array(len);
  buf.set(bytes);
  buf[bytes.length] = 0x80;
  const view = new DataView(buf.buffer);
  view.setUint32(len - 4, (bytes.length * 8) >>> 0);
  view.setUint32(len - 8, Math.floor((bytes.length * 8) / 2 ** 32));
  const h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const w = new Uint32Array(64);
  const rot = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < len; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rot(a, 7) ^ rot(a, 18) ^ (a >>> 3);
      const s1 = rot(b, 17) ^ rot(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K256[i]! + w[i]!) >>> 0;
      const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = (h[i]! + v) >>> 0));
  }
  return h.map((x) => x.toString(16).padStart(8, '0')).join('');
}
