import type { FieldError } from './contract';

/**
 * A record's fields the schema does not know are kept as the agent's own (`extra`): an agent may send what it likes.
 * One that is a slip for a field it does know (`halucination`, `sessionId`, `titel`) would be kept there silently,
 * its figure never shown: the answer warns, naming the field meant. Only slips of the hand count — the same name but
 * for case and separators, or (in names of 5 letters or more) one letter left out, doubled or two swapped — never one
 * letter for another: `context` is not `content`, `draft` not `drift`, and `agent_id`, `recall_k` or `kinds` are
 * names of their own.
 */

/** Spelling aside: case, `_`, `-` and spaces. */
const bare = (k: string) => k.toLowerCase().replace(/[_\-\s]/g, '');

/** `a` and `b` (bare) are one slip apart: a letter left out or added, or two neighbours swapped. */
function oneSlip(a: string, b: string): boolean {
  if (a.length === b.length) {
    const at = [...a].findIndex((c, i) => c !== b[i]);
    return at >= 0 && a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1 || long === `${short}s`) return false;
  const at = [...short].findIndex((c, i) => c !== long[i]);
  return at < 0 || short.slice(at) === long.slice(at + 1);
}

/** A name of its own that holds the field's as a part (`agent_id`, `recall_k`, `input_hash`). */
const holds = (key: string, field: string) =>
  key
    .split(/[_\-\s]+|(?=[A-Z])/)
    .map((part) => part.toLowerCase())
    .includes(field);

/** The known field `key` is most likely a slip for, if any. */
export function nearField(key: string, known: readonly string[]): string | null {
  if (known.includes(key)) return null;
  const b = bare(key);
  const same = known.find((k) => bare(k) === b);
  if (same) return same;
  if (b.length < 5) return null;
  return known.find((k) => bare(k).length >= 5 && !holds(key, k) && oneSlip(b, bare(k))) ?? null;
}

// An agent sends the same fields on every record: each name is judged once per kind of record (a bounded memo).
const judged = new Map<string, string | null>();
function nearFieldOnce(key: string, known: readonly string[], noun: string): string | null {
  const memo = `${noun}\u0000${key}`;
  let meant = judged.get(memo);
  if (meant === undefined) {
    if (judged.size >= 10_000) judged.clear();
    meant = nearField(key, known);
    judged.set(memo, meant);
  }
  return meant;
}

/** Warnings for the fields of `data` (under `prefix`) that are not in `known` but look like one that is. */
export function slipWarnings(
  data: Record<string, unknown>,
  known: readonly string[],
  noun: string,
  prefix = 'data',
): FieldError[] {
  const out: FieldError[] = [];
  for (const key of Object.keys(data)) {
    const meant = nearFieldOnce(key, known, noun);
    if (meant)
      out.push({
        path: `${prefix}.${key}`,
        message: `not a field of a ${noun}, kept as the agent's own; did you mean ${meant}?`,
      });
  }
  return out;
}
