/** What recall searches: every piece of memory text a project holds, one item each. */
export const RECALL_KINDS = [
  'session',
  'turn',
  'ccs_term',
  'memory_event',
  'memory_entry',
  'artifact',
  'dead_end',
  'methodology',
  'reflection',
  'judgment',
] as const;
export type RecallKind = (typeof RECALL_KINDS)[number];

export const KIND_LABEL: Record<RecallKind, string> = {
  session: 'session',
  turn: 'turn',
  ccs_term: 'CCS term',
  memory_event: 'memory event',
  memory_entry: 'memory entry',
  artifact: 'artifact',
  dead_end: 'dead end',
  methodology: 'methodology',
  reflection: 'reflection',
  judgment: 'judgment',
};

export interface RecallItem {
  /** Unique within a project: `${kind}:${key}`. */
  id: string;
  kind: RecallKind;
  /** The text that is embedded and searched (already redacted at ingest). */
  text: string;
  /** A short label: the CCS field, the memory kind, the dead end's topic… */
  label: string | null;
  agent: string | null;
  session: string | null;
  /** Memory scope (user_identity, team_memory, …) where the item has one. */
  scope: string | null;
  /** ISO time, when known. */
  ts: string | null;
  /** Where the item opens: the exact turn, entry or dead end. */
  href: string;
}

export interface RecallFilters {
  kinds?: RecallKind[];
  agent?: string | null;
  session?: string | null;
  scope?: string | null;
  /** ISO bounds, inclusive; items without a time pass only when no bound is set. */
  from?: string | null;
  to?: string | null;
}

/** Where an item comes from, as one line under its text: agent · session · scope · time (minutes, UTC). */
export function itemPlace(item: RecallItem): string {
  return [item.agent, item.session, item.scope, item.ts?.slice(0, 16).replace('T', ' ')].filter(Boolean).join(' · ');
}

export function matchesFilters(item: RecallItem, f: RecallFilters): boolean {
  if (f.kinds?.length && !f.kinds.includes(item.kind)) return false;
  if (f.agent && item.agent !== f.agent) return false;
  if (f.session && item.session !== f.session) return false;
  if (f.scope && item.scope !== f.scope) return false;
  if (f.from && !(item.ts && item.ts >= f.from)) return false;
  if (f.to && !(item.ts && item.ts <= f.to)) return false;
  return true;
}

/**
 * cyrb53: a fast 53-bit string hash, the content key of a cached vector (with the model id). At
 * 100,000 items the chance of any collision is about 1 in 10^6.
 */
export function contentHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
