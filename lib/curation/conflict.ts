import {
  FRAME_FROM,
  frameHunks,
  LINKING,
  isContent,
  isCue,
  negatedComplement,
  opposedIn,
  sameness,
  synonymous,
  tokenize,
  type Hunk,
  type Lexicon,
  type SamenessOptions,
  type Token,
} from './sameness';

/**
 * Whether a new statement contradicts a close entry: the curator paper's conflict predicate κ(e, m) (§6, Algorithm 1
 * step 7), which answers compatible | conflicting | unrelated. The paper asks an LLM; these are word rules on the two
 * statements, aligned as the equivalence judgment (`sameness`) aligns them, by what changed where:
 *
 * - `conflicting` when one thing changes in one frame: a value ("after 5 s" / "after 65 s", "10 GB" / "10 MB"), a
 *   named choice ("routed to PagerDuty" / "routed to Opsgenie", "the CEO is Dana" / "… is Lee"), the polarity ("is
 *   enabled" / "is no longer enabled", "emails" / "stopped emailing") or a word for its opposite ("before" / "after");
 * - `unrelated` when what the statement is about changes: one change among its first two words before any verb of
 *   being or having ("the billing API" / "the billing worker" retries three times, "patient 1042" / "patient 1074";
 *   an opposite as the first word, "the east warehouse" / "the west warehouse"), or several changes with one among
 *   the first three words, or three at once ("shard 3 runs on port 8003" / "shard 0 runs on port 8000"): template
 *   siblings, which an embedding puts side by side;
 * - `compatible` otherwise: the same statement, one that says more, a number of another thing ("1,200 seats" / "3
 *   open tickets"), common words for other things both can hold ("owns the checkout API" / "owns the refunds API"),
 *   or a rewording that neither negates nor opposes.
 *
 * What this misses: a common word for a value ("with oat milk" / "with almond milk", "a surplus" / "a deficit" where
 * the lexicon lists no antonym) and a single name swapped at the start ("Okta is the identity provider" / "Azure AD
 * is …"): both kept, as before. Which relations admit one value only is knowledge the rules do not have.
 *
 * Measured on hand-labelled pairs (lib/curation/fixtures/conflict-pairs*.json) by
 * `server/services/curation-conflict.test.ts`.
 */
export type Relation = 'compatible' | 'conflicting' | 'unrelated';

export interface RelationVerdict {
  relation: Relation;
  /** Why, in a reviewer's words. */
  because: string;
}

/** Fact-bearing words that name what a statement is about: a change among them, with another, is another subject. */
const SUBJECT_WORDS = 3;
/** A single word swapped among this many first fact-bearing words changes the subject, not a value. */
const SUBJECT_SWAP = 2;
/** Below this share of words kept in order, two statements are rewordings: only an opposite or a value opposes. */
const ALIGNED_FROM = 0.4;
/** An added clause with more words than these around its negation negates something new, not the other statement. */
const NEGATED_WORDS = 2;

type ChangeKind = 'negation' | 'opposite' | 'value' | 'measure' | 'swap' | 'addition';
interface Change {
  kind: ChangeKind;
  lead: number;
  afterVerb: boolean;
  del: Token[];
  add: Token[];
}

const isValue = (t: Token) => t.kind === 'number' || t.kind === 'id';
/** A name or an identifier: a product, a person, a place, a vendor, a day (capitalised inside a sentence). */
const named = (t: Token) => t.kind === 'name' || t.kind === 'id';
const bearsFact = (t: Token) => isContent(t) || isValue(t);
/** What a number measures: its quantity ("duration:…"), currency, an ordinal, a clock time, an identifier, a count. */
const measureOf = (t: Token) =>
  t.kind === 'id'
    ? 'id'
    : (/^([a-z]+):/.exec(t.key)?.[1] ??
      (/^[$€£]/.test(t.key) ? t.key[0]! : t.key.startsWith('#') ? '#' : t.key.startsWith('at ') ? 'at' : 'count'));
const shown = (ts: readonly Token[]) => [...new Set(ts.map((t) => t.raw))].join(' ') || '—';

/** Verbs that end what the other statement says is done ("emails" / "stopped emailing"), as a "not" would. */
const CEASING = new Set(['stop', 'stops', 'stopped', 'ceased', 'discontinued']);

function classify(h: Hunk, lex: Lexicon | undefined): Change | null {
  let [del, add] = [h.del, h.add];
  const change = (kind: ChangeKind): Change => ({ kind, lead: h.lead, afterVerb: h.afterVerb, del, add });
  if (!del.length !== !add.length && [...del, ...add].length === 1 && CEASING.has([...del, ...add][0]!.lower))
    return change('negation');
  if (del.filter(isCue).length % 2 !== add.filter(isCue).length % 2) {
    // "is closed" / "doesn't open": a complementary word negated in place says the same.
    const pair = negatedComplement(del, add) ?? negatedComplement(add, del);
    if (!pair) {
      // "…, and staff do not need to use vacation days": a clause of its own, negating what the other does not say.
      // "must not be restarted during business hours" / "uses the shared read replica": another predicate whole.
      const own = [...del, ...add].filter(isContent).length;
      if (own <= NEGATED_WORDS) return change('negation');
      if (!del.length || !add.length) return change('addition');
    } else {
      const gone = new Set<Token>(pair);
      [del, add] = [del.filter((t) => !gone.has(t) && !isCue(t)), add.filter((t) => !gone.has(t) && !isCue(t))];
    }
  }
  if (opposedIn(del, add, lex)) return change('opposite');
  const [vd, va] = [del.filter(isValue), add.filter(isValue)];
  const [cd, ca] = [del.filter(isContent), add.filter(isContent)];
  const swapped = (xs: Token[], ys: Token[]) =>
    xs.length && ys.length && !xs.every((t) => ys.some((o) => synonymous(t, o, lex)));
  if (vd.length && va.length) {
    const measures = new Set(vd.map(measureOf));
    // "1,200 licensed seats" / "3 open support tickets": numbers of other things.
    return change(va.some((t) => measures.has(measureOf(t))) && !swapped(cd, ca) ? 'value' : 'measure');
  }
  // Another unit of the same number ("10 GB" / "10 MB", "per minute" / "per second" after one): another value.
  if (h.prev?.kind === 'number' && del.length === 1 && add.length === 1 && swapped(cd, ca)) return change('value');
  // A word for another ("PagerDuty" / "Opsgenie", "iOS" / "Android"), whether a name, an identifier or a word.
  if (swapped(del.filter(bearsFact), add.filter(bearsFact))) return change('swap');
  return del.some(bearsFact) || add.some(bearsFact) ? change('addition') : null;
}

