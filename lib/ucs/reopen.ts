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
  capabilities: string[];
  keywords: string[];
}

export interface ReopenMatch<T extends DeadEndLike> {
  deadEnd: T;
  /** Words of the situation found in the dead end's reopen conditions, capabilities or keywords (to mark). */
  matched: string[];
  /** Share of the reopen conditions' words the situation covers, 0–1. */
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
  // Words in every dead end's conditions ("new evidence that … output changed") tell them apart from
  // nothing: they are marked when matched, but a match needs at least one word of its own.
  const generic = new Set(deadEnds.length > 1 ? [...(conds[0] ?? [])].filter((w) => conds.every((c) => c.has(w))) : []);
  const out: ReopenMatch<T>[] = [];
  deadEnds.forEach((d, k) => {
    const cond = conds[k]!;
    const named = [
      ...d.capabilities.map((c) => ({ name: c, words: [c.toLowerCase(), ...words(c)] })),
      ...d.keywords.map((kw) => ({ name: kw, words: [kw.toLowerCase()] })),
    ].filter((x) => x.words.some((w) => said.has(w)));
    const extra = new Set(named.flatMap((x) => x.words));
    const matched = [...said].filter((w) => cond.has(w) || extra.has(w));
    const own = matched.filter((w) => !generic.has(w));
    if (!own.length) return;
    const inCond = [...cond].filter((w) => said.has(w)).length;
    const reopen = own.some((w) => cond.has(w));
    out.push({
      deadEnd: d,
      matched,
      coverage: cond.size ? inCond / cond.size : 0,
      kind: reopen ? 'reopen' : 'related',
      via: reopen ? [] : [...new Set(named.map((x) => x.name))],
    });
  });
  const rank = (m: ReopenMatch<T>) => (m.kind === 'reopen' ? 1 : 0);
  return out.sort((a, b) => rank(b) - rank(a) || b.coverage - a.coverage || b.matched.length - a.matched.length);
}

/* ------------------------------------------------------------------------------------------------------------------
 * The reference bridge's verdict (src/bridge.py at bc0cd59), exactly as op_consult computes it.
 * ---------------------------------------------------------------------------------------------------------------- */

/**
 * What the bridge resolves capabilities with. Both are constants of the bridge module, built at import from the
 * manifest embedded in the kernel (even when a workspace brings its own manifest.json): `_KEYWORD_MAP`
 * (`build_keyword_map`: words of the semantic-map labels and of the capability names, plus a hand-written list)
 * and `_CAP_NAMES`. lib/ucs/fixtures/reference-reopen.json holds both as a run of the reference recorded them.
 */
export interface ReferenceVocabulary {
  keywordMap: Readonly<Record<string, readonly string[]>>;
  capabilityNames: readonly string[];
}

/** The bridge's tuning for this (bridge.py `UCSConfig` and the router's ε, torusfield_kernel.py `Router`). */
export const REFERENCE_REOPEN_DEFAULTS = {
  /** `max_dead_end_hits`: how many dead ends consult returns (and lets penalise routing). */
  maxResults: 3,
  /** `temporal_decay_rate`: score × 1 / (1 + rate × age in days). */
  temporalDecayRate: 0.01,
  /** `Router.epsilon`, the weight of the dead-end penalty in a routing score (`UCSConfig.penalty_weight` is unused). */
  penaltyWeight: 0.75,
  /** op_consult resolves capabilities with `recent_methodology(20)`. */
  methodologyWindow: 20,
} as const;

/** The distinct words of a text as the bridge takes them: `set(re.findall(r"[a-z_]{3,}", text.lower()))`. */
export function referenceWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[a-z_]{3,}/g) ?? [])];
}

const lookup = (map: Readonly<Record<string, readonly string[]>>, key: string): readonly string[] =>
  Object.hasOwn(map, key) ? (map[key] ?? []) : [];

export interface MethodologyLike {
  capabilities: readonly string[];
  keywords: readonly string[];
}

/**
 * The capabilities a free-text context resolves to (bridge.py `resolve_capabilities_from_context`): the explicit
 * ones that are capability names, those the keyword map gives for each word, and those of every methodology entry
 * that shares a keyword with the context. Sorted, as the bridge returns them.
 */
export function resolveCapabilities(
  context: string,
  vocabulary: ReferenceVocabulary,
  opts: { explicit?: readonly string[]; methodology?: readonly MethodologyLike[] } = {},
): string[] {
  const names = new Set(vocabulary.capabilityNames);
  const caps = new Set<string>();
  for (const c of opts.explicit ?? []) if (names.has(c)) caps.add(c);
  const words = new Set(referenceWords(context));
  for (const w of words) for (const c of lookup(vocabulary.keywordMap, w)) caps.add(c);
  for (const m of opts.methodology ?? []) {
    if (!m.keywords.some((k) => words.has(k.toLowerCase()))) continue;
    for (const c of m.capabilities) if (names.has(c)) caps.add(c);
  }
  return [...caps].sort();
}

export interface ReferenceDeadEnd {
  id: string;
  /** `YYYY-MM-DD` as the bridge writes it (or `YYYYMMDD`); another form (or none) leaves the score undecayed. */
  date: string | null;
  reopenConditions: string | null;
  capabilities: readonly string[];
  keywords: readonly string[];
  /** How often the index lists it: it is searched that many times (see `referenceReopen`). */
  occurrences?: number;
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
  /** Among the first `maxResults`: what consult returns and what penalises routing. */
  returned: boolean;
}

