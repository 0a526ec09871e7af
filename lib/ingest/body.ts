import type { FieldError } from './contract';

export type BodyItem = { ok: true; value: unknown } | { ok: false; errors: FieldError[] };
export type ParsedBody = { ok: true; format: 'json' | 'ndjson'; items: BodyItem[] } | { ok: false; error: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

function firstByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0xef && b !== 0xbb && b !== 0xbf) return b;
  }
  return -1;
}

/**
 * Parses an ingest body: a JSON array of envelopes, a single envelope, or NDJSON (one per line).
 * In NDJSON a line that is not valid UTF-8 or not valid JSON becomes a rejected record of its own;
 * the other lines still count. A JSON array is one document, so a syntax error rejects the body.
 */
export function parseIngestBody(bytes: Uint8Array): ParsedBody {
  const first = firstByte(bytes);
  if (first === -1)
    return { ok: false, error: 'body is empty: send a JSON array or NDJSON of {"type", "data"} envelopes' };
  if (first === 0x5b /* [ */) {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      return { ok: false, error: `body is not valid UTF-8 (first bad byte at offset ${badUtf8Offset(bytes)})` };
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { ok: false, error: `body is not valid JSON: ${(e as Error).message}` };
    }
    if (!Array.isArray(value)) return { ok: false, error: 'body must be a JSON array of envelopes' };
    return { ok: true, format: 'json', items: value.map((v) => ({ ok: true, value: v })) };
  }
  // One pretty-printed envelope is a common thing to post by hand.
  if (first === 0x7b /* { */) {
    try {
      const whole = JSON.parse(decoder.decode(bytes));
      return { ok: true, format: 'json', items: [{ ok: true, value: whole }] };
    } catch {
      /* fall through to NDJSON, line by line */
    }
  }
  // Valid UTF-8 throughout (the usual case): one decode of the whole body, then line by line.
  let whole: string | null = null;
  try {
    whole = decoder.decode(bytes);
  } catch {
    /* a bad byte somewhere: decoded line by line below, so that only its line is rejected */
  }
  if (whole !== null) return ndjsonLines(whole.split('\n'));
  const items: BodyItem[] = [];
  let start = 0;
  let line = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    line++;
    const chunk = bytes.subarray(start, i);
    start = i + 1;
    let text: string;
    try {
      text = decoder.decode(chunk);
    } catch {
      items.push({
        ok: false,
        errors: [{ path: '', message: `line ${line} is not valid UTF-8 (bad byte at offset ${badUtf8Offset(chunk)})` }],
      });
      continue;
    }
    pushLine(items, text, line);
  }
  return asNdjson(items);
}

function ndjsonLines(lines: string[]): ParsedBody {
  const items: BodyItem[] = [];
  for (let i = 0; i < lines.length; i++) pushLine(items, lines[i]!, i + 1);
  return asNdjson(items);
}

/**
 * NDJSON lines as records; a body none of whose lines is JSON is not NDJSON at all (`{not json`, a form post) and is
 * refused as a whole, with its first line's reason, rather than answered as a partial success.
 */
function asNdjson(items: BodyItem[]): ParsedBody {
  if (!items.length) return { ok: false, error: 'body holds no records' };
  const first = items[0]!;
  if (!first.ok && items.every((i) => !i.ok))
    return {
      ok: false,
      error:
        'body is neither JSON nor NDJSON: ' +
        first.errors[0]!.message +
        (items.length === 2 ? ' (and so is its other line)' : '') +
        (items.length > 2 ? ` (and so are its ${items.length - 1} other lines)` : ''),
    };
  return { ok: true, format: 'ndjson', items };
}

/**
 * One NDJSON line as a record (blank lines are skipped; a line of bad JSON is a rejected record of its own). A byte
 * order mark starting a line is dropped: files joined with `cat` keep each one's BOM, and a body with a bad byte
 * (decoded line by line) loses them all the same way.
 */
function pushLine(items: BodyItem[], raw: string, line: number) {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (!text.trim()) return;
  try {
    items.push({ ok: true, value: JSON.parse(text) });
  } catch (e) {
    items.push({
      ok: false,
      errors: [{ path: '', message: `line ${line} is not valid JSON: ${(e as Error).message}` }],
    });
  }
}

function badUtf8Offset(bytes: Uint8Array): number {
  // Binary search for the shortest prefix that fails; decode errors at a truncated tail are skipped.
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid + 1), { stream: true });
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  // The decoder fails where a sequence breaks; point at the byte that began it.
  let j = lo - 1;
  while (j >= 0 && lo - j <= 3 && (bytes[j]! & 0xc0) === 0x80) j--;
  return j >= 0 && lo - j <= 3 && bytes[j]! >= 0xc0 ? j : lo;
}
