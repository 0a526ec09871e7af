import { diffArrays } from 'diff';
import { stemmer } from 'stemmer';

/**
 * Whether two close memory statements say the same thing: the curator paper's equivalence judgment `e ≈ m` (§6,
 * Algorithm 1 step 6), which decides between "equivalent existing" (nothing written) and a new memory. A cosine
 * between sentence embeddings cannot make it alone: "the billing service retries three times" and "the search
 * service retries three times" are 0.9 apart on the bundled model and are two facts. So, for a pair already close
 * by cosine, the statements are compared word by word:
 *
 * - `distinct` when a fact-bearing word differs: a number, compared as a quantity in any notation ("two hours" =
 *   "120 minutes", "8 pm" = "20:00", "€500" = "500 euros"; an ordinal apart from a count), an identifier (ticket
 *   ids, versions, paths, hosts, hyphenated names, every part of them counting: "opt-in" / "opt-out"), a name (a
 *   capitalised word, an acronym not spelled out by the other); or, when the two keep one frame (≥ 60% of their words
 *   in order), a change in it that flips polarity (not / never / n't / without …, opposites, the lexicon's antonyms)
 *   or swaps a subject or object for a word that is neither another form of it nor a synonym;
 * - `same` when what differs is order, inflection, case, filler ("Note:", "the decision was made to"), other forms
 *   (of a word; of a date, a span or how often: "May 1st" / "1 May", "a week" / "7 days", "once a year" / "annually"),
 *   listed synonyms or the lexicon's (WordNet's first senses), or an either/or word negated in place ("is not open" =
 *   "is closed"); a reworded pair (another frame) may leave one content word unpaired (`REWORDED_SLACK`);
 * - `near` otherwise (one says more than the other, or a rewording with words of its own): a person decides, with
 *   the differing words marked.
 *
 * Pure: the lexicon is passed in (the server passes WordNet, server/services/wordnet.ts). Every rule errs towards
 * `near` or `distinct`: a false `same` drops a fact in silence.
 */

export type SamenessVerdict = 'same' | 'near' | 'distinct';

export interface Sameness {
  verdict: SamenessVerdict;
  /** Why, in a reviewer's words. */
  because: string;
  /** Words only the first / only the second statement has, as written (to mark). */
  onlyA: string[];
  onlyB: string[];
}

/**
 * Which two words mean the same or the opposite (the server passes WordNet's, `server/services/wordnet.ts`). Words
 * come lower-cased, irregular verbs in their base form ("written" → "write").
 */
export interface Lexicon {
  synonyms(a: string, b: string): boolean;
  antonyms(a: string, b: string): boolean;
}

export interface SamenessOptions {
  /** Similarity of two single words, −1…1; without it, any swapped content word makes the pair `near`. */
  wordSimilarity?: (a: string, b: string) => number;
  /** Synonyms and antonyms beyond the listed ones. */
  lexicon?: Lexicon;
  /** A swapped word at least this similar to one on the other side means the same. */
  sameFrom?: number;
}

export const SAMENESS_DEFAULTS = { sameFrom: 0.6 } as const;

const STOP = new Set(
  (
    "a an the and or but if then than that this these those there here it its it’s it's is are was were be been " +
    'being am do does did done has have had having of in on at to for from by with about as into onto over under ' +
    'up down out off via per each every any all some both either so such very too also just only still again ' +
    'already yet ever which who whom whose what when where while how why i me my we us our you your he him his ' +
    'she her they them their one’s can could will would shall should may might must let lets ' +
    'through across between within throughout along upon during toward towards whether'
  ).split(' '),
);
/** Words that frame a statement without adding to it ("Note:", "The team agreed that …"). */
const FILLER = new Set(
  (
    'note notes fyi reminder remember important please actually basically really agreed agree decided confirmed ' +
    'now currently generally usually okay ok per ' +
    // Light verbs a restatement adds ("the decision was made to …", "… applies to …", "it uses …").
    'made make makes apply applies applied use uses used using include includes included get gets got'
  ).split(' '),
);
/**
 * A lookup table without Object's prototype: memory text is untrusted, and "constructor" or "__proto__" must not
 * find a function there.
 */
function table<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

const NUMBER_WORDS: Record<string, number> = table({
  zero: 0,
  one: 1,
  once: 1,
  single: 1,
  two: 2,
  twice: 2,
  three: 3,
  thrice: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  dozen: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  thousand: 1000,
  million: 1_000_000,
});
/** Ordinals, keyed apart from counts ("the first day" = "the 1st", not "one day"); "second" is a unit of time. */
const ORDINAL_WORDS: Record<string, number> = table({
  first: 1,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  twelfth: 12,
});
const UNITS: Record<string, string> = table({
  s: 'second',
  sec: 'second',
  secs: 'second',
  seconds: 'second',
  second: 'second',
  ms: 'millisecond',
  msec: 'millisecond',
  milliseconds: 'millisecond',
  millisecond: 'millisecond',
  m: 'minute',
  min: 'minute',
  mins: 'minute',
  minutes: 'minute',
  minute: 'minute',
  h: 'hour',
  hr: 'hour',
  hrs: 'hour',
  hours: 'hour',
  hour: 'hour',
  d: 'day',
  days: 'day',
  day: 'day',
  wk: 'week',
  wks: 'week',
  week: 'week',
  weeks: 'week',
  fortnight: 'fortnight',
  fortnights: 'fortnight',
  mo: 'month',
  month: 'month',
  months: 'month',
  yr: 'year',
  yrs: 'year',
  year: 'year',
  years: 'year',
  mg: 'milligram',
  milligram: 'milligram',
  milligrams: 'milligram',
  gram: 'gram',
  grams: 'gram',
  kg: 'kilogram',
  kgs: 'kilogram',
  kilo: 'kilogram',
  kilos: 'kilogram',
  kilogram: 'kilogram',
  kilograms: 'kilogram',
  tonne: 'tonne',
  tonnes: 'tonne',
  celsius: 'celsius',
  fahrenheit: 'fahrenheit',
  kb: 'kilobyte',
  kib: 'kilobyte',
  kilobytes: 'kilobyte',
  kilobyte: 'kilobyte',
  mb: 'megabyte',
  mib: 'megabyte',
  megabytes: 'megabyte',
  megabyte: 'megabyte',
  gb: 'gigabyte',
  gib: 'gigabyte',
  gigabytes: 'gigabyte',
  gigabyte: 'gigabyte',
  tb: 'terabyte',
  tib: 'terabyte',
  terabytes: 'terabyte',
  terabyte: 'terabyte',
  '%': 'percent',
  pct: 'percent',
  percent: 'percent',
  k: 'thousand',
});
/**
 * A number with one of these units is compared by its quantity: "two hours" = "120 minutes", "24 months" = "2
 * years", "1,200 kg" = "1.2 tonnes" (months and years apart from days and weeks: their days vary).
 */
