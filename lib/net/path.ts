import { LIMITS } from '@/lib/ingest/contract';

/** A URL path segment decoded, or as it came when it is not valid percent-encoding (never a 500). */
export function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Whether an id from an address is one a record could be stored under (the ingest contract's: 1–256 characters, no
 * control characters). Any other is not found, without asking the database.
 */
export function storableId(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what an id may not hold
  return s.trim().length > 0 && s.length <= LIMITS.idChars && !/[\u0000-\u001f\u007f]/.test(s);
}
