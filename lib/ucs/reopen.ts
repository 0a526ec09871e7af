/**
 * "Would this reopen?" — two answers, to be shown apart:
 *
 * - `wouldReopen` is Mnemoscope's own ranked relevance: which dead ends a situation touches by the words of their
 *   reopen conditions (and their capabilities and keywords), ignoring common words and words every dead end's
 *   conditions share, ranked by how much of the conditions the situation covers. It is not what the reference does.
 * - `referenceReopen` is the reference bridge's verdict, computed as `UCSBridge.op_consult` computes it
 *   (src/bridge.py `resolve_capabilities_from_context`, `AnnotationStore.search_dead_ends`,
 *   `UCSBridge._prepare_penalty_energy`, KyleMillion/unified-cognitive-substrate at bc0cd59): any shared word of
 *   three letters or more reopens, capabilities are resolved through the bridge's keyword map, scores decay with
 *   the dead end's age, and only the top three are returned (and penalise routing).
 */
import {
  AEGIS_VOCABULARY,
  ageDays,
  keywordCapabilities,
  REFERENCE_RULES,
  referenceWords,
  resolveCapabilities,
  type MethodologyLike,
  type ReferenceVocabulary,
} from './reference';
import { ROUTING_DEFAULTS } from './routing';

const STOP = new Set([
  'the',
  'and',
  'for',
  'that',
  'this',
  'with',
  'from',
  'into',
  'when',
  'then',
  'than',
  'was',
  'were',
  'are',
  'has',
  'have',
  'had',
  'new',
  'any',
  'all',
  'not',
  'but',
  'its',
  'our',
  'you',
  'can',
  'will',
  'would',
  'should',
  'could',
  'after',
  'before',
  'there',
]);

export function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9_]{3,}/g) ?? []).filter((w) => !STOP.has(w));
}

export interface DeadEndLike {
  id: string;
  topic: string;
  reopenConditions: string | null;
  capabilities: readonly string[];
  keywords: readonly string[];
}

export interface ReopenMatch<T extends DeadEndLike> {
  deadEnd: T;
  /** Words of the situation found in the dead end's reopen conditions, capabilities or keywords (to mark). */
  matched: string[];
  /** Share of the reopen conditions' own words (not those every dead end's share) the situation covers, 0–1. */
  coverage: number;
  /**
   * `reopen` when the situation meets words of the reopen conditions that are the dead end's own; `related` when it
   * only names one of its capabilities or keywords (then `via` says which, as the row may not show them).
   */
  kind: 'reopen' | 'related';
  via: string[];
}

/**
 * Mnemoscope's ranked relevance (not the reference's verdict: see `referenceReopen`). A dead end is touched when
 * the situation shares a word of its own (not one every dead end's conditions share, nor a common word) with its
 * reopen conditions (`reopen`), or only names one of its capabilities or keywords (`related`); reopen first, then
 * by the share of the conditions covered. Capabilities are matched by name only, with no keyword map, no decay and
 * no cap on the number of results.
 */
export function wouldReopen<T extends DeadEndLike>(situation: string, deadEnds: readonly T[]): ReopenMatch<T>[] {
  const said = new Set(words(situation));
  if (!said.size) return [];
  const conds = deadEnds.map((d) => new Set(words(d.reopenConditions ?? '')));
  // Words in every dead end's conditions ("new evidence that … output changed") tell them apart from nothing: a
  // match needs a word of the dead end's own, and only those are marked and counted in the coverage.
  const generic = new Set(deadEnds.length > 1 ? [...(conds[0] ?? [])].filter((w) => conds.every((c) => c.has(w))) : []);
  const out: ReopenMatch<T>[] = [];
  deadEnds.forEach((d, k) => {
    const cond = conds[k]!;
    const named = [
      ...d.capabilities.map((c) => ({ name: c, words: [c.toLowerCase(), ...words(c)] })),
      ...d.keywords.map((kw) => ({ name: kw, words: [kw.toLowerCase()] })),
    ].filter((x) => x.words.some((w) => said.has(w)));
    const extra = new Set(named.flatMap((x) => x.words));
    const matched = [...said].filter((w) => (cond.has(w) || extra.has(w)) && !generic.has(w));
    if (!matched.length) return;
    const distinct = [...cond].filter((w) => !generic.has(w));
    const reopen = matched.some((w) => cond.has(w));
    out.push({
      deadEnd: d,
      matched,
      coverage: distinct.length ? distinct.filter((w) => said.has(w)).length / distinct.length : 0,
      kind: reopen ? 'reopen' : 'related',
      via: reopen ? [] : [...new Set(named.map((x) => x.name))],
    });
  });
  const rank = (m: ReopenMatch<T>) => (m.kind === 'reopen' ? 1 : 0);
  return out.sort((a, b) => rank(b) - rank(a) || b.coverage - a.coverage || b.matched.length - a.matched.length);
}

