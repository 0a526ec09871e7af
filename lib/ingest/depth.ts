import type { FieldError } from './contract';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex -- NUL is exactly what PostgreSQL's text cannot hold
const MAYBE_UNSTORABLE = /[\u0000\ud800-\udfff]/;

/** Why PostgreSQL cannot store a string (U+0000, or an unpaired surrogate), or null. */
export function unstorable(s: string): string | null {
  if (!MAYBE_UNSTORABLE.test(s)) return null;
  if (s.includes('\u0000')) return 'contains a NUL character (\\u0000), which cannot be stored';
  if (LONE_SURROGATE.test(s)) return 'contains an unpaired UTF-16 surrogate (not valid Unicode)';
  return null;
}

/** An array or object met in the walk, with the way back to the root (its path is only spelled out for an error). */
interface Node {
  value: object;
  depth: number;
  parent: Node | null;
  key: string | number;
}

function pathOf(node: Node | null, key: string | number | null, root: string): string {
  const keys: (string | number)[] = key === null ? [] : [key];
  for (let n = node; n?.parent; n = n.parent) keys.push(n.key);
  let s = root;
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i]!;
    s += typeof k === 'number' ? `[${k}]` : s ? `.${k}` : k;
  }
  return s || '(root)';
}

/**
 * What makes a parsed JSON value unstorable as sent, as a field error with its path (`data.a[0].b`), or null:
 * nesting deeper than `limit` arrays and objects (serialising, validating or redacting such a value recursively
 * throws RangeError, which would lose the whole batch instead of refusing one record), a number JSON cannot
 * hold (`1e400` parses as Infinity and would be stored as null without a word), and with `strings`, a string or
 * field name PostgreSQL cannot store (U+0000, an unpaired surrogate). Iterative: a hostile 100,000-level value costs
 * a walk, not a stack overflow. Paths are built only for the error: the walk of a valid record allocates one small
 * object per array or object, none per value.
 */
export function shapeProblem(value: unknown, limit: number, root = '', strings = false): FieldError | null {
  if (value === null || typeof value !== 'object') {
    const why = leafProblem(value, strings);
    return why ? { path: root || '(root)', message: why } : null;
  }
  if (limit <= 0) return { path: root || '(root)', message: `nested deeper than ${limit} levels` };
  const stack: Node[] = [{ value, depth: 0, parent: null, key: '' }];
  while (stack.length) {
    const node = stack.pop()!;
    const v = node.value;
    const keys = Array.isArray(v) ? null : Object.keys(v);
    const n = keys ? keys.length : (v as unknown[]).length;
    for (let i = 0; i < n; i++) {
      const key = keys ? keys[i]! : i;
      if (keys && strings) {
        const why = unstorable(key as string);
        if (why) return { path: pathOf(node, key, root), message: `field name ${why}` };
      }
      const child: unknown = keys ? (v as Record<string, unknown>)[key] : (v as unknown[])[i];
      if (child === null || typeof child !== 'object') {
        const why = leafProblem(child, strings);
        if (why) return { path: pathOf(node, key, root), message: why };
      } else if (node.depth + 1 >= limit) {
        return { path: pathOf(node, key, root), message: `nested deeper than ${limit} levels` };
      } else stack.push({ value: child, depth: node.depth + 1, parent: node, key });
    }
  }
  return null;
}

function leafProblem(v: unknown, strings: boolean): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : 'is a number too large to store (beyond ±1.8e308)';
  return strings && typeof v === 'string' ? unstorable(v) : null;
}