const QUANTITY: Record<string, [dimension: string, factor: number]> = table({
  millisecond: ['s', 0.001],
  second: ['s', 1],
  minute: ['s', 60],
  hour: ['s', 3600],
  day: ['s', 86_400],
  week: ['s', 604_800],
  fortnight: ['s', 1_209_600],
  month: ['mo', 1],
  year: ['mo', 12],
  milligram: ['g', 0.001],
  gram: ['g', 1],
  kilogram: ['g', 1000],
  tonne: ['g', 1_000_000],
});
const ANTONYMS: [string, string][] = [
  ['enabl', 'disabl'],
  ['on', 'off'],
  ['allow', 'deni'],
  ['allow', 'block'],
  ['allow', 'forbid'],
  ['allow', 'prohibit'],
  ['accept', 'reject'],
  ['includ', 'exclud'],
  ['alwai', 'never'],
  ['requir', 'option'],
  ['public', 'privat'],
  ['true', 'fals'],
  ['increas', 'decreas'],
  ['befor', 'after'],
  ['abov', 'below'],
  ['more', 'less'],
  ['more', 'fewer'],
  ['min', 'max'],
  ['minimum', 'maximum'],
  ['start', 'stop'],
  ['open', 'close'],
  ['lock', 'unlock'],
  ['pass', 'fail'],
  ['success', 'failur'],
  ['add', 'remov'],
  ['encrypt', 'plaintext'],
  ['like', 'dislik'],
  ['love', 'hate'],
  ['prefer', 'avoid'],
  ['earli', 'late'],
  ['upper', 'lower'],
];
const PREFIXES = ['un', 'in', 'im', 'dis', 'non', 'ir', 'il'];
/**
 * Verbs and words that restatements swap for one another: a swap inside one group does not make another fact (a
 * static word embedding puts "prefers" and "wants" 0.3 apart, "billing" and "search" 0.1: it cannot tell them).
 */
const SYNONYM_GROUPS: string[][] = [
  ['prefer', 'want', 'like', 'wish', 'ask', 'request', 'rather', 'favor', 'favour', 'choose', 'opt'],
  ['us', 'use', 'reli', 'depend', 'run', 'employ', 'util', 'leverag', 'support', 'built'],
  ['later', 'abov', 'newer', 'onward', 'higher', 'up'],
  ['store', 'kept', 'keep', 'live', 'resid', 'hold', 'sit', 'save', 'locat', 'base', 'work', 'host', 'held'],
  ['requir', 'need', 'must', 'mandatori', 'demand', 'expect', 'oblig'],
  ['limit', 'cap', 'max', 'maximum', 'most', 'restrict', 'bound', 'exceed', 'over', 'abov', 'larger', 'greater'],
  ['minimum', 'min', 'least', 'below', 'under', 'smaller', 'fewer'],
  ['happen', 'occur', 'take', 'run', 'go', 'come', 'ship', 'land', 'releas', 'deploi'],
  ['track', 'follow', 'record', 'log', 'cover', 'captur'],
  ['contact', 'reach', 'messag', 'ping', 'call', 'email'],
  ['trigger', 'page', 'alert', 'fire', 'notifi', 'send'],
  ['handl', 'process', 'manag', 'own', 'respons'],
  ['begin', 'start', 'kick'],
  ['finish', 'end', 'complet', 'done', 'due', 'wrap'],
  ['get', 'receiv', 'obtain', 'gain', 'acquir'],
  ['show', 'displai', 'present', 'render'],
  ['make', 'creat', 'build', 'produc', 'gener'],
  ['set', 'configur', 'defin'],
  ['larg', 'big', 'huge'],
  ['small', 'tini', 'littl'],
  ['quick', 'fast', 'rapid', 'speedi'],
  ['concis', 'short', 'brief', 'terse'],
  ['except', 'besid', 'apart'],
  ['becaus', 'due', 'sinc', 'reason', 'caus'],
  ['remain', 'stai', 'stay', 'persist'],
  ['rout', 'direct', 'forward', 'go', 'sent', 'send'],
  ['straight', 'directli', 'immedi'],
  ['acknowledg', 'ack', 'confirm'],
  ['fall', 'drop', 'declin', 'dip', 'sink'],
  ['split', 'divid', 'break', 'chunk'],
  ['renew', 'extend'],
  // How long a thing is kept: "logs are kept for 90 days" / "we retain logs for 90 days".
  ['keep', 'kept', 'retain'],
];
const SYNONYM_OF = new Map<string, Set<number>>();
SYNONYM_GROUPS.forEach((g, i) => g.forEach((w) => SYNONYM_OF.set(w, new Set([...(SYNONYM_OF.get(w) ?? []), i]))));
const listedSynonyms = (a: string, b: string) => {
  const ga = SYNONYM_OF.get(a);
  const gb = SYNONYM_OF.get(b);
  return !!ga && !!gb && [...ga].some((g) => gb.has(g));
};

export interface Token {
  raw: string;
  lower: string;
  kind: 'number' | 'id' | 'name' | 'word';
  /** For numbers: the value; for words and names: the stem (units canonical). */
  key: string;
  /** A number spelled as a word ("one", "twice"). */
  spelled?: boolean;
}

/** Ticket-like ids ("JIRA-412"), versions, paths, hosts, keys: letters with digits, or `_ . / @ :` inside a word. */
const TICKET = /^[A-Z][A-Z0-9]*-\d+$/;
const ID = /[A-Za-z].*\d|\d.*[A-Za-z]|[_@]|\w[.:/]\w|[a-z][A-Z]/;
const NUMBER_UNIT =
  /^[$€£]?(\d+(?:\.\d+)?)(ms|s|sec|m|min|h|hr|hrs|d|kb|mb|gb|tb|kib|mib|gib|k|x|%|am|pm|st|nd|rd|th)?$/i;
