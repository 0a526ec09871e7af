import type { EvidenceRef } from '@/lib/ingest/contract';
import type { RedactionRecord } from '@/lib/redact/redact';

type Json = Record<string, unknown>;

/**
 * A memory event as stored: what normalization makes of either emitter shape (lib/ingest/normalize.ts),
 * one `memory_events` row (less its project and receive time), and the source of the curator's input.
 * Adding a field: add it here and in `FIELDS` below (the compiler asks for both), then to the table.
 */
export interface MemoryEvent {
  eventId: string;
  /**
   * 'agentlas' (memory_kind, string evidence refs) or 'legacy' (kind + object refs, the shape of "Self-Evolving
   * Agents Hallucinate at Scale: A Provable Memory Curator Architecture").
   */
  shape: 'agentlas' | 'legacy';
  sourceAgent: string;
  taskId: string | null;
  kind: string;
  content: string;
  suggestedScope: string;
  confidence: string;
  sensitivity: string | null;
  ttl: string | null;
  evidenceRefs: EvidenceRef[];
  requestContext: Json | null;
  supersedes: string[];
  conflictsWith: string[];
  humanReviewRequired: boolean;
  /** The event as sent, redacted, so an export gives back the emitter's own shape. */
  raw: Json;
  redactions: RedactionRecord[];
  timestamp: string;
  /** Mnemoscope's extension of both shapes: the session, and the turn in it, at which the agent emitted it. */
  sessionId: string | null;
  turn: number | null;
}

export type MemoryEventField = keyof MemoryEvent;

// A record rather than a list so that the compiler rejects a field missing or unknown.
const FIELDS = {
  eventId: true,
  shape: true,
  sourceAgent: true,
  taskId: true,
  kind: true,
  content: true,
  suggestedScope: true,
  confidence: true,
  sensitivity: true,
  ttl: true,
  evidenceRefs: true,
  requestContext: true,
  supersedes: true,
  conflictsWith: true,
  humanReviewRequired: true,
  raw: true,
  redactions: true,
  timestamp: true,
  sessionId: true,
  turn: true,
} as const satisfies Record<MemoryEventField, true>;

/** Every field of a stored memory event, in column order: rows, selects and mappers are built from it. */
export const MEMORY_EVENT_FIELDS = Object.keys(FIELDS) as MemoryEventField[];

/** Every field but those named, in column order (for a select that leaves some out). */
export function memoryEventFieldsBut<K extends MemoryEventField>(...left: K[]): Exclude<MemoryEventField, K>[] {
  return MEMORY_EVENT_FIELDS.filter((f): f is Exclude<MemoryEventField, K> => !(left as string[]).includes(f));
}

/** The fields the curator's pipeline reads (lib/curation/pipeline.ts). */
export const CURATION_EVENT_FIELDS = [
  'eventId',
  'sourceAgent',
  'kind',
  'content',
  'suggestedScope',
  'confidence',
  'sensitivity',
  'ttl',
  'evidenceRefs',
  'supersedes',
  'conflictsWith',
  'humanReviewRequired',
] as const satisfies readonly MemoryEventField[];

/** What the curator's pipeline sees of a stored event. */
export type CurationEvent = Pick<MemoryEvent, (typeof CURATION_EVENT_FIELDS)[number]> & {
  /** How many secrets redaction masked in the content. */
  redactedCount: number;
};

/** The named properties of an object, in the order named. */
export function pick<T, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = from[k];
  return out;
}

/** The stored row of a normalized memory event (its record `type` tag and anything else dropped). */
export function toMemoryEventRow(r: MemoryEvent): MemoryEvent {
  return pick(r, MEMORY_EVENT_FIELDS);
}

/** What the curator needs of a stored memory event (a database row or a freshly normalized record). */
export function toCurationEvent(
  r: Pick<MemoryEvent, (typeof CURATION_EVENT_FIELDS)[number]> & {
    redactions: Pick<RedactionRecord, 'path' | 'count'>[];
  },
): CurationEvent {
  return {
    ...pick(r, CURATION_EVENT_FIELDS),
    redactedCount: r.redactions.reduce((n, x) => n + (x.path === 'content' ? x.count : 0), 0),
  };
}

/** Rows a page of the Events tab (and of the inbox) fetches at a time. */
export const CURATION_PAGE = 100;

/** At most this many events of one window of the replay's turns are listed (server/services/curation-views.ts). */
export const WINDOW_EVENTS = 1000;