export interface ReferenceReopenVerdict<T extends ReferenceDeadEnd> {
  words: string[];
  resolvedCapabilities: string[];
  /** Every dead end that scored, best first (ties in list order): search_dead_ends' list before its cap. */
  matches: ReferenceReopenMatch<T>[];
  /** The first `maxResults` of them. */
  returned: ReferenceReopenMatch<T>[];
  /**
   * Penalty energy per capability (bridge.py `_prepare_penalty_energy`): each returned dead end adds 1 to each of
   * its capabilities and of those its keywords map to (once per dead end), when the capability is on the torus.
   */
  penaltyEnergy: Record<string, number>;
  /** What that takes off a routing score towards the capability: ε × energy. */
  routingPenalty: Record<string, number>;
}

export interface ReferenceReopenOptions {
  vocabulary: ReferenceVocabulary;
  /** The index's methodology entries in order; the last `methodologyWindow` enrich the resolution. */
  methodology?: readonly MethodologyLike[];
  /** Capabilities named explicitly (consult's `--capabilities`). */
  explicitCapabilities?: readonly string[];
  /** The time the decay is measured at (the bridge takes the wall clock). */
  now: Date | number;
  /** Capabilities placed on the torus, the only ones penalised; the vocabulary's capability names by default. */
  nodes?: readonly string[];
  maxResults?: number;
  temporalDecayRate?: number;
  penaltyWeight?: number;
  methodologyWindow?: number;
}

const DAY_MS = 86_400_000;

/** `datetime.fromisoformat(date + "T00:00:00+00:00")` for the forms the bridge writes; null where it would fail. */
function parseDay(date: string): number | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(date);
  if (!m || (date.includes('-') && date.length !== 10)) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which reads years 0–99 as 1900–1999
  if (y < 1 || day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  return day.getTime();
}

/**
 * The reference bridge's verdict on a situation (bridge.py `UCSBridge.op_consult` → `AnnotationStore
 * .search_dead_ends`, then `_prepare_penalty_energy`): the context's words (`[a-z_]{3,}`, no stop list) are its
 * keywords; its capabilities are resolved through the keyword map (`resolveCapabilities`). Each dead end scores
 * 2 per shared keyword + 3 per shared capability; any word shared with its reopen conditions flags it as reopened
 * and, when it scored nothing otherwise, scores 1.5 per shared word. Scores decay with age; the best
 * `maxResults` (3) are returned, ties in list order.
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
  const D = REFERENCE_REOPEN_DEFAULTS;
  const [maxResults, rate] = [opts.maxResults ?? D.maxResults, opts.temporalDecayRate ?? D.temporalDecayRate];
  const now = typeof opts.now === 'number' ? opts.now : opts.now.getTime();
  const words = referenceWords(situation);
  const said = new Set(words);
  const resolvedCapabilities = resolveCapabilities(situation, opts.vocabulary, {
    explicit: opts.explicitCapabilities,
    methodology: (opts.methodology ?? []).slice(-(opts.methodologyWindow ?? D.methodologyWindow)),
  });
  const resolved = new Set(resolvedCapabilities);
  const list = deadEnds.flatMap((d) => new Array<T>(Math.max(1, d.occurrences ?? 1)).fill(d));
  const matches: ReferenceReopenMatch<T>[] = [];
  list.forEach((d, position) => {
    const kw = new Set(d.keywords.map((k) => k.toLowerCase()));
    const keywordHits = words.filter((w) => kw.has(w));
    const capabilityHits = [...new Set(d.capabilities)].filter((c) => resolved.has(c));
    let baseScore = keywordHits.length * 2 + capabilityHits.length * 3;
    const reopenWords = new Set(referenceWords(d.reopenConditions ?? ''));
    const reopenMatched = [...reopenWords].filter((w) => said.has(w)).sort();
    const reopenTriggered = situation !== '' && reopenMatched.length > 0;
    if (reopenTriggered && baseScore <= 0) baseScore = reopenMatched.length * 1.5;
    if (baseScore <= 0) return;
    const day = d.date ? parseDay(d.date) : null;
    const ageDays = day === null || rate <= 0 ? null : Math.max(Math.floor((now - day) / DAY_MS), 0);
    const decay = ageDays === null ? 1 : 1.0 / (1.0 + rate * ageDays);
    matches.push({
      deadEnd: d,
      position,
      keywordHits,
      capabilityHits,
      reopenTriggered,
      reopenMatched: reopenTriggered ? reopenMatched : [],
      baseScore,
      ageDays,
      decay,
      score: ageDays === null ? baseScore : baseScore * decay,
      returned: false,
    });
  });
  matches.sort((a, b) => b.score - a.score);
  const returned = matches.slice(0, Math.max(0, maxResults));
  for (const m of returned) m.returned = true;
  const placed = new Set(opts.nodes ?? opts.vocabulary.capabilityNames);
  const penaltyEnergy: Record<string, number> = {};
  for (const { deadEnd } of returned) {
    const caps = new Set([
      ...deadEnd.capabilities,
      ...deadEnd.keywords.flatMap((k) => lookup(opts.vocabulary.keywordMap, k)),
    ]);
    for (const c of caps) if (placed.has(c)) penaltyEnergy[c] = (penaltyEnergy[c] ?? 0) + 1.0;
  }
  const routingPenalty = Object.fromEntries(
    Object.entries(penaltyEnergy).map(([c, e]) => [c, (opts.penaltyWeight ?? D.penaltyWeight) * e]),
  );
  return { words, resolvedCapabilities, matches, returned, penaltyEnergy, routingPenalty };
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
