import { and, desc, eq } from 'drizzle-orm';
import { entryHref } from '@/lib/pages';
import type { DbHandle, Tx } from '@/server/db';
import {
  curationOutcomes,
  memoryEntries,
  memoryEntryVersions,
  memoryEvents,
  proposals,
} from '@/server/db/schema/curation';
import { isFinal, isMalformedOutcome, type DecidedEntry, type MemoryDecision } from '@/lib/curation/decision';
import { notify, notifyTurnEventsOf, onNotice } from './live';
import { appLink } from '@/server/env';

/**
 * Decisions flowing back to agents: what became of a memory event an agent sent (written, queued for review,
 * approved as sent or edited, rejected with the reason, a duplicate of an entry, discarded) and what the resulting
 * entry says now (a later deprecation shows there). An agent asks once, or waits: every instance on the database
 * hears of a decision through PostgreSQL NOTIFY, so a wait on one instance ends when a reviewer decides on another.
 */

export const DECISIONS_CHANNEL = 'mnemoscope_decisions';

async function entryNow(db: Tx, projectId: string, id: string | null): Promise<DecidedEntry | null> {
  if (!id) return null;
  const [e] = await db
    .select({
      id: memoryEntries.id,
      content: memoryEntries.content,
      scope: memoryEntries.scope,
      kind: memoryEntries.kind,
      status: memoryEntries.status,
      version: memoryEntries.version,
    })
    .from(memoryEntries)
    .where(and(eq(memoryEntries.projectId, projectId), eq(memoryEntries.id, id)));
  if (!e) return null;
  const [v] = await db
    .select({ by: memoryEntryVersions.createdBy, note: memoryEntryVersions.note })
    .from(memoryEntryVersions)
    .where(and(eq(memoryEntryVersions.entryId, id), eq(memoryEntryVersions.version, e.version)));
  return {
    ...e,
    changed_by: v?.by ?? 'curator',
    note: v?.note ?? null,
    url: appLink(entryHref(id)),
  };
}

/** What became of one memory event; null when the project holds no event of that id. */
export async function memoryEventDecision(db: Tx, projectId: string, eventId: string): Promise<MemoryDecision | null> {
  const [outcomes, stored, [p]] = await Promise.all([
    db
      .select({
        disposition: curationOutcomes.disposition,
        scope: curationOutcomes.scope,
        kind: curationOutcomes.kind,
        reason: curationOutcomes.reason,
        rationale: curationOutcomes.rationale,
        entryId: curationOutcomes.entryId,
        decidedBy: curationOutcomes.decidedBy,
        decidedAt: curationOutcomes.decidedAt,
      })
      .from(curationOutcomes)
      .where(and(eq(curationOutcomes.projectId, projectId), eq(curationOutcomes.eventId, eventId)))
      // Ties broken as the Events tab breaks them (curation-views.ts outcomesOf), so both name the same outcome.
      .orderBy(curationOutcomes.decidedAt, curationOutcomes.id),
    db
      .select({ id: memoryEvents.eventId })
      .from(memoryEvents)
      .where(and(eq(memoryEvents.projectId, projectId), eq(memoryEvents.eventId, eventId)))
      .limit(1),
    db
      .select({ id: proposals.id, status: proposals.status })
      .from(proposals)
      .where(and(eq(proposals.projectId, projectId), eq(proposals.eventId, eventId)))
      .orderBy(desc(proposals.createdAt))
      .limit(1),
  ]);
  // A malformed version refused under this id is the answer only while no whole event holds the id: once one does,
  // its own curation is (pending until the curator has run).
  const real = outcomes.filter((x) => !isMalformedOutcome(x.rationale));
  const o = real.at(-1) ?? (stored.length ? undefined : outcomes.at(-1));
  if (!o && !stored.length) return null;
  const duplicateOf =
    o?.disposition === 'duplicate' && typeof o.rationale.targetEntryId === 'string' ? o.rationale.targetEntryId : null;
  const [entry, duplicate] = await Promise.all([
    entryNow(db, projectId, o?.entryId ?? null),
    entryNow(db, projectId, duplicateOf),
  ]);
  const disposition = o?.disposition ?? 'pending_curation';
  const edited = o?.rationale.edited;
  return {
    event_id: eventId,
    disposition,
    final: isFinal(disposition),
    reason: o ? o.reason : 'stored; the curator has not decided yet (it runs again at the next start)',
    scope: o?.scope ?? null,
    kind: o?.kind ?? null,
    edited: Array.isArray(edited) ? edited.map(String) : [],
    decided_by: o?.decidedBy ?? null,
    decided_at: o?.decidedAt.toISOString() ?? null,
    entry_id: o?.entryId ?? null,
    ...(entry ? { entry_url: entry.url } : {}),
    entry,
    duplicate_of: duplicate,
    ...(p ? { proposal_id: p.id, proposal_status: p.status, review_url: appLink(`/curation?proposal=${p.id}`) } : {}),
    history: outcomes.map((x) => ({
      disposition: x.disposition,
      reason: x.reason,
      decided_by: x.decidedBy,
      decided_at: x.decidedAt.toISOString(),
    })),
  };
}

