import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

/** A failed query's parameters, as the query layer appends them to its message (and so to the stack). */
const PARAMS = /\nparams: [\s\S]*$/;

/** The first of these that is a string with something in it. */
const said = (...xs: unknown[]) => xs.find((x): x is string => typeof x === 'string' && x.trim() !== '');

/**
 * Why something failed, with none of the values a failed query was given. For a query the query layer refused
 * (drizzle's error carries `params`, its message the statement and every value, memory text included): the driver's
 * reason, its first line. For anything else: its message, and its cause's ("fetch failed: connect ECONNREFUSED …"),
 * any appended parameters cut off; an empty message falls back to the code or the name.
 */
export function errorReason(err: unknown): string {
  if (!err || typeof err !== 'object') return String(err).replace(PARAMS, '');
  const e = err as {
    message?: unknown;
    code?: unknown;
    name?: unknown;
    params?: unknown;
    cause?: { message?: unknown };
  };
  const cause = said(e.cause?.message);
  if ('params' in e) return (cause ?? said(e.message) ?? 'a query failed').replace(PARAMS, '').split('\n')[0]!;
  const message = said(e.message)?.replace(PARAMS, '');
  const text = message && cause && !message.includes(cause) ? `${message}: ${cause}` : (message ?? cause);
  return (text ?? said(e.code, e.name) ?? String(err)).replace(PARAMS, '');
}

/**
 * A log line's `err` (an Error or a message): its type, the reason errorReason gives, the driver's code and the
 * stack's frames. The stack starts with the error's message, which for a failed query holds its parameters (and a
 * parameter may itself hold lines that look like frames): only the frames after that message are kept.
 */
export function serializeErr(err: unknown): unknown {
  if (!err || typeof err !== 'object') return errorReason(err);
  const e = err as { name?: unknown; code?: unknown; stack?: unknown; message?: unknown; cause?: { code?: unknown } };
  let stack: string | undefined;
  if (typeof e.stack === 'string') {
    const message = typeof e.message === 'string' ? e.message : '';
    const at = message ? e.stack.indexOf(message) : -1;
    // The header is "<name>: <message>" (or the name alone); anything else is not a stack to trust.
    const frames = at >= 0 && at < 200 ? e.stack.slice(at + message.length) : message ? null : e.stack;
    stack = frames
      ?.split('\n')
      .filter((l) => /^\s+at /.test(l))
      .join('\n');
  }
  return { type: e.name, message: errorReason(err), code: e.cause?.code ?? e.code, stack };
}

/**
 * One JSON line per API request and per background job, on stdout (pino). Lines carry ids, routes, statuses,
 * durations, projects and counts: never memory content, request bodies or keys.
 */
export const log = pino({
  // Tests keep their output for failures: warnings and errors only, unless MNEMOSCOPE_LOG_LEVEL says otherwise.
  level: process.env.MNEMOSCOPE_LOG_LEVEL ?? (process.env.VITEST ? 'warn' : 'info'),
  serializers: { err: serializeErr },
  base: { service: 'mnemoscope' },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});

/** What a request's log line says beyond the HTTP basics; handlers fill it in with `annotate`. */
export interface RequestContext {
  requestId: string;
  /** The client's address: the socket's, or with MNEMOSCOPE_TRUST_PROXY=1 the one the proxy saw. */
  client?: string;
  project?: string;
  records?: Record<string, number>;
}

// On globalThis: the server (server/cli/serve.ts) and the app's bundled route handlers load this module separately.
const g = globalThis as unknown as { __mnemoscopeRequests?: AsyncLocalStorage<RequestContext> };
export const requestContext = (g.__mnemoscopeRequests ??= new AsyncLocalStorage<RequestContext>());

/** Adds to the current request's log line (a no-op outside a request). */
export function annotate(fields: Omit<Partial<RequestContext>, 'requestId'>): void {
  const c = requestContext.getStore();
  if (c) Object.assign(c, fields);
}

/** The current request's client address (see RequestContext.client), if known. */
export function currentClient(): string | undefined {
  return requestContext.getStore()?.client;
}

/** The current request's id (also in the `x-request-id` answer header), if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** Runs a background job with one log line at its end: name, duration, outcome and the counts it returns. */
export async function job<T extends Record<string, unknown> | void>(name: string, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    const out = await f();
    const counts = Object.fromEntries(
      Object.entries(out ?? {}).filter(([k, v]) => typeof v === 'number' || k === 'project'),
    );
    log.info({ job: name, ms: Math.round(performance.now() - t0), ok: true, ...counts }, `job ${name}`);
    return out;
  } catch (e) {
    log.error(
      { job: name, ms: Math.round(performance.now() - t0), ok: false, err: errorReason(e).slice(0, 300) },
      `job ${name}`,
    );
    throw e;
  }
}
