/**
 * "Would this reopen?" — which dead ends a situation touches, by the words of their reopen
 * conditions (and their capabilities and keywords), as the reference bridge matches dead ends by
 * keywords: lower-case words of three letters or more, minus common words. The matched words are
 * returned for highlighting.
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
