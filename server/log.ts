import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

/**
 * One JSON line per API request and per background job, on stdout (pino). Lines carry ids, routes, statuses,
 * durations, projects and counts: never memory content, request bodies or keys.
 */
/**
 * Why something failed, as the driver says it (its first line). The query layer's own message quotes the statement
 * and its parameters (memory text, vectors): no log line or answer carries those.
 */
export function errorReason(err: unknown): string {
  const e = err as { cause?: { message?: unknown }; message?: unknown } | null | undefined;
  return String(e?.cause?.message ?? e?.message ?? err).split('\n')[0]!;
}

/**
 * A log line's `err` (an Error or a message): its type, the reason errorReason gives, the driver's code and the
 * stack's frames, never the message the stack starts with (a failed query's holds its parameters).
 */
export function serializeErr(err: unknown): unknown {
  if (!err || typeof err !== 'object') return errorReason(err);
  const e = err as { name?: unknown; code?: unknown; stack?: unknown; cause?: { code?: unknown } };
  return {
    type: e.name,
    message: errorReason(err),
    code: e.cause?.code ?? e.code,
    stack:
      typeof e.stack === 'string'
        ? e.stack
            .split('\n')
            .filter((l) => /^\s+at /.test(l))
            .join('\n')
        : undefined,
  };
}

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
