/**
 * Where a JSON value nests deeper than `limit` arrays and objects, as a path (`data.a[0].b`), or null. Iterative,
 * so a hostile 100,000-level value costs a walk, not a stack overflow: serialising, validating or redacting such a
 * value recursively throws RangeError, which would lose the whole batch instead of refusing one record.
 */
export function tooDeep(value: unknown, limit: number, root = ''): string | null {
  const stack: [unknown, number, string][] = [[value, 0, root]];
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return path || '(root)';
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push([v[i], depth + 1, `${path}[${i}]`]);
    else
      for (const k of Object.keys(v))
        stack.push([(v as Record<string, unknown>)[k], depth + 1, path ? `${path}.${k}` : k]);
  }
  return null;
}
