/** What a number read from a page's address may be. */
export interface NumberRange {
  min: number;
  max: number;
  integer: boolean;
}

/**
 * The number `key` holds in `params` when `range` takes it. Absent or empty, undefined; any other value, undefined
 * too, with why in words added to `problems` (a page says it rather than showing its default in silence).
 */
export function readUrlNumber(
  params: URLSearchParams,
  key: string,
  range: NumberRange,
  problems: string[] = [],
): number | undefined {
  const raw = params.get(key);
  if (raw === null || raw.trim() === '') return undefined;
  const v = Number(raw);
  if (Number.isFinite(v) && v >= range.min && v <= range.max && (!range.integer || Number.isInteger(v))) return v;
  problems.push(
    `${key}: “${raw}” is not ${range.integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}`,
  );
  return undefined;
}
