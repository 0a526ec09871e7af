import { NextResponse } from 'next/server';
import { ready } from '@/server/bootstrap';
import { verifyKey } from '@/server/services/api-keys';
import type { Db } from '@/server/db';
import { env } from '@/server/env';
import { RateLimiter } from '@/lib/limits/rate';
import { ConflictError, DomainError, ForbiddenError, NotFoundError } from '@/server/services/errors';

export function jsonError(status: number, error: string, extra: Record<string, unknown> = {}) {
  return NextResponse.json({ error, ...extra }, { status });
}

/** The one place a domain error becomes an HTTP status (tRPC has its own in server/trpc/init.ts). */
export function domainErrorStatus(e: DomainError): number {
  if (e instanceof NotFoundError) return 404;
  if (e instanceof ConflictError) return 409;
  if (e instanceof ForbiddenError) return 403;
  return 400;
}

/** Runs a handler; a domain error it throws becomes a JSON error with its status, anything else is rethrown. */
export async function withDomainErrors(f: () => Promise<Response>): Promise<Response> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof DomainError) return jsonError(domainErrorStatus(e), e.message);
    throw e;
  }
}

export type Authed = { db: Db; projectId: string; actor: string; keyId: string };

// One limiter per process, kept on globalThis like the database.
const g = globalThis as unknown as { __mnemoscopeRate?: { limit: number; limiter: RateLimiter } };

/** Per-key rate limit: null when the request may pass, else a 429 with Retry-After. */
export function rateLimit(keyId: string): NextResponse | null {
  const limit = env().MNEMOSCOPE_RATE_LIMIT;
  if (g.__mnemoscopeRate?.limit !== limit) g.__mnemoscopeRate = { limit, limiter: new RateLimiter(limit) };
  const r = g.__mnemoscopeRate.limiter.take(keyId);
  if (r.ok) return null;
  const res = jsonError(
    429,
    `rate limit of ${limit} requests a minute for this API key exceeded; retry after ${r.retryAfterSeconds} s`,
    { retryAfterSeconds: r.retryAfterSeconds },
  );
  res.headers.set('Retry-After', String(r.retryAfterSeconds));
  return res;
}

/** Checks `Authorization: Bearer <key>` and resolves the key's project. */
export async function authenticate(req: Request): Promise<Authed | NextResponse> {
  const { db } = await ready();
  const header = req.headers.get('authorization') ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m)
    return jsonError(
      401,
      'missing API key: send "Authorization: Bearer <key>" (create keys in Settings, or set MNEMOSCOPE_API_KEY)',
    );
  const key = await verifyKey(db, m[1]!);
  if (!key) return jsonError(401, 'unknown or revoked API key');
  return { db, projectId: key.projectId, actor: `api_key:${key.keyId}`, keyId: key.keyId };
}

/** Reads a request body, refusing more than `limit` bytes without buffering them all. */
export async function readBody(req: Request, limit: number): Promise<Uint8Array | NextResponse> {
  const tooLarge = () =>
    jsonError(413, `body is larger than the limit of ${limit} bytes; split it into smaller batches`, {
      limitBytes: limit,
    });
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return tooLarge();
    }
    parts.push(value);
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
  const limited = rateLimit(auth.keyId);
  if (limited) return limited;
  const body = await readBody(req, limit);
  if (body instanceof NextResponse) return body;
  return { auth, body };
}
