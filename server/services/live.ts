import { sql } from 'drizzle-orm';
import type { DbHandle, Tx } from '@/server/db';

/**
 * Sessions that gained turns, pushed to open replay pages: ingest NOTIFYs on one channel in the transaction that
 * writes the turns (delivered on commit, to every instance on the database), each process LISTENs once and fans
 * the news out to its subscribers (`/api/sessions/[id]/live`). Nothing here is state only one instance knows:
 * a page connected to any instance hears of turns written through any other.
 */
export const TURNS_CHANNEL = 'mnemoscope_turns';

/** A NOTIFY payload must stay under 8,000 bytes: a longer one says only "a session of this project". */
const MAX_PAYLOAD = 7000;

/** Tells listeners that these sessions gained turns; part of the writing transaction (sent when it commits). */
export async function notifyTurns(tx: Tx, projectId: string, sessionIds: Iterable<string>) {
  const payloads = [
    ...new Set(
      [...sessionIds].map((id) => {
        const p = JSON.stringify([projectId, id]);
        return p.length <= MAX_PAYLOAD ? p : JSON.stringify([projectId.slice(0, 200), null]);
      }),
    ),
  ];
  if (payloads.length)
    await tx.execute(
      sql`select pg_notify(${TURNS_CHANNEL}, p) from jsonb_array_elements_text(${JSON.stringify(payloads)}::jsonb) p`,
    );
}

type Listener = () => void;

interface Hub {
  subs: Map<string, Set<Listener>>;
  started: Promise<unknown>;
}

// One LISTEN per database handle in this process.
const hubs = new WeakMap<DbHandle, Hub>();
const key = (projectId: string, sessionId: string) => `${projectId}\u0000${sessionId}`;

function hubOf(handle: DbHandle): Hub {
  let hub = hubs.get(handle);
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
    const [projectId, sessionId] = msg as [string, string | null];
    if (typeof sessionId === 'string') for (const fn of subs.get(key(projectId, sessionId)) ?? []) fn();
    else for (const [k, set] of subs) if (k.startsWith(`${projectId}\u0000`)) for (const fn of set) fn();
  };
  // After a reconnect every subscriber checks its session: what was sent while the connection was down is lost.
  const everyone = () => {
    for (const set of subs.values()) for (const fn of set) fn();
  };
  hub = { subs, started: handle.listen(TURNS_CHANNEL, dispatch, everyone) };
  hub.started.catch(() => hubs.delete(handle));
  hubs.set(handle, hub);
  return hub;
}

/** Calls `fn` whenever the session may have gained turns; resolves to the function that unsubscribes. */
export async function onSessionTurns(
  handle: DbHandle,
  projectId: string,
  sessionId: string,
  fn: Listener,
): Promise<() => void> {
  const hub = hubOf(handle);
  await hub.started;
  const k = key(projectId, sessionId);
  let set = hub.subs.get(k);
  if (!set) hub.subs.set(k, (set = new Set()));
  set.add(fn);
  return () => {
    set.delete(fn);
    if (!set.size) hub.subs.delete(k);
  };
}
