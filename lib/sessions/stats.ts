/**
 * Per-session figures for the sessions list, kept up to date as turns arrive (`server/services/session-stats.ts`)
 * so that the list reads one small row a session and never the turns: its cost grows with the number of sessions,
 * not with the number of turns. Pure, so that the incremental path (a batch of turns added to a session's row) and
 * the rebuild from the turns (imports, the back-fill after upgrading) give the same figures, tested.
 *
 * The footprint sparklines are kept as at most 64 buckets of turn numbers, each `width` turns wide (a power of
 * two) holding the sum and count of the footprints in it: when a turn lands past the 64th bucket the width
 * doubles and neighbouring buckets merge, so the row stays the same size however long the session grows.
 */
export const SPARK_BUCKETS = 64;

/** The sum and count of the values in one bucket. */
export type Bucket = [sum: number, n: number];

export interface SessionStats {
  turnCount: number;
  firstAt: string | null;
  lastAt: string | null;
  hSum: number;
  hN: number;
  /** D̄'s sum and count: the drift of every turn but the session's first (whatever its number). */
  dSum: number;
  dN: number;
  /** The session's first turn (the lowest number so far) and its drift, left out of D̄ until an earlier one comes. */
  firstTurn: number | null;
  firstDrift: number | null;
  /** Turn numbers per bucket: 1, 2, 4, … */
  width: number;
  ccs: Bucket[];
  transcript: Bucket[];
  /** A traced agent's work (whole OTLP traces): tokens in + out, cost, latency, summed over turns that sent them. */
  tokens: number;
  tokensN: number;
  cost: number;
  costN: number;
  latencySum: number;
  latencyN: number;
}

export interface StatsTurn {
  turn: number;
  /** ISO time of the turn, when it was sent. */
  ts: string | null;
  hallucination: number | null;
  drift: number | null;
  /** The turn's footprint, CCS and transcript, when sent. */
  ccs: number | null;
  transcript: number | null;
  /** The turn's tokens (in + out), cost and latency in ms, when a traced agent sent them. */
  tokens?: number | null;
  cost?: number | null;
  latency?: number | null;
}

export const emptyStats = (): SessionStats => ({
  turnCount: 0,
  firstAt: null,
  lastAt: null,
  hSum: 0,
  hN: 0,
  dSum: 0,
  dN: 0,
  firstTurn: null,
  firstDrift: null,
  width: 1,
  ccs: [],
  transcript: [],
  tokens: 0,
  tokensN: 0,
  cost: 0,
  costN: 0,
  latencySum: 0,
  latencyN: 0,
});

/** The bucket of a turn number at a width (turns before 1 fall in the first). */
export const bucketOf = (turn: number, width: number) => Math.floor((Math.max(turn, 1) - 1) / width);

/** The narrowest width (a power of two) at which turns up to `maxTurn` fit in the buckets. */
export function widthFor(maxTurn: number): number {
  let w = 1;
  while (bucketOf(maxTurn, w) >= SPARK_BUCKETS) w *= 2;
  return w;
}

function merged(b: readonly Bucket[]): Bucket[] {
  const out: Bucket[] = [];
  for (let i = 0; i < b.length; i += 2) {
    const x = b[i]!;
    const y = b[i + 1] ?? [0, 0];
    out.push([x[0] + y[0], x[1] + y[1]]);
  }
  return out;
}

function put(b: Bucket[], i: number, v: number | null) {
  while (b.length <= i) b.push([0, 0]);
  if (v === null || !Number.isFinite(v)) return;
  b[i]![0] += v;
  b[i]![1] += 1;
}

const earlier = (a: string | null, b: string | null) =>
  a === null ? b : b === null || Date.parse(a) <= Date.parse(b) ? a : b;
const later = (a: string | null, b: string | null) =>
  a === null ? b : b === null || Date.parse(a) >= Date.parse(b) ? a : b;

/** The figures with `turns` (new to the session) added; `s` is not changed. */
export function addTurns(s: SessionStats, turns: readonly StatsTurn[]): SessionStats {
  if (!turns.length) return s;
  const out: SessionStats = { ...s, ccs: s.ccs.map((x) => [...x]), transcript: s.transcript.map((x) => [...x]) };
  const need = widthFor(Math.max(...turns.map((t) => t.turn)));
  while (out.width < need) {
    out.width *= 2;
    out.ccs = merged(out.ccs);
    out.transcript = merged(out.transcript);
  }
  for (const t of turns) {
    out.turnCount++;
    out.firstAt = earlier(out.firstAt, t.ts);
    out.lastAt = later(out.lastAt, t.ts);
    if (t.hallucination !== null && Number.isFinite(t.hallucination)) {
      out.hSum += t.hallucination;
      out.hN++;
    }
    // D̄ = 1/(T−1)·Σ_{t=2..T} D_t (ACC §5.3): drift is undefined at the session's first turn, which has no prior
    // state. The first is the lowest number, 0 or 1 or another: a turn that comes later with a lower number takes
    // its place, and the one it displaces counts.
    const drift = t.drift !== null && Number.isFinite(t.drift) ? t.drift : null;
    let counted: number | null = drift;
    if (out.firstTurn === null || t.turn < out.firstTurn) {
      counted = out.firstTurn === null ? null : out.firstDrift;
      out.firstTurn = t.turn;
      out.firstDrift = drift;
    }
    if (counted !== null) {
      out.dSum += counted;
      out.dN++;
    }
    if (t.tokens !== null && t.tokens !== undefined && Number.isFinite(t.tokens)) {
      out.tokens += t.tokens;
      out.tokensN++;
    }
    if (t.cost !== null && t.cost !== undefined && Number.isFinite(t.cost)) {
      out.cost += t.cost;
      out.costN++;
    }
    if (t.latency !== null && t.latency !== undefined && Number.isFinite(t.latency)) {
      out.latencySum += t.latency;
      out.latencyN++;
    }
    const i = bucketOf(t.turn, out.width);
    put(out.ccs, i, t.ccs);
    put(out.transcript, i, t.transcript);
  }
  return out;
}

/** The mean of every value in the buckets (M̄ of ACC §5.3 for the footprint), null when none was sent. */
export function bucketsMean(b: readonly Bucket[]): number | null {
  let sum = 0;
  let n = 0;
  for (const [s, k] of b) {
    sum += s;
    n += k;
  }
  return n ? sum / n : null;
}

/** A sparkline from buckets: each bucket's mean, null where it holds no value. */
export const sparkline = (b: readonly Bucket[]): (number | null)[] => b.map(([sum, n]) => (n ? sum / n : null));