/* ------------------------------------------------------------------------------------------------------------------
 * The reference bridge's verdict (src/bridge.py at bc0cd59), exactly as op_consult computes it. This is the one
 * dead-end search of lib/ucs: substrate-sim.ts `routeContext` penalises routing with it.
 * ---------------------------------------------------------------------------------------------------------------- */

export interface ReferenceDeadEnd {
  id: string;
  topic?: string;
  /** `YYYY-MM-DD` as the bridge writes it (or another form `fromisoformat` takes); none leaves the score undecayed. */
  date: string | null;
  reopenConditions: string | null;
  capabilities: readonly string[];
  keywords: readonly string[];
  /** How often the index lists it: it is searched that many times (see `referenceReopen`). */
  occurrences?: number;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A dead end as stored and shown: the search's fields, its topic and why it was closed. */
export type StoredDeadEnd = ReferenceDeadEnd & { topic: string; whyClosed: string | null };

/** A `dead_end_entries` item of ucs_index.json as the search reads it. */
export function referenceDeadEnd(entry: Record<string, unknown>): StoredDeadEnd {
  return {
    id: String(entry.id ?? ''),
    topic: text(entry.topic) ?? '',
    date: text(entry.date),
    whyClosed: text(entry.why_closed),
    reopenConditions: text(entry.reopen_conditions),
    capabilities: strings(entry.capabilities),
    keywords: strings(entry.keywords),
  };
}

export interface ReferenceReopenMatch<T extends ReferenceDeadEnd> {
  deadEnd: T;
  /** Its place in the list searched, entries listed twice taking two places. */
  position: number;
  /** The context's words among its keywords (2 points each) and the resolved capabilities among its own (3). */
  keywordHits: string[];
  capabilityHits: string[];
  /** Any word shared with its reopen conditions flags it, whatever the word ("new", "that", "output"…). */
  reopenTriggered: boolean;
  reopenMatched: string[];
  /** 2·keywords + 3·capabilities; when that is 0, 1.5 per shared reopen word. */
  baseScore: number;
  /** Whole days since its date at `now` (never negative); null when the date is missing or unreadable. */
  ageDays: number | null;
  /** 1 / (1 + rate × ageDays), 1 without a date. */
  decay: number;
  score: number;
  /** Among the first `maxDeadEndHits`: what consult returns and what penalises routing. */
  returned: boolean;
}

export interface ReferenceReopenVerdict<T extends ReferenceDeadEnd> {
  words: string[];
  resolvedCapabilities: string[];
  /** Every dead end that scored, best first (ties in list order): search_dead_ends' list before its cap. */
  matches: ReferenceReopenMatch<T>[];
  /** The first `maxDeadEndHits` of them. */
  returned: ReferenceReopenMatch<T>[];
  /**
   * Penalty energy per capability (bridge.py `_prepare_penalty_energy`): each returned dead end adds 1 to each of
   * its capabilities and of those its keywords map to (once per dead end), when the capability has a cell.
   */
  penaltyEnergy: Record<string, number>;
  /** Which returned dead ends (their positions) put it there, per capability. */
  penaltySources: Record<string, number[]>;
  /** What that takes off a routing score towards the capability: ε × energy. */
  routingPenalty: Record<string, number>;
}

export interface ReferenceReopenOptions {
  /** The time the decay is measured at (the bridge takes the wall clock). */
  now: Date | number;
  /** The index's methodology entries in order; the last 20 enrich the resolution. */
  methodology?: readonly MethodologyLike[];
  /** Capabilities named explicitly (consult's `--capabilities`). */
  explicitCapabilities?: readonly string[] | null;
  /** Capabilities placed on the torus, the only ones penalised; the vocabulary's capability names by default. */
  nodes?: readonly string[];
  /** The bridge's own (`AEGIS_VOCABULARY`) by default, as the bridge always uses it. */
  vocabulary?: ReferenceVocabulary;
  /** Router.epsilon (UCSConfig.penalty_weight is never read). */
  penaltyWeight?: number;
}

/**
 * How a returned dead end names a capability it penalises: itself (one of its capabilities), and through which of its
 * keywords (the keyword map), as `referenceReopen` adds its penalty.
 */
export function penaltyPath(
  deadEnd: Pick<ReferenceDeadEnd, 'capabilities' | 'keywords'>,
  capability: string,
  vocabulary: ReferenceVocabulary = AEGIS_VOCABULARY,
): { direct: boolean; keywords: string[] } {
  return {
    direct: deadEnd.capabilities.includes(capability),
    keywords: deadEnd.keywords.filter((k) => keywordCapabilities(k, vocabulary).includes(capability)),
  };
}

/**
 * The reference bridge's verdict on a situation (bridge.py `UCSBridge.op_consult` → `AnnotationStore
 * .search_dead_ends`, then `_prepare_penalty_energy`): the context's words (`[a-z_]{3,}`, no stop list) are its
 * keywords; its capabilities are resolved through the keyword map (`resolveCapabilities`). Each dead end scores
 * 2 per shared keyword + 3 per shared capability; any word shared with its reopen conditions flags it as reopened
 * and, when it scored nothing otherwise, scores 1.5 per shared word. Scores decay with age (1 / (1 + 0.01·days));
 * the best 3 are returned, ties in list order, and penalise routing.
 *
 * Give the dead ends in the index's order (`dead_end_entries`) for the reference's exact order among ties: a row
 * with `occurrences` n is searched n times in a row, where the index may list the copies apart. A missing reopen
 * condition is taken as empty (the bridge would fail on a null one).
 */
export function referenceReopen<T extends ReferenceDeadEnd>(
  situation: string,
  deadEnds: readonly T[],
  opts: ReferenceReopenOptions,
): ReferenceReopenVerdict<T> {
  const R = REFERENCE_RULES;
  const vocabulary = opts.vocabulary ?? AEGIS_VOCABULARY;
  const now = typeof opts.now === 'number' ? opts.now : opts.now.getTime();
  const words = referenceWords(situation);
  const said = new Set(words);
  const resolvedCapabilities = resolveCapabilities(situation, {
    explicit: opts.explicitCapabilities,
    methodology: opts.methodology,
    vocabulary,
  });
  const resolved = new Set(resolvedCapabilities);
  const list = deadEnds.flatMap((d) => new Array<T>(Math.max(1, d.occurrences ?? 1)).fill(d));
  const matches: ReferenceReopenMatch<T>[] = [];
  list.forEach((d, position) => {
    const kw = new Set(d.keywords.map((k) => k.toLowerCase()));
    const keywordHits = words.filter((w) => kw.has(w));
    const capabilityHits = [...new Set(d.capabilities)].filter((c) => resolved.has(c));
    let baseScore = keywordHits.length * 2 + capabilityHits.length * 3;
    const reopenMatched = referenceWords(d.reopenConditions ?? '')
      .filter((w) => said.has(w))
      .sort();
    const reopenTriggered = situation !== '' && reopenMatched.length > 0;
    if (reopenTriggered && baseScore <= 0) baseScore = reopenMatched.length * 1.5;
    if (baseScore <= 0) return;
    const age = d.date && R.temporalDecayRate > 0 ? ageDays(d.date, now) : null;
    const decay = age === null ? 1 : 1.0 / (1.0 + R.temporalDecayRate * age);
    matches.push({
      deadEnd: d,
      position,
      keywordHits,
      capabilityHits,
      reopenTriggered,
      reopenMatched: reopenTriggered ? reopenMatched : [],
      baseScore,
      ageDays: age,
      decay,
      score: age === null ? baseScore : baseScore * decay,
      returned: false,
    });
  });
  matches.sort((a, b) => b.score - a.score);
  const returned = matches.slice(0, R.maxDeadEndHits);
  for (const m of returned) m.returned = true;
  const placed = new Set(opts.nodes ?? vocabulary.capabilityNames);
  const penaltyEnergy: Record<string, number> = {};
  const penaltySources: Record<string, number[]> = {};
  for (const { deadEnd, position } of returned) {
    const caps = new Set([
      ...deadEnd.capabilities,
      ...deadEnd.keywords.flatMap((k) => keywordCapabilities(k, vocabulary)),
    ]);
    for (const c of caps) {
      if (!placed.has(c)) continue;
      penaltyEnergy[c] = (penaltyEnergy[c] ?? 0) + R.deadEndPenalty;
      (penaltySources[c] ??= []).push(position);
    }
  }
  const epsilon = opts.penaltyWeight ?? ROUTING_DEFAULTS.epsilon;
  const routingPenalty = Object.fromEntries(Object.entries(penaltyEnergy).map(([c, e]) => [c, epsilon * e]));
  return { words, resolvedCapabilities, matches, returned, penaltyEnergy, penaltySources, routingPenalty };
}

/** Splits text into parts, flagging the words to highlight (case-insensitive, whole words). */
export function highlight(text: string, marks: readonly string[]): { text: string; hit: boolean }[] {
  if (!marks.length) return [{ text, hit: false }];
  const set = new Set(marks.map((m) => m.toLowerCase()));
  const parts: { text: string; hit: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(/[A-Za-z0-9_]{3,}/g)) {
    if (!set.has(m[0].toLowerCase())) continue;
    if (m.index > last) parts.push({ text: text.slice(last, m.index), hit: false });
    parts.push({ text: m[0], hit: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), hit: false });
  return parts;
}
