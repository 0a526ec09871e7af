import { sql } from 'drizzle-orm';
import { rowsOf, type DbHandle, type Tx } from '@/server/db';

/**
 * News for whoever waits on this instance, from writes on any instance: a writer NOTIFYs on a channel in its
 * transaction (delivered on commit, to every instance on the database), each process LISTENs once per channel and
 * fans the news out to its subscribers. Nothing here is state only one instance knows. Channels: sessions that
 * gained turns and the memory events at their turns (open replay pages, `/api/sessions/[id]/live`), proposals made or
 * decided (open inboxes), memory events that were decided (agents waiting on `GET /api/v1/memory-events/{id}?wait=`),
 * webhook deliveries to make.
 */
export const TURNS_CHANNEL = 'mnemoscope_turns';
/** Proposals made or decided: open inboxes (`/api/curation/live`). One key per project. */
export const INBOX_CHANNEL = 'mnemoscope_inbox';
/** Memory events that name a turn of a session were stored, moved or decided: open replay pages. Key: the session. */
export const TURN_EVENTS_CHANNEL = 'mnemoscope_turn_events';

/** A NOTIFY payload must stay under 8,000 bytes: a longer one says only "something of this project". */
const MAX_PAYLOAD = 7000;
/** More keys than this in one transaction are announced as one notice for the whole project. */
const MAX_NOTICES = 100;

/** Tells listeners of `channel` that these keys of the project changed; part of the writing transaction. */
export async function notify(tx: Tx, channel: string, projectId: string, keys: Iterable<string>) {
  const all = [...new Set(keys)];
  const project = JSON.stringify([projectId.slice(0, 200), null]);
  const payloads =
    all.length > MAX_NOTICES
      ? [project]
      : [
          ...new Set(
            all.map((k) => {
              const p = JSON.stringify([projectId, k]);
              return p.length <= MAX_PAYLOAD ? p : project;
            }),
          ),
        ];
  if (payloads.length)
    await tx.execute(
      sql`select pg_notify(${channel}, p) from jsonb_array_elements_text(${JSON.stringify(payloads)}::jsonb) p`,
    );
}

/** Tells open replay pages that these sessions gained turns. */
export function notifyTurns(tx: Tx, projectId: string, sessionIds: Iterable<string>) {
  return notify(tx, TURNS_CHANNEL, projectId, sessionIds);
}

/** Tells open replay pages that memory events naming turns of these sessions were stored, moved or decided. */
export function notifyTurnEvents(tx: Tx, projectId: string, sessionIds: Iterable<string>) {
  return notify(tx, TURN_EVENTS_CHANNEL, projectId, sessionIds);
}

/**
 * `notifyTurnEvents` for the sessions of these events that name a turn (the curator and reviewers decide events by id).
 * The ids go as one parameter, however many.
 */
export async function notifyTurnEventsOf(tx: Tx, projectId: string, eventIds: readonly string[]) {
  if (!eventIds.length) return;
  const rows = await tx.execute(sql`
    select distinct session_id from memory_events
     where project_id = ${projectId} and turn is not null
       and event_id in (select jsonb_array_elements_text(${JSON.stringify(eventIds)}::jsonb))`);
  await notifyTurnEvents(
    tx,
    projectId,
    rowsOf<{ session_id: string }>(rows).map((r) => r.session_id),
  );
}

/** Tells open inboxes that the project's proposals changed (made or decided). */
export function notifyInbox(tx: Tx, projectId: string) {
  return notify(tx, INBOX_CHANNEL, projectId, ['proposals']);
}

type Listener = () => void;

interface Hub {
  subs: Map<string, Set<Listener>>;
  started: Promise<unknown>;
}

// One LISTEN per channel and database handle in this process.
const hubs = new WeakMap<DbHandle, Map<string, Hub>>();
const subKey = (projectId: string, key: string) => `${projectId}\u0000${key}`;

function hubOf(handle: DbHandle, channel: string): Hub {
  let byChannel = hubs.get(handle);
  if (!byChannel) hubs.set(handle, (byChannel = new Map()));
  let hub = byChannel.get(channel);
  if (hub) return hub;
  const subs = new Map<string, Set<Listener>>();
  const dispatch = (payload: string) => {
    let msg: unknown;
    try {
      msg = JSON.parse(payload);
    } catch {
      return;
    }
    if (!Array.isArray(msg) || typeof msg[0] !== 'string') return;
    const [projectId, key] = msg as [string, string | null];
    if (typeof key === 'string') for (const fn of subs.get(subKey(projectId, key)) ?? []) fn();
    else for (const [k, set] of subs) if (k.startsWith(`${projectId}\u0000`)) for (const fn of set) fn();
  };
  // After a reconnect every subscriber looks again: what was sent while the connection was down is lost.
  const everyone = () => {
    for (const set of subs.values()) for (const fn of set) fn();
  };
  hub = { subs, started: handle.listen(channel, dispatch, everyone) };
  hub.started.catch(() => byChannel.delete(channel));
  byChannel.set(channel, hub);
  return hub;
}

/** Calls `fn` whenever `key` of the project may have changed on `channel`; resolves to the unsubscriber. */
export async function onNotice(
  handle: DbHandle,
  channel: string,
  projectId: string,
  key: string,
  fn: Listener,
): Promise<() => void> {
  const hub = hubOf(handle, channel);
  await hub.started;
  const k = subKey(projectId, key);
  let set = hub.subs.get(k);
  if (!set) hub.subs.set(k, (set = new Set()));
  set.add(fn);
  return () => {
    set.delete(fn);
    if (!set.size) hub.subs.delete(k);
  };
}

/** Calls `fn` whenever the session may have gained turns; resolves to the function that unsubscribes. */
export function onSessionTurns(handle: DbHandle, projectId: string, sessionId: string, fn: Listener) {
  return onNotice(handle, TURNS_CHANNEL, projectId, sessionId, fn);
}

/** Calls `fn` whenever the events at the session's turns may have changed; resolves to the unsubscriber. */
export function onTurnEvents(handle: DbHandle, projectId: string, sessionId: string, fn: Listener) {
  return onNotice(handle, TURN_EVENTS_CHANNEL, projectId, sessionId, fn);
}

/** Calls `fn` whenever the project's proposals may have changed; resolves to the function that unsubscribes. */
export function onInbox(handle: DbHandle, projectId: string, fn: Listener) {
  return onNotice(handle, INBOX_CHANNEL, projectId, 'proposals', fn);
}
