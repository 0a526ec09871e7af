import { NextResponse } from 'next/server';
import { ready } from '@/server/bootstrap';
import { verifyKey, type ApiKeyRole } from '@/server/services/api-keys';
import type { Db } from '@/server/db';
import { env } from '@/server/env';
import { annotate, currentRequestId, log } from '@/server/log';
import { takeToken, type Take } from '@/server/services/limits';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  isInfrastructureError,
  NotFoundError,
  UnavailableError,
} from '@/server/services/errors';

/** A JSON error answer; it carries the request id (also in `x-request-id`) so a user can quote it from a log. */
export function jsonError(status: number, error: string, extra: Record<string, unknown> = {}) {
  const requestId = currentRequestId();
  return NextResponse.json({ error, ...extra, ...(requestId ? { requestId } : {}) }, { status });
}

/** An /api path no route serves, as JSON; OpenTelemetry's metrics and logs are named as what is not taken. */
export function notFoundApi(req: Request) {
  const { pathname } = new URL(req.url);
  if (/^\/api\/v1\/otel(\/v1\/[^/]+)?\/?$/.test(pathname))
    return jsonError(
      404,
      `${req.method} ${pathname}: Mnemoscope takes OpenTelemetry traces only, at POST /api/v1/otel/v1/traces ` +
        '(OTEL_EXPORTER_OTLP_ENDPOINT=<server>/api/v1/otel with the metrics and logs exporters off, or ' +
        'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=<server>/api/v1/otel/v1/traces)',
    );
  return jsonError(404, `no such API path: ${req.method} ${pathname} (the API: GET /api/v1/openapi.json)`);
}

/** A method a route does not take, with the ones it does (`Allow`). */
export function methodNotAllowed(allow: string) {
  return (req: Request) => {
    const res = jsonError(405, `${req.method} is not taken here: ${allow} only`);
    res.headers.set('allow', allow);
    return res;
  };
}

/** The one place a domain error becomes an HTTP status (tRPC has its own in server/trpc/init.ts). */
export function domainErrorStatus(e: DomainError): number {
  if (e instanceof NotFoundError) return 404;
  if (e instanceof ConflictError) return 409;
  if (e instanceof ForbiddenError) return 403;
  if (e instanceof UnavailableError) return 503;
  return 400;
}

/**
 * Runs a handler; a domain error it throws becomes a JSON error with its status. A database that cannot be reached (or
 * written: a full disk) is a 503 with Retry-After, so clients retry; anything else a 500 that names the request, whose
 * id finds the error in the server's log. Never an empty answer.
 */
export async function withDomainErrors(f: () => Promise<Response>): Promise<Response> {
  try {
    return await f();
  } catch (e) {
    return errorAnswer(e);
  }
}

/** The answer to an error a handler threw (see `withDomainErrors`). */
function errorAnswer(e: unknown): NextResponse {
  if (e instanceof DomainError) {
    const res = jsonError(domainErrorStatus(e), e.message);
    if (res.status === 503) res.headers.set('Retry-After', '5');
    return res;
  }
  log.error({ err: e }, 'request failed');
  if (isInfrastructureError(e)) {
    const res = jsonError(503, 'the database cannot be reached or written now; retry later');
    res.headers.set('Retry-After', '5');
    return res;
  }
  return jsonError(500, 'internal error: the server log has it under this request id');
}

export type Authed = { db: Db; projectId: string; actor: string; keyId: string; role: ApiKeyRole };

/** Per-key rate limit, counted in the database for all instances: null when the request may pass, else a 429. */
export async function rateLimit(db: Db, keyId: string): Promise<NextResponse | null> {
  const limit = env().MNEMOSCOPE_RATE_LIMIT;
  let r: Take;
  try {
    r = await takeToken(db, `ingest:${keyId}`, limit);
  } catch (e) {
    return errorAnswer(e);
  }
  if (r.ok) return null;
  const res = jsonError(
    429,
    `rate limit of ${limit} requests a minute for this API key exceeded; retry after ${r.retryAfterSeconds} s`,
    { retryAfterSeconds: r.retryAfterSeconds },
  );
  res.headers.set('Retry-After', String(r.retryAfterSeconds));
  return res;
}