export function relation(a: string, b: string, opts: SamenessOptions = {}): RelationVerdict {
  const same = sameness(a, b, opts);
  if (same.verdict === 'same') return { relation: 'compatible', because: `the same statement (${same.because})` };
  const [ta, tb] = [tokenize(a), tokenize(b)];
  const { frame, hunks } = frameHunks(ta, tb);
  if (frame < ALIGNED_FROM) return reworded(ta, tb, opts.lexicon);
  const changes = hunks.flatMap((h) => classify(h, opts.lexicon) ?? []);
  const facts = changes.filter((c) => c.kind !== 'addition' && c.kind !== 'measure');
  const said = (c: Change) => `${shown(c.del)} / ${shown(c.add)}`;
  const first = facts[0];
  if (!first) {
    const more = changes.filter((c) => c.kind === 'addition');
    return {
      relation: 'compatible',
      because: more.length ? `one says more (${more.map(said).join('; ')})` : 'numbers of other things',
    };
  }
  // The subject: its first words, up to a verb of being or having ("the office is in Berlin": Berlin is said of it).
  // An opposite names the subject only as its first word ("the east warehouse"; "Sam likes" / "Sam dislikes" is
  // what Sam does); a stretch holding a verb of being or a negation is the predicate ("is happy to" / "does not").
  const inSubject = (c: Change, words: number) =>
    c.lead < (c.kind === 'opposite' ? 1 : words) &&
    !c.afterVerb &&
    ![...c.del, ...c.add].some((t) => LINKING.has(t.lower) || isCue(t));
  if (facts.length >= 3 || (facts.length === 2 && inSubject(first, SUBJECT_WORDS)))
    return { relation: 'unrelated', because: `about another subject (${facts.map(said).join('; ')})` };
  // One change in the subject is another subject: "the billing API" / "the billing worker" retries 3 times, "patient
  // 1042" / "patient 1074" is allergic, "the minimum" / "the maximum" replica count is 2.
  if (facts.length === 1 && first.kind !== 'negation' && inSubject(first, SUBJECT_SWAP))
    return { relation: 'unrelated', because: `about another subject (${said(first)})` };
  if (facts.length === 1 && first.kind === 'swap') {
    // One word swapped elsewhere: a choice among named things ("in PostgreSQL" / "in MongoDB", "is Aisha" / "is
    // Tomasz") is one slot given two values, while common words name other things both can hold ("owns the checkout
    // API" / "… the refunds API", "in production" / "for enterprise customers").
    if (!first.del.some(named) || !first.add.some(named))
      return { relation: 'compatible', because: `about other things, which both can hold (${said(first)})` };
  }
  const why: Record<ChangeKind, string> = {
    negation: 'one negates the other',
    opposite: 'opposite words',
    value: 'another value',
    swap: 'another choice',
    measure: '',
    addition: '',
  };
  // Reworded (fewer than 60% of the words in order): another word is how it was put; a value, polarity or opposite
  // still opposes (as below 40%, `reworded`).
  if (frame < FRAME_FROM && first.kind === 'swap')
    return { relation: 'compatible', because: `reworded, nothing opposed (${said(first)})` };
  return { relation: 'conflicting', because: `${why[first.kind]} (${said(first)})` };
}

/** Two statements in other words: opposed when a word is another's opposite, or one measure has other values. */
function reworded(ta: Token[], tb: Token[], lex: Lexicon | undefined): RelationVerdict {
  const [sa, sb] = [new Set(ta.map((t) => t.key)), new Set(tb.map((t) => t.key))];
  const [onlyA, onlyB] = [ta.filter((t) => !sb.has(t.key)), tb.filter((t) => !sa.has(t.key))];
  const flip = opposedIn(onlyA, onlyB, lex);
  if (flip) return { relation: 'conflicting', because: `opposite words (${flip[0].raw} / ${flip[1].raw})` };
  const [va, vb] = [onlyA.filter(isValue), onlyB.filter(isValue)];
  const of = (ts: Token[], others: Token[]) => ts.filter((t) => others.some((o) => measureOf(o) === measureOf(t)));
  if (of(va, vb).length && of(vb, va).length)
    return { relation: 'conflicting', because: `another value (${shown(of(va, vb))} / ${shown(of(vb, va))})` };
  return { relation: 'compatible', because: 'reworded, nothing opposed' };
}
