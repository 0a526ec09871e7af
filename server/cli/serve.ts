/**
 * The production server: Next's request handler inside a Node HTTP server we own, so that every request gets an
 * id (`x-request-id`, taken from the proxy when it sends a sane one) and one JSON log line, and SIGTERM stops the
 * instance gracefully: readiness turns 503, no new connections are accepted, requests in flight finish (at most
 * MNEMOSCOPE_SHUTDOWN_MS), background work ends and the database is closed (each within as long again, 5 s at least),
 * and the process exits 0 (1 when that did not end in time). `npm start` bundles it after building (serve-bundle.ts)
 * and runs the bundle with plain `node` (HOST, PORT and the rest from the environment; see server/env.ts).
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { env, type Env } from '@/server/env';
import { log, requestContext, type RequestContext } from '@/server/log';
import { beginShutdown, finishWorkWithin } from '@/server/lifecycle';

(process.env as Record<string, string>).NODE_ENV = 'production';
process.env.NEXT_TELEMETRY_DISABLED = '1';

let config: Env;
try {
  config = env();
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}

const { default: next } = await import('next');
const app = next({ dev: false, dir: process.cwd(), hostname: config.HOST, port: config.PORT });
const handle = app.getRequestHandler();
await app.prepare();

/** Asset requests are not worth a line each; pages and API calls are. */
const QUIET = /^\/(_next\/|models\/|ort\/|favicon\.ico|icon\.svg)/;
const ID = /^[A-Za-z0-9._:-]{1,128}$/;
let inFlight = 0;
let stopping = false;

const server = http.createServer((req, res) => {
  const given = req.headers['x-request-id'];
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ctx: RequestContext = {
    requestId: typeof given === 'string' && ID.test(given) ? given : randomUUID(),
    // Behind a proxy every request comes from the proxy: it appends the address it saw to X-Forwarded-For.
    client: (config.MNEMOSCOPE_TRUST_PROXY === '1' ? forwarded.at(-1) : undefined) ?? req.socket.remoteAddress,
  };
  res.setHeader('x-request-id', ctx.requestId);
  if (stopping) res.setHeader('connection', 'close');
  const t0 = performance.now();
  const path = (req.url ?? '/').split('?')[0]!;
  inFlight++;
  res.on('close', () => {
    inFlight--;
    // Keep-alive connections of requests that were running when the shutdown began close once they are idle.
    if (stopping) server.closeIdleConnections();
    if (QUIET.test(path)) return;
    log.info(
      {
        requestId: ctx.requestId,
        method: req.method,
        route: path,
        status: res.statusCode,
        ms: Math.round(performance.now() - t0),
        ...(ctx.project ? { project: ctx.project } : {}),
        ...(ctx.records ? { records: ctx.records } : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      'request',
    );
  });
  // Next's router answers a path with malformed percent-encoding with a bare 500: say what is wrong, for every
  // route (proxy.ts does the same under `next dev`).
  try {
    decodeURIComponent(path);
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
    res.end('Bad request: the path has malformed percent-encoding\n');
    return;
  }
  requestContext.run(ctx, () => {
    handle(req, res).catch((e: unknown) => {
      log.error({ requestId: ctx.requestId, route: path, err: (e as Error).message }, 'request failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
});
// Longer than the usual proxy keep-alive (nginx 60 s), so the proxy closes idle connections first.
server.keepAliveTimeout = 65_000;
server.listen(config.PORT, config.HOST);
await once(server, 'listening');
log.info({ event: 'listening', url: `http://${config.HOST}:${config.PORT}`, pid: process.pid }, 'listening');

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const t0 = performance.now();
  const budget = config.MNEMOSCOPE_SHUTDOWN_MS;
  beginShutdown();
  const closed = once(server, 'close');
  server.close();
  server.closeIdleConnections();
  // Written once the listener is closed: whoever reads it can count on no new connection being taken.
  log.info({ event: 'shutdown', signal, inFlight }, 'shutting down');
  const timer = setTimeout(() => {
    log.warn({ event: 'shutdown', inFlight }, `requests still running after ${budget} ms: closing them`);
    server.closeAllConnections();
  }, budget);
  await closed;
  clearTimeout(timer);
  // A sweep that has taken waiting spans writes them (or puts them back) before the database closes; within the budget
  // again, so that a database that no longer answers (its data directory gone, its server unreachable) cannot hold
  // the process for ever: what is not written then is what a crash would leave, and the exit code says so.
  const workBudget = Math.max(budget, 5_000);
  const done = await finishWorkWithin(workBudget, async () => {
    const db = (globalThis as { __mnemoscopeDb?: Promise<{ close: () => Promise<void> }> }).__mnemoscopeDb;
    if (db) await (await db.catch(() => null))?.close();
  });
  if (!done) log.error({ event: 'shutdown' }, `background work or the database busy after ${workBudget} ms: exiting`);
  log.info({ event: 'stopped', ms: Math.round(performance.now() - t0) }, 'stopped');
  process.exit(done ? 0 : 1);
}
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => void shutdown(sig));
