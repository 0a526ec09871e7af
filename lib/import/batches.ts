import type { Envelope } from '@/lib/ingest/contract';

/**
 * Splits envelopes into request-sized batches: at most `maxRecords` each, and at most about
 * `maxBytes` of JSON, so a workspace of 100 KB field snapshots does not become one huge request.
 */
export function batchEnvelopes(
  envelopes: readonly Envelope[],
  maxRecords = 500,
  maxBytes = 4 * 1024 * 1024,
): Envelope[][] {
  const out: Envelope[][] = [];
  let cur: Envelope[] = [];
  let bytes = 0;
  for (const e of envelopes) {
    const size = JSON.stringify(e).length;
    if (cur.length && (cur.length >= maxRecords || bytes + size > maxBytes)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(e);
    bytes += size;
  }
  if (cur.length) out.push(cur);
  return out;
}
