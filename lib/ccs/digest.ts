import type { CcsTerms } from './contract';
import { diffCcs } from './diff';
import type { TermEventKind } from './provenance';
import { ALERT_CAP, emptyRunning, spikes, type Alert, type AlertKind, type Running } from './alerts';
import { injectionIn } from '@/lib/curation/injection';

/**
 * A whole session in a size that does not grow with it: what the replay opens with. Turn numbers as runs;
 * per-turn figures and the timeline's change sizes reduced to at most `DIGEST_BUCKETS` buckets of consecutive
 * turns (first, lowest, highest and last value of each, the M4 reduction, so no spike is lost at any width);
 * constraint presence as runs. Built incrementally as turns arrive (`DigestBuilder`), kept in the database
 * (server/services/session-digest.ts); the CCS of a turn, its diff and its terms' history come from the turns
 * themselves and from `term_events`, fetched around the playhead.
 */

/** Full turns are fetched this many at a time, around the playhead. */
export const TURN_WINDOW = 100;

/** At most this many buckets: a bucket holds 1, 2, 4, … turns, doubling as the session grows. */
export const DIGEST_BUCKETS = 1024;

/** Per bucket, the first, lowest, highest and last value of its turns; null where none of them has one. */
export interface M4 {
  first: (number | null)[];
  min: (number | null)[];
  max: (number | null)[];
  last: (number | null)[];
}

/**
 * Digests built by an earlier version are built again from the turns (server/services/session-digest.ts).
 * 5: a usage figure below 0 is none.
 */
export const DIGEST_VERSION = 5;

export interface SessionDigest {
  /** DIGEST_VERSION of the code that built it (absent before version 2). */
  v?: number;
  /** Number of turns. */
  n: number;
  /** Turn numbers as runs of consecutive numbers: [first turn, how many]. */
  runs: [number, number][];
  firstAt: string | null;
  lastAt: string | null;
  /** Turns per bucket (a power of two). */
  size: number;
  /**
   * Per bucket: the largest change of its turns (terms added + removed + changed, or for a turn with a graph state and
   * no CCS the paths of it that changed; 0 = the state repeated).
   */
  change: number[];
  /** Per bucket: 1 when a turn number in it skips from the previous turn's. */
  gap: number[];
  /** Per bucket: the first stress kind among its turns. */
  stressed: (string | null)[];
  /**
   * Figures per bucket: `footprint.ccs`, `footprint.transcript`, `footprint.retrieval`, `h`, `d`, `judge.<name>`, and
   * for traced agents `usage.tokens` (in + out), `usage.cost`, `usage.latency` (ms).
   */
  series: Record<string, M4>;
  /** Distinct constraints in order of first appearance, with the runs of turn indexes where each is present. */
  constraints: { term: string; segs: [number, number][]; kept: number }[];
  /** Stress turns: [turn index, kind]. */
  stress: [number, string][];
  /** What went wrong, in turn order (lib/ccs/alerts.ts): the first ALERT_CAP. */
  alerts: Alert[];
  /** How many of each kind, kept or not. */
  alertCounts: Partial<Record<AlertKind, number>>;
  /** H_t and D_t so far, to tell a spike. */
  running: { h: Running; d: Running };
}

export interface DigestRow {
  turn: number;
  timestamp: string | null;
  stress: string | null;
  /** The turn's input (its first characters), checked for an injection nobody declared. */
  input?: string | null;
  footprint: Partial<Record<'ccs' | 'transcript' | 'retrieval', number>> | null;
  hallucination: number | null;
  drift: number | null;
  judge: Record<string, number> | null;
  ccs: CcsTerms;
  /** A traced agent's totals for the turn (whole OTLP traces): tokens, cost, latency. Absent when not sent. */
  usage?: { input_tokens?: number; output_tokens?: number; cost?: number; latency_ms?: number } | null;
  /**
   * For a turn that carries a graph state instead of a CCS (lib/import/langgraph.ts): how many paths of it changed
   * from the previous turn's. Its change size when its CCS is empty.
   */
  stateChanges?: number | null;
}