/** Short forms that name the same thing as a word of the other statement. */
const ABBREVIATIONS: Record<string, string[]> = table({
  db: ['database'],
  repo: ['repository'],
  config: ['configuration'],
  env: ['environment'],
  prod: ['production'],
  dev: ['development'],
  auth: ['authentication', 'authorization'],
  infra: ['infrastructure'],
  docs: ['documentation'],
  msg: ['message'],
  req: ['request'],
  approx: ['approximately'],
  auto: ['automatically', 'automatic'],
});
const ARTICLES = new Set(['a', 'an', 'the']);

const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
/**
 * A day of a month is one token, a date, in any of its forms ("May 1st" = "1 May" = "the 1st of May" → `May_1`): it
 * is never paired with another number of the statement, and another day or month is another identifier.
 */
const DAY_OF_MONTH = [
  new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH})\\b`, 'g'),
  new RegExp(`\\b(${MONTH})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'g'),
];
const dates = (text: string) =>
  text
    .replace(DAY_OF_MONTH[0]!, (_, d: string, m: string) => `${m}_${Number(d)}`)
    .replace(DAY_OF_MONTH[1]!, (_, m: string, d: string) => `${m}_${Number(d)}`);
const PERIOD = '(hour|night|day|week|month|year)';
/**
 * "a week", "an hour", "one day" as a length: first in a sentence, or after a word that introduces one ("after a
 * week", "within an hour"); not after a count of times or another quantity ("twice a week", "2 hours a day": rates).
 * Not "a second" nor "a minute": an ordinal and an adjective as often ("after a second attempt").
 */
const SPAN_WITH_ARTICLE = new RegExp(
  '(^|[.!?;:,(]\\s*|\\b(?:after|for|within|in|than|over|under|about|around|least|most|to|of|past|last|lasts|lasted|' +
    'takes|took|nearly|almost|just|only|by|before|until)\\s+)(?:a|an|one)\\s+' +
    '(hour|day|week|fortnight|month|year)\\b',
  'gi',
);
const PERIOD_LY: Record<string, string> = {
  hour: 'hourly',
  night: 'nightly',
  day: 'daily',
  week: 'weekly',
  month: 'monthly',
  year: 'annually',
};
/**
 * One form for how often, and for a span said with an article or a fraction: "every day" = "each day" = "per day" =
 * "daily", "once a year" = "annually" = "yearly", "twice a day" = "two times daily", "every other week" = "every 2
 * weeks" = "fortnightly"; "a week" = "1 week" (= "7 days"), "half a year" = "6 months", "a quarter of an hour" = "15
 * minutes". A span after a count of times is a frequency, never a length ("three times a week" is not "3 … 1 week").
 */
/** A bound in stop words before a figure ("up to 2", "within eight"), said as one word. */
const UP_TO = new RegExp(
  '\\b(?:up to|within|at most|no more than|not more than) (?=[$€£]?\\d|(?:one|two|three|four|five|six|seven|eight|' +
    'nine|ten|eleven|twelve|twenty|thirty|fifty)\\b)',
  'gi',
);

function spans(text: string): string {
  return (
    text
      .replace(/\bthree quarters of an hour\b/gi, '45 minutes')
      .replace(/\b(?:(?:a|one) )?quarter of an hour\b|\ba quarter-hour\b/gi, '15 minutes')
      .replace(/\bhalf an hour\b|\bhalf-hour\b|\bhalf hour\b/gi, '30 minutes')
      .replace(/\bhalf a year\b/gi, '6 months')
      // How many times a year, said by the months between: "every six months" = "twice a year" = "semiannually".
      .replace(/\bevery (?:6|six) months\b|\bsemi-?annually\b/gi, 'twice a year')
      .replace(/\bevery (?:3|three) months\b/gi, '4 times a year')
      .replace(/\bevery (?:12|twelve) months\b/gi, 'annually')
      // A bound said in stop words would go unsaid: "up to 2 days" = "within 2 days" = "a maximum of 2 days".
      .replace(UP_TO, 'maximum ')
      .replace(/\bevery other (day|week|month|year)\b/gi, 'every 2 $1s')
      .replace(/(?<![\w/.@:-])fortnightly(?![\w/@:-]|\.\w)/gi, 'every 2 weeks')
      .replace(/(?<![\w/.@:-])yearly(?![\w/@:-]|\.\w)/gi, 'annually')
      .replace(
        new RegExp(`\\bonce (?:a|an|per|every|each) ${PERIOD}\\b`, 'gi'),
        (_, p: string) => PERIOD_LY[p.toLowerCase()]!,
      )
      .replace(new RegExp(`\\b(?:every|each|per) ${PERIOD}\\b`, 'gi'), (_, p: string) => PERIOD_LY[p.toLowerCase()]!)
      // "1,000 requests/day": a rate after a count, not a path ("backups/day").
      .replace(
        new RegExp(`(?<=\\d\\s*[A-Za-z]*)/${PERIOD}\\b(?![\\w/@:-]|\\.\\w)`, 'gi'),
        (_, p: string) => ` ${PERIOD_LY[p.toLowerCase()]!}`,
      )
      .replace(
        new RegExp(`\\b(twice|thrice|\\w+ times) (?:a|an) ${PERIOD}\\b`, 'gi'),
        (_, n: string, p: string) => `${n} ${PERIOD_LY[p.toLowerCase()]!}`,
      )
      .replace(
        /\b(twice|thrice) (hourly|nightly|daily|weekly|monthly|annually)\b/gi,
        (_, n: string, p: string) => `${n.toLowerCase() === 'twice' ? 'two' : 'three'} times ${p}`,
      )
      .replace(SPAN_WITH_ARTICLE, (_, before: string, unit: string) => `${before}1 ${unit}`)
      // What is left after an amount is a rate: "2 hours a day" = "2 hours daily", "$45 a year" = "$45 annually".
      .replace(
        new RegExp(
          `((?<![\\w.,%])\\d[\\w.,%]*|\\b(?:seconds?|minutes?|hours?|days?|weeks?|months?|dollars?|euros?|pounds?` +
            `|times))\\s+(?:a|an) ${PERIOD}\\b`,
          'gi',
        ),
        (_, amount: string, p: string) => `${amount} ${PERIOD_LY[p.toLowerCase()]!}`,
      )
  );
}

