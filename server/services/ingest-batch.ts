import { createHash } from 'node:crypto';
import type { FieldError, RecordType } from '@/lib/ingest/contract';
import type { NormalizedRecord } from '@/lib/ingest/normalize';

/** What the writers of an ingest batch share: the records waiting to be stored, and how they are cut up. */

export type Rec<T extends NormalizedRecord['type']> = Extract<NormalizedRecord, { type: T }>;

/** A valid record of the batch: its position in the request and its id in the answer. */
export interface Pending<R extends NormalizedRecord = NormalizedRecord> {
  index: number;
  id: string;
  record: R;
  /** A turn's database row as JSON, made where the record was validated (ingest-prepare.ts). */
  row?: string;
  /** Said in the record's answer, whatever it is (lib/ingest/near-field.ts). */
  warnings?: FieldError[];
}

// Postgres allows 65,535 parameters a statement; the widest table has ~20 columns.
const CHUNK = 500;

export function chunks<T>(rows: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export const sha256 = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 32);

/** The pending records of one type. */
export function ofType<T extends NormalizedRecord['type']>(pending: Pending[], type: T): Pending<Rec<T>>[] {
  return pending.filter((p) => p.record.type === type) as Pending<Rec<T>>[];
}

/** Within a batch the first record with an id wins; later ones are duplicates of it. */
export function firstOf<T extends Pending>(rows: T[], key: (p: T) => string): T[] {
  const seen = new Set<string>();
  return rows.filter((p) => {
    const k = key(p);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Adds to `stored` the records of a chunk whose key the insert returned (the rest were already there). */
export function markStored<T extends Pending>(ids: string[], chunk: T[], key: (p: T) => string, stored: Set<number>) {
  const set = new Set(ids);
  for (const p of chunk) if (set.has(key(p))) stored.add(p.index);
}

export function recordType(r: NormalizedRecord): RecordType {
  return r.type === 'ucs_document' ? r.recordType : r.type;
}
