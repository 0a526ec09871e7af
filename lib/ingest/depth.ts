import type { FieldError } from './contract';

/**
 * What makes a parsed JSON value unstorable as sent, as a field error with its path (`data.a[0].b`), or null:
 * nesting deeper than `limit` arrays and objects (serialising, validating or redacting such a value recursively
 * throws RangeError, which would lose the whole batch instead of refusing one record), or a number JSON cannot
 * hold (`1e400` parses as Infinity and would be stored as null without a word). Iterative: a hostile
 * 100,000-level value costs a walk, not a stack overflow.
 */
export function shapeProblem(value: unknown, limit: number, root = ''): FieldError | null {
  const stack: [unknown, number, string][] = [[value, 0, root]];
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v))
      return { path: path || '(root)', message: 'is a number too large to store (beyond ±1.8e308)' };
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return { path: path || '(root)', message: `nested deeper than ${limit} levels` };
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push([v[i], depth + 1, `${path}[${i}]`]);
    else
      for (const k of Object.keys(v))
        stack.push([(v as Record<string, unknown>)[k], depth + 1, path ? `${path}.${k}` : k]);
  }
  return null;
}