/** One line of a term's history, as stored in `term_events`. */
export interface TermEventRow {
  field: string;
  term: string;
  turn: number;
  kind: TermEventKind;
  other: string | null;
}

export function emptyDigest(): SessionDigest {
  return {
    n: 0,
    runs: [],
    firstAt: null,
    lastAt: null,
    size: 1,
    change: [],
    gap: [],
    stressed: [],
    series: {},
    constraints: [],
    stress: [],
    v: DIGEST_VERSION,
    alerts: [],
    alertCounts: {},
    running: { h: emptyRunning(), d: emptyRunning() },
  };
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A figure of a turn's `usage`, an extra field any agent may send in any shape: a JSON number, not negative (no count,
 * cost or time is; "$-1.00" is a bug of the sender's, not a refund). As the sessions list counts them (`usageSql`).
 */
export const usageNumber = (v: unknown): v is number => finite(v) && v >= 0;

/** A turn's tokens (in + out), cost and latency from its `usage` (`usageNumber`s only); null where none was sent. */
export function usageFigures(usage: unknown): { tokens: number | null; cost: number | null; latency: number | null } {
  const u = usage && typeof usage === 'object' ? (usage as Record<string, unknown>) : {};
  const n = (v: unknown) => (usageNumber(v) ? v : null);
  const [input, output] = [n(u.input_tokens), n(u.output_tokens)];
  return {
    tokens: input !== null || output !== null ? (input ?? 0) + (output ?? 0) : null,
    cost: n(u.cost),
    latency: n(u.latency_ms),
  };
}

function emptyM4(buckets: number): M4 {
  const nulls = () => new Array<number | null>(buckets).fill(null);
  return { first: nulls(), min: nulls(), max: nulls(), last: nulls() };
}

/** Adds value v to bucket b of s (a bucket's turns arrive in order). */
function addTo(s: M4, b: number, v: number | null) {
  while (s.first.length <= b) for (const k of ['first', 'min', 'max', 'last'] as const) s[k].push(null);
  if (!finite(v)) return;
  if (s.first[b] === null) s.first[b] = v;
  if (s.min[b] === null || v < s.min[b]!) s.min[b] = v;
  if (s.max[b] === null || v > s.max[b]!) s.max[b] = v;
  s.last[b] = v;
}

const pairs = <T>(list: T[], merge: (a: T, b: T) => T): T[] => {
  const out: T[] = [];
  for (let k = 0; k < list.length; k += 2) out.push(k + 1 < list.length ? merge(list[k]!, list[k + 1]!) : list[k]!);
  return out;
};
const minOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const maxOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** Halves the number of buckets: bucket k becomes buckets 2k and 2k+1 merged. */
function coarsen(d: SessionDigest) {
  d.size *= 2;
  d.change = pairs(d.change, Math.max);
  d.gap = pairs(d.gap, (a, b) => a | b);
  d.stressed = pairs(d.stressed, (a, b) => a ?? b);
  for (const s of Object.values(d.series)) {
    s.first = pairs(s.first, (a, b) => a ?? b);
    s.min = pairs(s.min, minOf);
    s.max = pairs(s.max, maxOf);
    s.last = pairs(s.last, (a, b) => b ?? a);
  }
}

/**
 * Extends a digest turn by turn, in turn order; `push` returns the turn's term events (the provenance the server
 * stores in `term_events`). The state (the digest and the last CCS) is plain JSON, so a builder resumes from what
 * the database kept.
 */
export class DigestBuilder {
  readonly digest: SessionDigest;
  last: CcsTerms;
  lastTurn: number | null;
  private readonly constraintIndex = new Map<string, number>();

  constructor(state?: { digest: SessionDigest; last: CcsTerms; lastTurn: number | null }) {
    this.digest = state ? state.digest : emptyDigest();
    this.last = state?.last ?? {};
    this.lastTurn = state?.lastTurn ?? null;
    this.digest.constraints.forEach((c, k) => this.constraintIndex.set(c.term, k));
  }

  push(row: DigestRow): TermEventRow[] {
    const d = this.digest;
    if (this.lastTurn !== null && row.turn <= this.lastTurn)
      throw new Error(`turn ${row.turn} does not come after turn ${this.lastTurn}`);
    const i = d.n;
    if (Math.floor(i / d.size) >= DIGEST_BUCKETS) coarsen(d);
    const b = Math.floor(i / d.size);
    const gap = this.lastTurn !== null && row.turn - this.lastTurn > 1;
    const run = d.runs.at(-1);
    if (run && run[0] + run[1] === row.turn) run[1]++;
    else d.runs.push([row.turn, 1]);
    if (row.timestamp) {
      d.firstAt ??= row.timestamp;
      d.lastAt = row.timestamp;
    }

    const diff = diffCcs(this.last, row.ccs);
    const events: TermEventRow[] = [];
    for (const f of diff.fields) {
      for (const term of f.added) events.push({ field: f.field, term, turn: row.turn, kind: 'added', other: null });
      for (const term of f.removed) events.push({ field: f.field, term, turn: row.turn, kind: 'removed', other: null });
      for (const c of f.changed) {
        events.push({ field: f.field, term: c.from, turn: row.turn, kind: 'changed_from', other: c.to });
        events.push({ field: f.field, term: c.to, turn: row.turn, kind: 'changed_to', other: c.from });
      }
    }
    const stateChanges = row.stateChanges;
    const size =
      typeof stateChanges === 'number' &&
      Number.isFinite(stateChanges) &&
      Object.values(row.ccs).every((t) => !t?.length)
        ? Math.max(0, Math.round(stateChanges))
        : diff.counts.added + diff.counts.removed + diff.counts.changed;
    const alert = (a: Alert) => {
      d.alertCounts[a.kind] = (d.alertCounts[a.kind] ?? 0) + 1;
      if (d.alerts.length < ALERT_CAP) d.alerts.push(a);
    };
    const constraints = diff.fields.find((f) => f.field === 'constraints');
    for (const term of constraints?.removed ?? []) alert({ i, kind: 'constraint_dropped', what: term });
    for (const c of constraints?.changed ?? []) alert({ i, kind: 'constraint_changed', what: c.from, to: c.to });
    for (const [key, v] of [
      ['h', row.hallucination],
      ['d', row.drift],
    ] as const)
      if (finite(v)) {
        const r = d.running[key];
        const mean = r.mean;
        if (spikes(r, v)) alert({ i, kind: `${key}_spike`, what: key === 'h' ? 'H_t' : 'D_t', value: v, mean });
      }
    if (row.stress) alert({ i, kind: 'stress', what: row.stress });
    // An injection in the data that nobody declared: flagged, and marked on the timeline as a stress turn.
    const found = !row.stress && row.input ? injectionIn(row.input) : null;
    if (found) alert({ i, kind: 'injection', what: found });
    const stress = row.stress ?? (found ? 'injection' : null);
    if (d.change.length <= b) {
      d.change.push(size);
      d.gap.push(gap ? 1 : 0);
      d.stressed.push(stress);
    } else {
      d.change[b] = Math.max(d.change[b]!, size);
      if (gap) d.gap[b] = 1;
      d.stressed[b] ??= stress;
    }
    if (stress) d.stress.push([i, stress]);

    const usage = usageFigures(row.usage);
    const figures: [string, number | null | undefined][] = [
      ['footprint.ccs', row.footprint?.ccs],
      ['footprint.transcript', row.footprint?.transcript],
      ['footprint.retrieval', row.footprint?.retrieval],
      ['h', row.hallucination],
      ['d', row.drift],
      ...Object.entries(row.judge ?? {}).map(([k, v]): [string, number] => [`judge.${k}`, v]),
      ['usage.tokens', usage.tokens],
      ['usage.cost', usage.cost],
      ['usage.latency', usage.latency],
    ];
    for (const [key, v] of figures) {
      if (!finite(v) && !d.series[key]) continue;
      d.series[key] ??= emptyM4(b);
      addTo(d.series[key], b, v ?? null);
    }
    for (const s of Object.values(d.series)) addTo(s, b, null);

    for (const c of new Set(row.ccs.constraints ?? [])) {
      let k = this.constraintIndex.get(c);
      if (k === undefined) {
        k = d.constraints.push({ term: c, segs: [], kept: 0 }) - 1;
        this.constraintIndex.set(c, k);
      }
      const entry = d.constraints[k]!;
      const seg = entry.segs.at(-1);
      if (seg && seg[1] === i - 1) seg[1] = i;
      else entry.segs.push([i, i]);
      entry.kept++;
    }

    d.n++;
    this.last = row.ccs;
    this.lastTurn = row.turn;
    return events;
  }
}

/**
 * The digest as the browser gets it: a constraint that came and went more often than there are buckets has its
 * runs joined where they are closer than a bucket (what a chart can show anyway); everything else as kept.
 */
export function digestView(d: SessionDigest): SessionDigest {
  return {
    ...d,
    constraints: d.constraints.map((c) => {
      if (c.segs.length <= DIGEST_BUCKETS) return c;
      const segs: [number, number][] = [];
      for (const s of c.segs) {
        const prev = segs.at(-1);
        if (prev && s[0] - prev[1] <= d.size) prev[1] = s[1];
        else segs.push([s[0], s[1]]);
      }
      return { ...c, segs };
    }),
  };
}

/**
 * Where a constraint next changes after index `at`: the first index past it where the constraint appears or is
 * dropped (runs `segs` inclusive, as in `SessionDigest.constraints`, in a session of `n` turns); past the last change,
 * its first appearance again. The constraint timeline's keyboard path through a constraint's history.
 */
export function nextChange(segs: readonly [number, number][], at: number, n: number): number {
  const changes: number[] = [];
  for (const [a, b] of segs) {
    changes.push(a);
    if (b + 1 < n) changes.push(b + 1);
  }
  return changes.find((c) => c > at) ?? changes[0] ?? 0;
}

/** The turn number at index i (runs as in `SessionDigest.runs`). */
export function turnAt(runs: readonly [number, number][], i: number): number {
  let k = i;
  for (const [first, count] of runs) {
    if (k < count) return first + k;
    k -= count;
  }
  const last = runs.at(-1);
  return last ? last[0] + last[1] - 1 : 0;
}

/** A term's events are counted up to this many (and one more, meaning "over"), for "where did this come from". */
export const BLAME_COUNT_CAP = 100;

/** Whether the session holds a turn numbered `turn`. */
export function hasTurn(runs: readonly [number, number][], turn: number): boolean {
  return Number.isInteger(turn) && runs.some(([first, count]) => turn >= first && turn < first + count);
}

/** Index of the turn numbered `turn`, or of the nearest one after it (the last turn when there is none after). */
export function indexOfTurnInRuns(runs: readonly [number, number][], turn: number): number {
  let base = 0;
  for (const [first, count] of runs) {
    if (turn < first) return base;
    if (turn < first + count) return base + Math.ceil(turn - first);
    base += count;
  }
  return Math.max(0, base - 1);
}

/** The turns a session holds, in words: "turns 1–50", "turns 1–2, 10" (the first runs and the last, with gaps). */
export function heldTurns(runs: readonly [number, number][]): string {
  const spans = runs.map(([first, count]) => (count === 1 ? `${first}` : `${first}–${first + count - 1}`));
  return `turns ${spans.length <= 3 ? spans.join(', ') : `${spans.slice(0, 2).join(', ')}, … ${spans.at(-1)}`}`;
}
