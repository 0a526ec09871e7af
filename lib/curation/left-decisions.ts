/**
 * Decisions a reviewer's browser sent as its page went (closed, reloaded, signed out) or as the reviewer left the inbox
 * by a link, whose answers no page may have heard: what their proposals' standing now says became of them. Pure; the
 * app shell fetches the standing (components/curation/left-decisions.tsx).
 */

export interface LeftDecision {
  ids: string[];
  /** The status the decision would have given its proposals. */
  wanted: 'approved' | 'rejected';
  /** What the held banner said ("Approving “…”"). */
  text: string;
  /** When it was sent (ms since the epoch). */
  at: number;
  /** Sent as the page closed (also when absent: written before this field was), or as the inbox was left by a link. */
  how?: 'closed' | 'left';
  /**
   * What the page that sent it heard, when it was still there to hear: the server's refusal in its words (a colleague
   * decided first, even the same way: an edit or a reason of this decision was not applied), or why the request
   * never reached the server.
   */
  refused?: string;
  failed?: string;
}

export interface Standing {
  id: string;
  /** pending, approved or rejected. */
  status: string;
  decidedBy: string | null;
  decidedAt: Date | string | null;
}

export type LeftVerdict =
  /** Still pending, and sent too recently to say it did not arrive: asked again later. */
  | { kind: 'wait' }
  /** Its proposals are not in this project (another project's inbox will check it), or it is too old to say. */
  | { kind: 'elsewhere' }
  | { kind: 'expired' }
  /** Every proposal stands as the decision would have left it (by it, or by someone deciding the same). */
  | { kind: 'took' }
  /**
   * Some proposals were decided otherwise before it came, or are still pending (it never arrived); `said`: the
   * server's own words when the page heard its refusal.
   */
  | { kind: 'refused'; otherwise: Standing[]; pending: Standing[]; of: number; said?: string };

/** How long a pending proposal may wait for a decision sent as the page went before it is said not to have come. */
export const SETTLE_MS = 20_000;
/** How long a decision whose proposals are in no project this browser opens is kept for checking. */
export const KEEP_MS = 7 * 24 * 3600_000;

export function judgeLeft(d: LeftDecision, standing: ReadonlyMap<string, Standing>, now: number): LeftVerdict {
  const rows = d.ids.map((id) => standing.get(id)).filter((r): r is Standing => !!r);
  if (!rows.length) return now - d.at > KEEP_MS ? { kind: 'expired' } : { kind: 'elsewhere' };
  const pending = rows.filter((r) => r.status === 'pending');
  // Refused in so many words, or known never to have reached the server: whatever the proposals' standing (a colleague
  // may have decided the same way), this decision was not applied as made.
  if (d.refused) return { kind: 'refused', otherwise: [], pending: [], of: rows.length, said: d.refused };
  if (d.failed)
    return {
      kind: 'refused',
      otherwise: [],
      pending,
      of: rows.length,
      said: `it never reached the server (${d.failed})`,
    };
  if (pending.length && now - d.at < SETTLE_MS) return { kind: 'wait' };
  const otherwise = rows.filter((r) => r.status !== 'pending' && r.status !== d.wanted);
  if (!otherwise.length && !pending.length) return { kind: 'took' };
  return { kind: 'refused', otherwise, pending, of: rows.length };
}
