import { ready } from '@/server/bootstrap';
import { stoppingSignal } from '@/server/lifecycle';
import { jsonError, withDomainErrors } from '@/server/http/respond';
import { onInbox, onSessionTurns, onTurnEvents } from '@/server/services/live';
import { sessionStamp } from '@/server/services/session-digest';
import { createContext } from '@/server/trpc/init';

/** A comment line now and then keeps proxies from closing an idle stream; a few bytes per 25 s. */
const HEARTBEAT_MS = 25_000;
/** Turns arrive in bursts: the stamp is read once per burst, not once per batch. */
const SETTLE_MS = 200;

/**
 * GET /api/sessions/{id}/live (app/api/sessions/[id]/live/route.ts) — Server-Sent Events for an open replay
 * page: `event: stamp` with the session's stamp (as `sessions.stamp`) at once and whenever it changes, and
 * `event: events` whenever memory events naming its turns were stored, moved or decided, pushed from PostgreSQL
 * LISTEN/NOTIFY (any instance's writes), nothing in between but a heartbeat comment. The page then fetches the digest
 * and the new turns, or the events of the turns it holds.
 */
export function sessionLiveGet(req: Request, id: string): Promise<Response> {
  return withDomainErrors(() => live(req, id));
}

async function live(req: Request, id: string): Promise<Response> {
  const ctx = await createContext({ req });
  if (ctx.role === 'none') return jsonError(401, 'sign in first');
  let stamp = await sessionStamp(ctx.db, ctx.projectId, id);
  const handle = await ready();
  // Events changed since the last news (a reconnect of the listener says so too: notices may have been lost).
  let events = 0;
  let told = 0;
  return noticeStream(req, {
    // Events have no stamp to compare: each connection says they may have changed (while no stream listened: the page
    // opening, a reconnect after an instance stopped, a return to the page), and the page fetches them again.
    hello: `event: stamp\ndata: ${stamp}\n\nevent: events\ndata: 0\n\n`,
    subscribe: async (fn) => {
      const subs = await Promise.allSettled([
        onSessionTurns(handle, ctx.projectId, id, fn),
        onTurnEvents(handle, ctx.projectId, id, () => {
          events++;
          fn();
        }),
      ]);
      const offs = subs.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      const off = () => offs.forEach((f) => f());
      const failed = subs.find((s) => s.status === 'rejected');
      if (failed) {
        off();
        throw failed.reason;
      }
      return off;
    },
    news: async () => {
      // The stamp first: should reading it fail, the events' news is not counted as told.
      const now = await sessionStamp(ctx.db, ctx.projectId, id);
      let out = '';
      if (events !== told) out += `event: events\ndata: ${(told = events)}\n\n`;
      if (now !== stamp) out += `event: stamp\ndata: ${(stamp = now)}\n\n`;
      return out || null;
    },
  });
}

/**
 * GET /api/curation/live (app/api/curation/live/route.ts) — Server-Sent Events for an open inbox: `event: inbox`
 * whenever proposals of the project are made or decided, on any instance (PostgreSQL LISTEN/NOTIFY), so that two
 * reviewers see each other's decisions. The page then fetches its lists again.
 */
export function inboxLiveGet(req: Request): Promise<Response> {
  return withDomainErrors(async () => {
    const ctx = await createContext({ req });
    if (ctx.role === 'none') return jsonError(401, 'sign in first');
    const handle = await ready();
    let n = 0;
    return noticeStream(req, {
      hello: null,
      subscribe: (fn) => onInbox(handle, ctx.projectId, fn),
      news: async () => `event: inbox\ndata: ${++n}\n\n`,
    });
  });
}

/**
 * A stream of news: `hello` at once, then whatever `news` says after each burst of notices (read once per burst),
 * nothing in between but a heartbeat; it ends when the client goes or this instance stops.
 */
function noticeStream(
  req: Request,
  o: {
    hello: string | null;
    subscribe: (fn: () => void) => Promise<() => void>;
    news: () => Promise<string | null>;
  },
): Response {
  const enc = new TextEncoder();
  // Set by a client that goes away, perhaps before `start` has subscribed: then it cleans up once it has.
  let gone = false;
  let cleanup = () => {
    gone = true;
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(enc.encode(text));
        } catch {
          cleanup();
        }
      };
      send(`retry: 5000\n${o.hello ?? ':\n\n'}`);
      let timer: ReturnType<typeof setTimeout> | null = null;
      const check = () => {
        timer = null;
        o.news()
          .then((text) => text && send(text))
          .catch(() => undefined);
      };
      const unsubscribe = await o.subscribe(() => {
        timer ??= setTimeout(check, SETTLE_MS);
      });
      const beat = setInterval(() => send(':\n\n'), HEARTBEAT_MS);
      const stopping = stoppingSignal();
      cleanup = () => {
        if (closed) return;
        closed = true;
        // The instance's signal lives as long as the process: its listener goes with the stream.
        stopping.removeEventListener('abort', cleanup);
        req.signal.removeEventListener('abort', cleanup);
        unsubscribe();
        clearInterval(beat);
        if (timer) clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      // Ended when the client goes, or when this instance stops (the page reconnects, through the proxy to another).
      stopping.addEventListener('abort', cleanup, { once: true });
      req.signal.addEventListener('abort', cleanup, { once: true });
      if (gone || req.signal.aborted || stopping.aborted) return cleanup();
      // News between the first answer and the subscription is not missed.
      if (o.hello) check();
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
}
