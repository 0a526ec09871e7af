/**
 * Memory item health for the memory hygiene lab, after "How Memory Management Impacts LLM Agents: An
 * Empirical Study of Experience-Following Behavior": for every memory item (an artifact of the agent's
 * external store, or a durable memory entry), each time it was recalled, into which turn, how that turn
 * went, and that paper's two similarities — input (the turn's query vs the item's query) and output
 * (the turn's output vs the item's execution). Pure: similarities come in as numbers.
 */

/** The hygiene lab's unit ("memory record" in that paper; not an ingest record). */
export interface MemoryItem {
  id: string;
  /** An artifact of the external store, or a durable memory entry. */
  source: 'artifact' | 'entry';
  kind: string | null;
  content: string;
  /** Position in the timeline at which it entered memory (0: before the first turn). */
  addedStep: number;
  addedAt: string | null;
  /** The turn whose execution it stores, when the agent added it from one. */
  fromTurn: { session: string; turn: number } | null;
  /** A model log-probability based surprise, when the agent supplied one. */
  surprise: number | null;
  /** Evaluator's decision when the agent added it (selective addition). */
  addition: AdditionDecision | null;
}

export interface AdditionDecision {
  decision: 'added' | 'skipped';
  evaluator: string | null;
  score: number | null;
}

export interface LabTurn {
  /** 1-based position in the agent's timeline (all its sessions, by time). */
  step: number;
  session: string;
  turn: number;
  ts: string | null;
  input: string;
  output: string;
  recalled: string[];
  qualified: string[];
  /** 0–1: how well the turn went, from the best source the agent reported (see `utilityOf`). */
  utility: number | null;
  utilitySource: UtilitySource | null;
  hallucination: number | null;
  drift: number | null;
  addition: AdditionDecision | null;
}

export type UtilitySource = 'utility' | 'success' | 'judge' | 'hallucination';

/**
 * A turn's utility: the agent's own `utility` (0–1) or `success` when it reports them, else the mean
 * judge score (scaled to 0–1 when scores run to 10 or 100), else 1 − H_t.
 */
export function utilityOf(t: {
  extra?: Record<string, unknown> | null;
  judge?: Record<string, number> | null;
  hallucination?: number | null;
}): { value: number; source: UtilitySource } | null {
  const u = t.extra?.utility;
  if (typeof u === 'number' && Number.isFinite(u)) return { value: clamp01(u), source: 'utility' };
  const s = t.extra?.success;
  if (typeof s === 'boolean') return { value: s ? 1 : 0, source: 'success' };
  if (typeof s === 'number' && Number.isFinite(s)) return { value: clamp01(s), source: 'success' };
  const scores = Object.values(t.judge ?? {}).filter((x) => Number.isFinite(x));
  if (scores.length) {
    const max = Math.max(...scores);
    const scale = max <= 1 ? 1 : max <= 10 ? 10 : 100;
    return { value: clamp01(scores.reduce((a, b) => a + b, 0) / scores.length / scale), source: 'judge' };
  }
  if (typeof t.hallucination === 'number') return { value: clamp01(1 - t.hallucination), source: 'hallucination' };
  return null;
}

/** A turn's `addition` field as agents report it: {decision: added|skipped, evaluator?, score?}. */
export function additionOf(v: unknown): AdditionDecision | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const d =
    o.decision === 'added' || o.added === true
      ? 'added'
      : o.decision === 'skipped' || o.added === false
        ? 'skipped'
        : null;
  if (!d) return null;
  return {
    decision: d,
    evaluator: typeof o.evaluator === 'string' ? o.evaluator : null,
    score: typeof o.score === 'number' ? o.score : null,
  };
}

export interface Retrieval {
  item: string;
  step: number;
  session: string;
  turn: number;
  qualified: boolean;
  inputSim: number | null;
  outputSim: number | null;
  utility: number | null;
}

export interface ItemHealth {
  item: MemoryItem;
  retrievals: Retrieval[];
  recalled: number;
  qualified: number;
  meanUtility: number | null;
  meanInputSim: number | null;
  meanOutputSim: number | null;
  lastStep: number | null;
  misaligned: boolean;
}

export interface MisalignmentRule {
  /** Input similarity at least this… */
  inputMin: number;
  /** …with output similarity at most this… */
  outputMax: number;
  /** …in at least this many retrievals, and in at least half of them. */
  minHits: number;
}

/** Defaults for the bundled static model, whose cosines run high: editable in the lab. */
export const DEFAULT_MISALIGNMENT: MisalignmentRule = { inputMin: 0.7, outputMax: 0.6, minHits: 2 };

