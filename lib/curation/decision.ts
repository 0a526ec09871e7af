/**
 * What became of a memory event an agent sent, as `GET /api/v1/memory-events/{id}`, the MCP tool
 * `get_memory_decision` and the SDKs' `decision()` answer it.
 */

/** An entry as the decision left it, read now (its content after a reviewer's edit, its status after a deprecation). */
export interface DecidedEntry {
  id: string;
  content: string;
  scope: string;
  kind: string;
  status: string;
  version: number;
  /** Who made the entry's latest version, and the note they left (a deprecation's reason). */
  changed_by: string;
  note: string | null;
  url: string;
}

export interface MemoryDecision {
  event_id: string;
  /** pending_curation, written, proposed, approved, rejected, duplicate or discarded. */
  disposition: string;
  /** False while the curator has not run or a reviewer has not decided: waiting can change it. */
  final: boolean;
  reason: string | null;
  scope: string | null;
  kind: string | null;
  /** The fields a reviewer changed before approving (content, scope, kind). */
  edited: string[];
  decided_by: string | null;
  decided_at: string | null;
  entry_id: string | null;
  entry_url?: string;
  entry: DecidedEntry | null;
  /** For a duplicate: the entry that already says it. */
  duplicate_of: DecidedEntry | null;
  proposal_id?: string;
  proposal_status?: string;
  review_url?: string;
  /** Every outcome recorded for the event, oldest first (the curator's, then a reviewer's). */
  history: { disposition: string; reason: string | null; decided_by: string; decided_at: string }[];
}

/** Dispositions that may still change: the curator has not run, or a reviewer has not decided. */
export const OPEN_DISPOSITIONS = ['pending_curation', 'proposed'] as const;

export const isFinal = (disposition: string) => !(OPEN_DISPOSITIONS as readonly string[]).includes(disposition);