function normalize(text: string): string {
  return (
    spans(dates(text))
      .replace(/[‘’`]/g, "'")
      .replace(/[“”]/g, '"')
      .replace(/\b([ap])\.m\.?/gi, '$1m')
      .replace(/(\d),(?=\d{3}\b)/g, '$1')
      // One form for a time of day ("8 pm", "8:00 p.m.", "20:00"), a temperature, a sign and a currency.
      .replace(/\b(\d{1,2})(?::(\d{2}))?\s*([ap])m\b/gi, (_, h: string, m: string | undefined, ap: string) =>
        clock((Number(h) % 12) + (ap.toLowerCase() === 'p' ? 12 : 0), Number(m ?? 0)),
      )
      .replace(/\b(\d{1,2}):(\d{2})\b/g, (_, h: string, m: string) => clock(Number(h), Number(m)))
      .replace(/\bnoon\b/gi, '12:00')
      .replace(/\bmidnight\b/gi, '00:00')
      .replace(/(?<!\s)\s*(?:°\s*|\bdeg(?:rees?)?\s+)(c(?:elsius)?|f(?:ahrenheit)?)\b/gi, (_, u: string) =>
        /^c/i.test(u) ? ' celsius' : ' fahrenheit',
      )
      .replace(/\bminus\s+(?=\d)/gi, '-')
      .replace(/(?<![\d.])(\d+(?:\.\d+)?)\s*(?:euros?|eur)\b/gi, '€$1')
      .replace(/(?<![\d.])(\d+(?:\.\d+)?)\s*(?:(?:us\s*)?dollars?|usd)\b/gi, '$$$1')
      .replace(/(?<![\d.])(\d+(?:\.\d+)?)\s*(?:pounds sterling|gbp)\b/gi, '£$1')
      // A range is two numbers ("09:00-17:00" = "09:00 to 17:00"); a hyphenated word is one word ("start-up").
      .replace(/(\d)\s*[-–]\s*(?=\d)/g, '$1 to ')
      // A label ("Risk:", "NOTE -") frames the statement; "would rather X than Y" prefers X, not Y.
      .replace(/^\s*[A-Za-z]+\s*(?::|\s[-–—])\s+/, '')
      .replace(/\bwould rather\b([^.!?\n]{0,300}?)\bthan\b/gi, 'prefer$1not')
      .replace(/\b(?:rather than|instead of)\b/gi, 'not')
      .replace(/\b(?:no|not) (more|less|fewer|later|earlier) than\b/gi, 'at $1 than')
  );
}

/** A time of day as `HH:MM`, 24-hour. */
const clock = (h: number, m: number) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;

const IRREGULAR: Record<string, string> = table({
  written: 'write',
  wrote: 'write',
  kept: 'keep',
  held: 'hold',
  ran: 'run',
  built: 'build',
  sent: 'send',
  taken: 'take',
  took: 'take',
  given: 'give',
  gave: 'give',
  chosen: 'choose',
  chose: 'choose',
  known: 'know',
  knew: 'know',
  paid: 'pay',
  said: 'say',
  told: 'tell',
  found: 'find',
  began: 'begin',
  begun: 'begin',
  went: 'go',
  gone: 'go',
  came: 'come',
  spent: 'spend',
  lost: 'lose',
  woke: 'wake',
  sold: 'sell',
  bought: 'buy',
  brought: 'bring',
  thought: 'think',
  caught: 'catch',
  taught: 'teach',
  met: 'meet',
  led: 'lead',
  fed: 'feed',
  fell: 'fall',
  fallen: 'fall',
  drove: 'drive',
  driven: 'drive',
  broke: 'break',
  broken: 'break',
  froze: 'freeze',
  frozen: 'freeze',
  forbidden: 'forbid',
  forbade: 'forbid',
});
/** One spelling for British and American forms ("colour" / "color", "optimise" / "optimize"). */
const spelling = (w: string) =>
  w.replace(/^([a-z]{2,})our(s|ed|ing)?$/, '$1or$2').replace(/^([a-z]{3,})is(e|es|ed|ing|ation)$/, '$1iz$2');
const stemOf = (lower: string) => UNITS[lower] ?? stemmer(IRREGULAR[lower] ?? spelling(lower));

function word(raw: string, initial: boolean): Token {
  const lower = raw.toLowerCase();
  if (lower in NUMBER_WORDS) return { raw, lower, kind: 'number', key: String(NUMBER_WORDS[lower]), spelled: true };
  if (lower in ORDINAL_WORDS) return { raw, lower, kind: 'number', key: `#${ORDINAL_WORDS[lower]}` };
  const caps = /^[A-Z]{2,}s?$/.test(raw);
  const capitalised = /^[A-Z][a-z]/.test(raw) && !initial;
  const name = (caps || capitalised) && !STOP.has(lower) && !FILLER.has(lower) && !(lower in UNITS);
  return { raw, lower, kind: name ? 'name' : 'word', key: stemOf(lower) };
}

/** Tokens of recently compared statements: an entry is compared with many events (cleared past 5,000). */
const TOKENS = new Map<string, Token[]>();

export function tokenize(text: string): Token[] {
  const hit = TOKENS.get(text);
  if (hit) return hit;
  if (TOKENS.size >= 5000) TOKENS.clear();
  const out = tokenizeUncached(text);
  TOKENS.set(text, out);
  return out;
}

function tokenizeUncached(text: string): Token[] {
  const out: Token[] = [];
  const norm = normalize(text);
  let lastEnd = 0;
  let first = true;
  for (const m of norm.matchAll(/[A-Za-z0-9$€£/][A-Za-z0-9_.\-/@:'%]*[A-Za-z0-9%/]|[A-Za-z0-9%]/g)) {
    // Sentence starts: the first word and any word after . ! ? : ; or a dash.
    const initial = first || /[.!?:;]\s*$|\s[-–—]\s*$|\n/.test(norm.slice(lastEnd, m.index));
    first = false;
    lastEnd = m.index + m[0].length;
    const raw = m[0].replace(/'s$/i, '');
    // "they/them", "requests/minute": words; "hotfix/ledger-rounding", paths: one identifier.
    // "three-day": a count and its unit, two words (any other hyphenated word is one, "get-day-summary").
    const counted = (w: string) => {
      const parts = w.toLowerCase().split('-');
      return parts.length === 2 && parts[0]! in NUMBER_WORDS && parts[1]! in QUANTITY_UNIT;
    };
    const pieces = /^[A-Za-z]+(?:\/[A-Za-z]+)+$/.test(raw)
      ? raw.split('/')
      : TICKET.test(raw) || /[.@:/]/.test(raw.replace(/\.$/, ''))
        ? [raw]
        : /^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(raw) && !counted(raw)
          ? [raw]
          : raw.split('-').filter(Boolean);
    pieces.forEach((piece, i) => {
      if (/^\d{2}:\d{2}$/.test(piece)) {
        out.push({ raw: piece, lower: piece, kind: 'number', key: `at ${piece}` });
        return;
      }
      const nu = NUMBER_UNIT.exec(piece);
      if (nu) {
        // A sign written before the number ("-20", "−5") and a currency symbol are part of its value.
        const before = i === 0 ? norm.slice(Math.max(0, m.index - 2), m.index) : '';
        const sign = /(^|\s)[-−]$/.test(before) ? '-' : '';
        const currency = /^[$€£]/.test(piece) ? piece[0]! : '';
        const unit = nu[2]?.toLowerCase();
        const ordinal = unit === 'st' || unit === 'nd' || unit === 'rd' || unit === 'th';
        const value = `${currency}${sign}${Number(nu[1])}`;
        out.push({ raw: piece, lower: piece.toLowerCase(), kind: 'number', key: ordinal ? `#${value}` : value });
        // An ordinal's suffix is not a unit, nor a plural's "s" ("503s" are errors, not seconds).
        if (unit && !['st', 'nd', 'rd', 'th', 's'].includes(unit))
          out.push({ raw: nu[2]!, lower: unit, kind: 'word', key: UNITS[unit] ?? unit });
        return;
      }
      // A hyphenated word is one word however it is written ("start-up" = "startup"), and compared as written:
      // kebab-case names ("acme-prod", "payments-primary") differ by a part.
      if (/^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(piece)) {
        const parts = piece.toLowerCase().split('-');
        const joined = parts.join('');
        // "double-checked" = "double-check", "colour-blind" = "color-blind".
        const key = [...parts.slice(0, -1).map(spelling), stemOf(parts.at(-1)!)].join('');
        out.push({ raw: piece, lower: joined, kind: 'id', key });
        return;
      }
      const bare = /^v\d/i.test(piece) ? piece.slice(1) : piece;
      // (A token over 200 characters is an identifier by length: the pattern is not run on it.)
      if ((bare.length > 200 || ID.test(bare)) && !/^[A-Za-z]+'[a-z]+$/.test(bare)) {
        // A redacted secret is shown as its mark ("[REDACTED:api_key]"), which the pages draw masked.
        const raw = /^REDACTED:[a-z_]+$/.test(piece) ? `[${piece}]` : piece;
        out.push({ raw, lower: bare.toLowerCase(), kind: 'id', key: bare.toLowerCase().replace(/[.:]+$/, '') });
        return;
      }
      out.push(word(piece, initial && i === 0));
    });
  }
  return quantities(out);
}

/** Units that make a number a quantity (their surface forms). */
const QUANTITY_UNIT = table(Object.fromEntries(Object.entries(UNITS).filter(([, unit]) => unit in QUANTITY)));

/** A number followed by a unit of `QUANTITY` becomes one token, keyed by the quantity in the unit's base. */
function quantities(ts: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    const unit = ts[i + 1];
    const q = unit && t.kind === 'number' && /^[$€£-]?\d/.test(t.key) ? QUANTITY[unit.key] : undefined;
    const value = Number(t.key);
    if (!q || !Number.isFinite(value)) {
      out.push(t);
      continue;
    }
    const key = `${q[0]}:${Number((value * q[1]).toPrecision(12))}`;
    out.push({ ...t, raw: `${t.raw} ${unit!.raw}`, key });
    i++;
  }
  return out;
}

const CUE_WORDS = new Set([
  'not',
  'no',
  'never',
  'cannot',
  "can't",
  "won't",
  "don't",
  "doesn't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "shouldn't",
  "mustn't",
  "didn't",
  "hasn't",
  "haven't",
  'without',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'none',
  'missing',
  'lacking',
  'lacks',
  'absent',
]);
export const isCue = (t: Token) => CUE_WORDS.has(t.lower) || t.lower.endsWith("n't");
const notCue = (t: Token) => !isCue(t);
const polarity = (ts: readonly Token[]) => ts.filter(isCue).length % 2;

/** Multiset difference, both ways. */
function differ(a: readonly string[], b: readonly string[]): [string[], string[]] {
  const left = [...a];
  const right: string[] = [];
  for (const x of b) {
    const i = left.indexOf(x);
    if (i >= 0) left.splice(i, 1);
    else right.push(x);
  }
  return [left, right];
}

/** Whether `t` is spelled out, or abbreviated, by words of the other statement. */
function namedIn(t: Token, others: readonly Token[], lowers: Set<string>, stems: Set<string>): boolean {
  if (lowers.has(t.lower) || stems.has(t.key)) return true;
  const short = t.lower.replace(/s$/, '');
  if (ABBREVIATIONS[short]?.some((w) => stems.has(stemmer(w)))) return true;
  for (const o of others) if (ABBREVIATIONS[o.lower.replace(/s$/, '')]?.some((w) => stemmer(w) === t.key)) return true;
  const initials = others.map((o) => o.lower[0] ?? '').join('');
  return (
    short.length >= 2 &&
    /^[a-z]+$/.test(short) &&
    t.raw.toUpperCase().startsWith(short.toUpperCase()) &&
    /[A-Z]{2}/.test(t.raw) &&
    initials.includes(short)
  );
}

export const isContent = (t: Token) => (t.kind === 'word' || t.kind === 'name') && !STOP.has(t.lower) && !isCue(t);
/** A word that carries a fact: a content word, a number or an identifier. */
const bearsFact = (t: Token) => isContent(t) || t.kind === 'number' || t.kind === 'id';

/**
 * Opposites with nothing between them, so that "not" one is the other ("is not closed" = "is open", "not allowed" =
 * "forbidden"); most are not ("did not increase" is not "decreased", "does not love" is not "hates").
 */
const COMPLEMENTARY: [string, string][] = [
  ['open', 'close'],
  ['on', 'off'],
  ['enabl', 'disabl'],
  ['allow', 'deni'],
  ['allow', 'forbid'],
  ['allow', 'prohibit'],
  ['requir', 'option'],
  ['public', 'privat'],
  ['true', 'fals'],
  ['includ', 'exclud'],
  ['lock', 'unlock'],
  ['pass', 'fail'],
  ['present', 'absent'],
];
const complementary = (x: string, y: string) =>
  COMPLEMENTARY.some(([p, q]) => (x === p && y === q) || (x === q && y === p)) ||
  ['un', 'non', 'in', 'im', 'ir', 'il'].some((p) => y === p + x || x === p + y);

/** In a hunk: a negation cue, then (past small words) a word complementary to one the other side says instead. */
export function negatedComplement(plain: readonly Token[], negated: readonly Token[]): [Token, Token] | null {
  for (let i = 0; i < negated.length; i++) {
    if (!isCue(negated[i]!)) continue;
    let j = i + 1;
    while (j < negated.length && STOP.has(negated[j]!.lower)) j++;
    const y = negated[j];
    const x = y && plain.find((t) => complementary(t.key, y.key));
    if (x && y) return [x, y];
  }
  return null;
}

/** Listed opposites, or a word and its negating prefix ("conform" / "nonconforming"), by stem. */
const antonymous = (x: string, y: string) =>
  ANTONYMS.some(([p, q]) => (x === p && y === q) || (x === q && y === p)) ||
  PREFIXES.some((p) => y === p + x || x === p + y);

/**
 * The force of a statement, by its modal words: an obligation ("must", "shall", "needs to", "is required"), advice
 * ("should", "ought") or a possibility ("may", "can", "might"). "Deploys must pause" and "deploys should pause" state
 * the same action with another force: one is a rule, the other a recommendation.
 */
const FORCE: Record<string, 'must' | 'should' | 'may'> = Object.assign(Object.create(null), {
  must: 'must',
  "mustn't": 'must',
  shall: 'must',
  "shan't": 'must',
  need: 'must',
  needs: 'must',
  require: 'must',
  requires: 'must',
  required: 'must',
  mandatory: 'must',
  obligatory: 'must',
  should: 'should',
  "shouldn't": 'should',
  ought: 'should',
  may: 'may',
  might: 'may',
  can: 'may',
  could: 'may',
  // What cannot be done is forbidden: a rule, as "must not" is.
  cannot: 'must',
  "can't": 'must',
  "couldn't": 'must',
});
const forceOf = (ts: readonly Token[]) => [...new Set(ts.flatMap((t) => FORCE[t.lower] ?? []))].sort().join(' ');

/** Two forms of one word: stems sharing their first five letters ("allergic" / "allergy", "automatic" / "automat"). */
const sameRoot = (a: Token, b: Token) =>
  a.key.length >= 5 && b.key.length >= 5 && a.key.slice(0, 5) === b.key.slice(0, 5);

/**
 * Content words a rewording may leave unpaired: one, on one side only (a restatement's own framing word, "works as",
 * "for reference"). Two unpaired words, or one on each side, may be a swap the rules cannot pair — "prefers dark
 * mode" / "wants light mode" — and go to a person.
 */
const REWORDED_SLACK = 1;
/**
 * Words that bound a figure: the one word a rewording may leave unpaired only if the other statement is bounded too
 * ("drops below 80%" / "falls under 80%"), never if it is not ("kept 30 days" / "retained at least 30 days").
 */
const LIMIT_WORDS = new Set(
  'least most more fewer less max maximum minimum min above below beyond exceed exceeds'.split(' '),
);
const BOUND = new RegExp(
  '\\b(?:over|under|up to|above|below|at least|at most|more than|less than|fewer than|min(?:imum)?|max(?:imum)?|' +
    'beyond|exceed\\w*)\\b',
  'i',
);

const base = (t: Token) => IRREGULAR[t.lower] ?? t.lower;
/** Two words of one meaning: listed synonyms, or the lexicon's. */
export const synonymous = (t: Token, o: Token, lex?: Lexicon) =>
  listedSynonyms(t.key, o.key) || !!lex?.synonyms(base(t), base(o));
/** A word of `del` and one of `add` that are opposites (listed, by a negating prefix, or the lexicon's). */
export function opposedIn(del: readonly Token[], add: readonly Token[], lex?: Lexicon): [Token, Token] | null {
  for (const x of del) for (const y of add) if (antonymous(x.key, y.key)) return [x, y];
  if (lex) for (const x of del) for (const y of add) if (lex.antonyms(base(x), base(y))) return [x, y];
  return null;
}

/** Share of the words two statements keep in the same order (longest common subsequence, articles left out). */
export const FRAME_FROM = 0.6;

/** Verbs of being and having, and modals: what follows them is said of the subject, not the subject. */
export const LINKING = new Set(
  'is are was were be been being am has have had does do did will would shall should can could may might must'.split(
    ' ',
  ),
);

/** A stretch where two statements of one frame differ: the words only the first says there, then the second's. */
export interface Hunk {
  del: Token[];
  add: Token[];
  /** Fact-bearing words (content words, numbers, identifiers) of the first statement before the stretch. */
  lead: number;
  /** Whether both say a verb of being or having, or a modal, before it ("is", "has", "must"): past the subject. */
  afterVerb: boolean;
  /** The word both say right before it ("10" in "10 GB" / "10 MB"). */
  prev: Token | null;
}

/**
 * Two statements' shared frame (the share of their words kept in order, articles left out) and the stretches where
 * they differ. A word moved within the sentence is not a change: it is dropped from both sides.
 */
export function frameHunks(ta: readonly Token[], tb: readonly Token[]): { frame: number; hunks: Hunk[] } {
  const seqA = ta.filter((t) => !ARTICLES.has(t.lower));
  const seqB = tb.filter((t) => !ARTICLES.has(t.lower));
  const parts = diffArrays(seqA, seqB, { comparator: (x, y) => x.key === y.key });
  const common = parts.filter((p) => !p.added && !p.removed).reduce((n, p) => n + p.value.length, 0);
  const frame = common / Math.max(1, seqA.length, seqB.length);
  const hunks: Hunk[] = [];
  let cur: Hunk | null = null;
  let lead = 0;
  let afterVerb = false;
  let prev: Token | null = null;
  for (const p of parts) {
    if (!p.added && !p.removed) {
      cur = null;
      lead += p.value.filter(bearsFact).length;
      afterVerb ||= p.value.some((t) => LINKING.has(t.lower));
      prev = p.value.at(-1) ?? null;
      continue;
    }
    if (!cur) hunks.push((cur = { del: [], add: [], lead, afterVerb, prev }));
    (p.removed ? cur.del : cur.add).push(...p.value);
    if (p.removed) lead += p.value.filter(bearsFact).length;
  }
  const moved = differ(
    hunks.flatMap((h) => h.del.map((t) => t.key)),
    hunks.flatMap((h) => h.add.map((t) => t.key)),
  );
  const keep = (ts: Token[], left: string[]) =>
    ts.filter((t) => {
      const i = left.indexOf(t.key);
      if (i < 0) return false;
      left.splice(i, 1);
      return true;
    });
  const [leftDel, leftAdd] = [[...moved[0]], [...moved[1]]];
  for (const h of hunks) {
    h.del = keep(h.del, leftDel);
    h.add = keep(h.add, leftAdd);
  }
  return { frame, hunks };
}

/** Words of a statement past which the word rules do not compare it (the labelled pairs have at most 18). */
const MAX_TOKENS = 300;
/** Characters past which a statement is not read by the word rules' patterns either (300 words are ~2,000). */
const MAX_CHARS = 5000;

export function sameness(a: string, b: string, opts: SamenessOptions = {}): Sameness {
  const sameFrom = opts.sameFrom ?? SAMENESS_DEFAULTS.sameFrom;
  const sim = opts.wordSimilarity ?? ((x: string, y: string) => (x === y ? 1 : 0));
  const lex = opts.lexicon;
  const synonyms = (t: Token, o: Token) => synonymous(t, o, lex);
  const opposite = (del: readonly Token[], add: readonly Token[]) => opposedIn(del, add, lex);
  // "60s" is a count ("503s" are errors) unless the other statement says that many seconds ("60 seconds").
  const asSeconds = (ts: Token[], other: Token[]) => {
    const keys = new Set(other.map((o) => o.key));
    return ts.map((t) => (/^\d+(?:\.\d+)?s$/i.test(t.raw) && keys.has(`s:${t.key}`) ? { ...t, key: `s:${t.key}` } : t));
  };
  const shown = (ts: readonly Token[]) => [...new Set(ts.map((t) => t.raw))];
  const result = (
    verdict: SamenessVerdict,
    because: string,
    onlyA: readonly Token[] = [],
    onlyB: readonly Token[] = [],
  ): Sameness => ({ verdict, because, onlyA: shown(onlyA), onlyB: shown(onlyB) });
  const list = (ts: readonly Token[]) => shown(ts).join(', ') || '—';

  // The word rules read the Latin alphabet: other scripts, or nothing to compare, go to a person.
  const foreign = (text: string) => {
    const letters = text.match(/\p{L}/gu) ?? [];
    return !letters.length || letters.filter((c) => !/[A-Za-z]/.test(c)).length > letters.length * 0.3;
  };
  // The same words in another case, spacing or sentence punctuation are the same statement, in any script (signs,
  // currencies and symbols still count: "-20" is not "20").
  const bare = (text: string) =>
    text
      .normalize('NFC')
      .toLowerCase()
      .replace(/[.,;:!?"“”‘’]+(?=\s|$)/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  if (bare(a) === bare(b)) return result('same', 'the same words');
  // A statement is a sentence or two: the word rules compare the two in time that grows with the product of their
  // lengths (10,000 words each took 14 s), so longer ones go to a person, before a pattern reads them.
  const tooLong = `longer than the word rules compare (${MAX_TOKENS} words)`;
  if (a.length > MAX_CHARS || b.length > MAX_CHARS) return result('near', tooLong);
  if (foreign(a) || foreign(b)) return result('near', 'written in a script the word rules do not read');
  const [ta0, tb0] = [asSeconds(tokenize(a), tokenize(b)), asSeconds(tokenize(b), tokenize(a))];
  if (ta0.length > MAX_TOKENS || tb0.length > MAX_TOKENS) return result('near', tooLong);
  const explode = (ts: Token[]) =>
    ts.flatMap((t) =>
      t.kind === 'id' && /^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(t.raw)
        ? t.raw.split('-').map((p) => word(ABBREVIATIONS[p.toLowerCase()]?.[0] ?? p.toLowerCase(), false))
        : [t],
    );

  // Numbers: a spelled-out "one" or "once" is as often an article as a count, so 1 is compared only in digits.
  const spelledOne = [...ta0, ...tb0].some((t) => t.spelled && t.key === '1');
  const nums = (ts: Token[]) => ts.filter((t) => t.kind === 'number' && !(spelledOne && t.key === '1'));
  const [numA, numB] = differ(
    nums(ta0).map((t) => t.key),
    nums(tb0).map((t) => t.key),
  );
  if (numA.length || numB.length) {
    const onlyA = nums(ta0).filter((t) => numA.includes(t.key));
    const onlyB = nums(tb0).filter((t) => numB.includes(t.key));
    return result('distinct', `the numbers differ (${list(onlyA)} / ${list(onlyB)})`, onlyA, onlyB);
  }
  // An identifier is missing when no word of the other statement is written the same ("start-up" / "startup").
  const written = (ts: Token[]) => new Set(explode(ts).flatMap((t) => [t.key, t.lower]));
  const [inA, inB] = [written(ta0), written(tb0)];
  // A hyphenated word is also present when the other says each of its parts ("nearest-neighbour" / "nearest
  // neighbor", "rate-limited" / "rate limit"); "acme-prod" / "acme-sandbox" differ by a part.
  const partsIn = (t: Token, other: Set<string>) =>
    /^[a-z]+(?:-[a-z]+)+$/i.test(t.raw) &&
    t.raw
      .toLowerCase()
      .split('-')
      .every(
        // "up-to-date" / "out-of-date", "opt-in" / "opt-out": every part counts, small words too.
        (p) => other.has(stemOf(p)) || other.has(p) || !!ABBREVIATIONS[p]?.some((w) => other.has(stemOf(w))),
      );
  const idA = ta0.filter((t) => t.kind === 'id' && !inB.has(t.key) && !partsIn(t, inB));
  const idB = tb0.filter((t) => t.kind === 'id' && !inA.has(t.key) && !partsIn(t, inA));
  if (idA.length || idB.length) {
    return result('distinct', `the identifiers differ (${list(idA)} / ${list(idB)})`, idA, idB);
  }
  // Past this point a hyphenated word the other statement also says is compared by its parts.
  const [ta, tb] = [explode(ta0), explode(tb0)];
  const lowerA = new Set(ta.map((t) => t.lower));
  const lowerB = new Set(tb.map((t) => t.lower));
  const stemsA = new Set(ta.map((t) => t.key));
  const stemsB = new Set(tb.map((t) => t.key));
  const nameA = ta.filter((t) => t.kind === 'name' && !namedIn(t, tb, lowerB, stemsB));
  const nameB = tb.filter((t) => t.kind === 'name' && !namedIn(t, ta, lowerA, stemsA));
  if (nameA.length || nameB.length)
    return result('distinct', `the names differ (${list(nameA)} / ${list(nameB)})`, nameA, nameB);

  // A rule restated as advice (or as a mere possibility) is another statement: a person weighs it. (One that states
  // the rule as practice, "every dose is double-checked", says no force of its own.)
  // Negated on one side only, the rules below decide ("can't … without" is "requires", "may" is not "must never").
  const [forceA, forceB] = [forceOf(ta0), forceOf(tb0)];
  if (forceA && forceB && forceA !== forceB && polarity(ta0) === polarity(tb0)) {
    const [mA, mB] = [ta0.filter((t) => FORCE[t.lower]), tb0.filter((t) => FORCE[t.lower])];
    return result('near', `the force differs (${list(mA)} / ${list(mB)})`, mA, mB);
  }

  // The same frame ("The billing service retries …" / "The search service retries …"): what changed in it decides.
  const { frame, hunks } = frameHunks(ta, tb);
  const synonym = (t: Token, others: readonly Token[]) =>
    others.some((o) => synonyms(t, o) || sim(t.lower, o.lower) >= sameFrom);
  const ca0 = ta.filter(isContent);
  const cb0 = tb.filter(isContent);
  if (frame >= FRAME_FROM) {
    // A word added on one side that the other says in another form ("allergic" / "allergy") or a listed synonym
    // adds nothing. (Not an embedding neighbour: any two words of a static model may be 0.6 apart.)
    const said = (t: Token, other: readonly Token[]) =>
      other.some((o) => o.key === t.key || sameRoot(t, o) || synonyms(t, o));
    let near: { del: Token[]; add: Token[] } | null = null;
    for (const h of hunks) {
      let [hd, ha] = [h.del, h.add];
      if (hd.filter(isCue).length % 2 !== ha.filter(isCue).length % 2) {
        // "is closed" / "doesn't open": a complementary word, negated right there, says the same.
        const pair = negatedComplement(hd, ha) ?? negatedComplement(ha, hd);
        if (!pair) return result('distinct', 'one statement negates the other', hd, ha);
        const gone = new Set(pair);
        [hd, ha] = [hd.filter((t) => !gone.has(t) && notCue(t)), ha.filter((t) => !gone.has(t) && notCue(t))];
      }
      const flip = opposite(hd, ha);
      if (flip) return result('distinct', `opposite words (${flip[0].raw} / ${flip[1].raw})`, hd, ha);
      const del = hd.filter((t) => isContent(t) && !FILLER.has(t.lower));
      const add = ha.filter((t) => isContent(t) && !FILLER.has(t.lower));
      if (del.length && add.length) {
        if (del.every((t) => synonym(t, add) || said(t, cb0)) && add.every((t) => synonym(t, del) || said(t, ca0)))
          continue;
        return result('distinct', `a different subject or object (${list(del)} / ${list(add)})`, del, add);
      }
      const extra = [...del.filter((t) => !said(t, cb0)), ...add.filter((t) => !said(t, ca0))];
      if (extra.length)
        near ??= { del: del.filter((t) => extra.includes(t)), add: add.filter((t) => extra.includes(t)) };
    }
    if (near) return result('near', `one says more (${list([...near.del, ...near.add])})`, near.del, near.add);
    return result('same', 'the same statement, up to form and filler');
  }

  // Reworded: the same when no fact-bearing word differs and each side's content words are found in the other.
  const ca = ta.filter(isContent);
  const cb = tb.filter(isContent);
  const onlyA = ca.filter((t) => !stemsB.has(t.key) && !namedIn(t, tb, lowerB, stemsB));
  const onlyB = cb.filter((t) => !stemsA.has(t.key) && !namedIn(t, ta, lowerA, stemsA));
  if (polarity(ta) !== polarity(tb)) return result('near', 'reworded, and only one of them is negated', onlyA, onlyB);
  const flip = opposite(onlyA, onlyB);
  if (flip) return result('distinct', `opposite words (${flip[0].raw} / ${flip[1].raw})`, onlyA, onlyB);
  // A content word of one side that the other lacks must be another form or a listed synonym of one of its words,
  // or close (by embedding) to one of the other side's own unmatched words: a swap, not a new fact.
  const unfound = (only: Token[], other: Token[], otherOnly: Token[]) =>
    only.filter(
      (t) =>
        !FILLER.has(t.lower) &&
        !other.some((o) => sameRoot(t, o) || synonyms(t, o)) &&
        !otherOnly.some((o) => sim(t.lower, o.lower) >= sameFrom),
    );
  const [uA, uB] = [unfound(onlyA, cb, onlyB), unfound(onlyB, ca, onlyA)];
  // Words only one side has, with nothing swapped out on the other, are an addition: one says more.
  const swapped = (only: Token[]) => only.some((t) => !FILLER.has(t.lower));
  if ((uA.length >= 2 && !swapped(onlyB)) || (uB.length >= 2 && !swapped(onlyA)))
    return result('near', `one says more (${list([...uA, ...uB])})`, uA, uB);
  const unbounded = (ts: Token[], other: string) => ts.some((t) => LIMIT_WORDS.has(t.lower)) && !BOUND.test(other);
  if (uA.length + uB.length <= REWORDED_SLACK && !unbounded(uA, b) && !unbounded(uB, a))
    return result('same', 'reworded: the same facts in other words', onlyA, onlyB);
  return result('near', `reworded, with words of its own (${list(uA)} / ${list(uB)})`, uA, uB);
}
