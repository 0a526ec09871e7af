import { distance } from 'fastest-levenshtein';
import type { FieldError } from './contract';

/**
 * A record's fields the schema does not know are kept as the agent's own (`extra`): an agent may send what it likes.
 * One that is a slip for a field it does know (`halucination`, `sessionId`, `Turn`) would be kept there silently,
 * its figure never shown: the answer warns, naming the field meant.
 */

/** Spelling aside: case, `_`, `-` and spaces. */
const bare = (k: string) => k.toLowerCase().replace(/[_\-\s]/g, '');

/** The known field `key` is most likely a slip for, if any: the same bare, or at most 2 edits (1 for names of 4). */
export function nearField(key: string, known: readonly string[]): string | null {
  const b = bare(key);
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    if (k === key) return null;
    const d = bare(k) === b ? 0 : distance(b, bare(k));
    if (d < bestD) [best, bestD] = [k, d];
  }
  const allowed = Math.min(b.length, best?.length ?? 0) <= 4 ? 1 : 2;
  return best !== null && bestD <= allowed ? best : null;
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
    if (known.includes(key)) continue;
    const meant = nearField(key, known);
    if (meant)
      out.push({
        path: `${prefix}.${key}`,
        message: `not a field of a ${noun}, kept as the agent's own; did you mean ${meant}?`,
      });
  }
  return out;
}