const mean = (xs: (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

/** Joins memory items and the turns that recalled them. `sim(turn, item)` gives the two similarities. */
export function itemHealth(
  items: MemoryItem[],
  turns: LabTurn[],
  sim: (turn: LabTurn, item: MemoryItem) => { input: number | null; output: number | null },
  rule: MisalignmentRule = DEFAULT_MISALIGNMENT,
): ItemHealth[] {
  const byId = new Map(items.map((r) => [r.id, r]));
  const hits = new Map<string, Retrieval[]>();
  for (const t of turns) {
    const q = new Set(t.qualified);
    for (const id of new Set(t.recalled)) {
      const r = byId.get(id);
      if (!r) continue;
      const s = sim(t, r);
      const list = hits.get(id) ?? [];
      list.push({
        item: id,
        step: t.step,
        session: t.session,
        turn: t.turn,
        qualified: q.has(id),
        inputSim: s.input,
        outputSim: s.output,
        utility: t.utility,
      });
      hits.set(id, list);
    }
  }
  return items.map((item) => {
    const retrievals = hits.get(item.id) ?? [];
    const bad = retrievals.filter(
      (x) =>
        x.inputSim !== null && x.outputSim !== null && x.inputSim >= rule.inputMin && x.outputSim <= rule.outputMax,
    ).length;
    return {
      item,
      retrievals,
      recalled: retrievals.length,
      qualified: retrievals.filter((x) => x.qualified).length,
      meanUtility: mean(retrievals.map((x) => x.utility)),
      meanInputSim: mean(retrievals.map((x) => x.inputSim)),
      meanOutputSim: mean(retrievals.map((x) => x.outputSim)),
      lastStep: retrievals.length ? Math.max(...retrievals.map((x) => x.step)) : null,
      misaligned: bad >= rule.minHits && bad * 2 >= retrievals.length,
    };
  });
}

/** One link of an error-propagation chain: a memory item recalled into a turn that went wrong. */
export interface ChainLink {
  item: string;
  turn: { session: string; turn: number; step: number; utility: number | null };
}

/**
 * Error-propagation chains: a memory item recalled into a turn that went wrong (utility below
 * `wrongBelow`), whose execution was stored as an item that was recalled into a turn that went
 * wrong, and so on. Returns every maximal chain of at least `minLinks` links, longest first.
 */
export function errorChains(items: MemoryItem[], turns: LabTurn[], wrongBelow = 0.5, minLinks = 2): ChainLink[][] {
  const turnKey = (s: string, n: number) => `${s}\u0000${n}`;
  const storedFrom = new Map<string, string[]>(); // turn → items made from it
  for (const r of items)
    if (r.fromTurn) {
      const k = turnKey(r.fromTurn.session, r.fromTurn.turn);
      storedFrom.set(k, [...(storedFrom.get(k) ?? []), r.id]);
    }
  const known = new Set(items.map((r) => r.id));
  const wrongInto = new Map<string, LabTurn[]>(); // item → wrong turns it was recalled into
  for (const t of turns) {
    if (t.utility === null || t.utility >= wrongBelow) continue;
    for (const id of new Set(t.recalled)) if (known.has(id)) wrongInto.set(id, [...(wrongInto.get(id) ?? []), t]);
  }
  // A chain starts at an item that no wrong turn produced.
  const producedByWrong = new Set<string>();
  for (const [, ts] of wrongInto)
    for (const t of ts) for (const r of storedFrom.get(turnKey(t.session, t.turn)) ?? []) producedByWrong.add(r);
  const out: ChainLink[][] = [];
  const walk = (item: string, path: ChainLink[], seen: Set<string>) => {
    let extended = false;
    for (const t of wrongInto.get(item) ?? []) {
      const link: ChainLink = { item, turn: { session: t.session, turn: t.turn, step: t.step, utility: t.utility } };
      const next = (storedFrom.get(turnKey(t.session, t.turn)) ?? []).filter((r) => !seen.has(r));
      for (const r of next) {
        extended = true;
        walk(r, [...path, link], new Set([...seen, r]));
      }
      if (!next.length && path.length + 1 >= minLinks) {
        extended = true;
        out.push([...path, link]);
      }
    }
    if (!extended && path.length >= minLinks) out.push(path);
  };
  for (const r of wrongInto.keys()) if (!producedByWrong.has(r)) walk(r, [], new Set([r]));
  // Keep maximal chains only: drop a chain that is a prefix of a longer one.
  const sig = (c: ChainLink[]) => c.map((l) => `${l.item}>${l.turn.step}`).join('|');
  const sigs = out.map(sig);
  return out
    .filter((c, i) => !sigs.some((s, j) => j !== i && s.length > sigs[i]!.length && s.startsWith(sigs[i]!)))
    .sort((a, b) => b.length - a.length || a[0]!.turn.step - b[0]!.turn.step);
}

function clamp01(x: number) {
  return Math.min(1, Math.max(0, x));
}