/**
 * Tells waiting agents (on every instance) that these events were decided, and open replay pages showing the turns
 * they name; sent when the transaction commits.
 */
export async function notifyDecisions(tx: Tx, projectId: string, eventIds: readonly string[]) {
  await notify(tx, DECISIONS_CHANNEL, projectId, eventIds);
  await notifyTurnEventsOf(tx, projectId, eventIds);
}

/** The longest single wait an HTTP client may ask for: under the 60 s idle timeout of common proxies. */
export const MAX_WAIT_SECONDS = 50;
/** A wait also looks again this often, should a notice be lost. */
const RECHECK_MS = 5000;

/**
 * The event's decision once it is final, or as it stands after `waitMs`. Null when the project holds no such event
 * (checked first, and again at the end: an agent may ask before its event has arrived).
 */
export async function awaitDecision(
  handle: DbHandle,
  projectId: string,
  eventId: string,
  waitMs: number,
  ...signals: (AbortSignal | undefined)[]
): Promise<MemoryDecision | null> {
  const now = await memoryEventDecision(handle.db, projectId, eventId);
  if ((now && now.final) || waitMs <= 0 || signals.some((s) => s?.aborted)) return now;
  return new Promise((resolve) => {
    let done = false;
    let checking = false;
    let again = false;
    let unsubscribe = () => {};
    // Any signal (the client gone, this instance stopping) ends the wait with what is known. Its listener is removed
    // when the wait ends: a signal that lives as long as the process must not keep every wait's closure.
    const aborted = () => finish(now);
    const finish = (d: MemoryDecision | null) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearInterval(recheck);
      unsubscribe();
      for (const s of signals) s?.removeEventListener('abort', aborted);
      resolve(d);
    };
    const check = () => {
      if (done) return;
      if (checking) return void (again = true);
      checking = true;
      memoryEventDecision(handle.db, projectId, eventId)
        .then((d) => {
          if (d?.final) finish(d);
        })
        .catch(() => undefined)
        .finally(() => {
          checking = false;
          if (again) {
            again = false;
            check();
          }
        });
    };
    const deadline = setTimeout(
      () => void memoryEventDecision(handle.db, projectId, eventId).then(finish, () => finish(now)),
      waitMs,
    );
    const recheck = setInterval(check, RECHECK_MS);
    for (const s of signals) s?.addEventListener('abort', aborted, { once: true });
    void onNotice(handle, DECISIONS_CHANNEL, projectId, eventId, check).then(
      (off) => {
        if (done) off();
        else {
          unsubscribe = off;
          // A decision made between the first look and the subscription is not missed.
          check();
        }
      },
      () => undefined,
    );
  });
}
