import { z } from 'zod';

/**
 * A JSON object of named values (`{"relevance": 8.9, …}`, a CCS's fields), each name `minName`–`maxName`
 * characters. Same answers as `z.record(z.string().min(minName).max(maxName), value)` and the same JSON Schema
 * (`propertyNames`), at a third of its cost: zod's record runs a key schema for every name, which made records most
 * of a turn's validation (a CCS of nine fields 9 µs, a judge of four scores 2.6 µs; as a catch-all object 3 and 0.7).
 * The names are checked once the values pass.
 */
export function namedMap<T extends z.ZodType>(value: T, maxName: number, minName = 1) {
  return z
    .object({})
    .catchall(value)
    .check((ctx) => {
      for (const k of Object.keys(ctx.value))
        if (k.length < minName || k.length > maxName)
          ctx.issues.push({
            code: 'custom',
            message:
              k.length > maxName
                ? `field name must be at most ${maxName} characters`
                : `field name must be at least ${minName} character${minName === 1 ? '' : 's'}`,
            input: k,
            path: [k],
          });
    })
    .meta({ propertyNames: { type: 'string', ...(minName ? { minLength: minName } : {}), maxLength: maxName } });
}