/**
 * A 401 that says how to authenticate (RFC 6750): clients such as the MCP Inspector read `WWW-Authenticate` to know
 * that a bearer token is wanted, rather than starting an OAuth flow.
 */
function unauthorized(message: string, error?: 'invalid_token') {
  const res = jsonError(401, message);
  res.headers.set(
    'WWW-Authenticate',
    `Bearer realm="mnemoscope"${error ? `, error="${error}", error_description="${message}"` : ''}`,
  );
  return res;
}

/**
 * Checks `Authorization: Bearer <key>` and resolves the key's project. A database that cannot be reached to check it is
 * a JSON 503 like any handler's (routes call this before `withDomainErrors`), never an empty 500.
 */
export async function authenticate(req: Request): Promise<Authed | NextResponse> {
  try {
    return await checkKey(req);
  } catch (e) {
    return errorAnswer(e);
  }
}

async function checkKey(req: Request): Promise<Authed | NextResponse> {
  const { db } = await ready();
  const header = req.headers.get('authorization') ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m) {
    const how = 'send "Authorization: Bearer <key>" (create keys in Settings, or set MNEMOSCOPE_API_KEY)';
    // A header that holds something is not a missing key: say what is wrong with it. Nothing of it is echoed but a
    // scheme everyone knows (the first word may be the key itself, or part of it).
    const scheme = /^([\w-]+)\s+\S/.exec(header.trim())?.[1];
    const known = scheme && /^(basic|digest|token|apikey|api-key|negotiate|ntlm|dpop|hoba|mutual)$/i.test(scheme);
    return unauthorized(
      !header.trim()
        ? `missing API key: ${how}`
        : /^bearer$/i.test(header.trim())
          ? `no key after "Bearer": ${how}`
          : known
            ? `the Authorization scheme must be Bearer, not ${scheme}: ${how}`
            : `the Authorization header must be "Bearer " then the key: ${how}`,
    );
  }
  const key = await verifyKey(db, m[1]!);
  if (!key) return unauthorized('unknown or revoked API key', 'invalid_token');
  annotate({ project: key.projectId });
  return { db, projectId: key.projectId, actor: `api_key:${key.keyId}`, keyId: key.keyId, role: key.role };
}

/** Whole-project export and import read or replace everything a project holds: admin keys only. */
export function requireAdminKey(auth: Authed, what: string): NextResponse | null {
  if (auth.role === 'admin') return null;
  return jsonError(
    403,
    `${what} needs an API key with the admin role; this key's role is ${auth.role} ` +
      `(an admin creates one in Settings → API keys, or uses the deployment's MNEMOSCOPE_API_KEY)`,
  );
}

/**
 * Reads a request body, refusing more than `limit` bytes without buffering them all. `Content-Encoding: gzip` is
 * accepted on every route and inflated as it streams in; the limit applies to the inflated size, so a gzip bomb
 * is refused after `limit` bytes of output, never inflated whole.
 */
export async function readBody(req: Request, limit: number): Promise<Uint8Array | NextResponse> {
  const encoding = (req.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip')
    return jsonError(415, `Content-Encoding ${JSON.stringify(encoding)} is not accepted: send the body plain or gzip`);
  const gzip = encoding !== 'identity';
  const tooLarge = () =>
    jsonError(
      413,
      `body is larger than the limit of ${limit} bytes${gzip ? ' once inflated' : ''}; split it into smaller batches`,
      { limitBytes: limit },
    );
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return tooLarge();
  if (!req.body) return new Uint8Array();
  const stream = gzip ? req.body.pipeThrough(new DecompressionStream('gzip')) : req.body;
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return tooLarge();
      }
      parts.push(value);
    }
  } catch (e) {
    if (!gzip) throw e;
    return jsonError(400, `body is not valid gzip: ${(e as Error).message}`);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out;
}

/** Authenticates, applies the key's rate limit and reads the body within the limit: the start of every keyed write. */
export async function authedBody(
  req: Request,
  limit: number,
): Promise<{ auth: Authed; body: Uint8Array } | NextResponse> {
  const auth = await authenticate(req);
  if (auth instanceof NextResponse) return auth;
  const limited = await rateLimit(auth.db, auth.keyId);
  if (limited) return limited;
  const body = await readBody(req, limit);
  if (body instanceof NextResponse) return body;
  return { auth, body };
}
