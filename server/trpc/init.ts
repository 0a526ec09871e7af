import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { ready } from '@/server/bootstrap';
import type { Db } from '@/server/db';
import { DEFAULT_PROJECT } from '@/server/services/projects';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  UnavailableError,
} from '@/server/services/errors';
import { env } from '@/server/env';
import { currentRequestId, errorReason, log } from '@/server/log';
import { PROJECT_COOKIE, SESSION_COOKIE, principal, type Principal } from '@/server/services/auth';

export interface Context {
  db: Db;
  driver: 'pglite' | 'postgres';
  location: string;
  /** The project every query is scoped to ('' when nobody is signed in: nothing matches). */
  projectId: string;
  actor: string;
  /**
   * viewer reads; reviewer also decides proposals and imports; admin also manages keys, members and policy. 'none': not
   * signed in.
   */
  role: Role | 'none';
  /** 'local': single-user on loopback, no sign-in. 'users': people sign in. */
  mode?: 'local' | 'users';
  user?: Principal | null;
}

export type Role = 'viewer' | 'reviewer' | 'admin';

function cookie(header: string | null | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

/**
 * The caller: in local single-user mode the local user, admin of the default project; in users mode
 * whoever the session cookie names, in the project they chose (if a member) — else nobody.
 */
export async function createContext(opts?: { req?: Request; cookieHeader?: string | null }): Promise<Context> {
  const h = await ready();
  const base = { db: h.db, driver: h.driver, location: h.location };
  if (env().MNEMOSCOPE_AUTH === 'local')
    return { ...base, projectId: DEFAULT_PROJECT, actor: 'local-user', role: 'admin', mode: 'local', user: null };
  const header = opts?.req?.headers.get('cookie') ?? opts?.cookieHeader ?? null;
  const p = await principal(h.db, cookie(header, SESSION_COOKIE), cookie(header, PROJECT_COOKIE));
  if (!p) return { ...base, projectId: '', actor: 'anonymous', role: 'none', mode: 'users', user: null };
  return { ...base, projectId: p.projectId, actor: p.username, role: p.role, mode: 'users', user: p };
}

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    // No stack in an answer (tRPC adds one outside production): its first line is the error's message; the stack is in
    // the server's log (logUnforeseen).
    const { stack: _, ...data } = shape.data;
    return {
      ...shape,
      // Input that fails its schema: each problem as "field: reason", not the issues as JSON.
      ...(error.cause instanceof ZodError
        ? {
            message: error.cause.issues
              .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
              .join('; '),
          }
        : {}),
      // A failure nobody foresaw (a query that failed): the driver's reason, not the query layer's message, which
      // quotes the statement and its values.
      ...(shape.data.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof DomainError)
        ? { message: errorReason(error.cause ?? error) }
        : {}),
      data: {
        ...data,
        zodError: error.cause instanceof ZodError ? error.cause.flatten() : null,
        // The id of the request in the server's log (also in the x-request-id answer header).
        requestId: currentRequestId() ?? null,
      },
    };
  },
});

/** Services throw domain errors; they become tRPC errors here, in one place. */
const mapErrors = t.middleware(async ({ next }) => {
  const res = await next();
  if (!res.ok && res.error.cause instanceof DomainError) {
    const cause = res.error.cause;
    const code =
      cause instanceof NotFoundError
        ? 'NOT_FOUND'
        : cause instanceof InvalidInputError
          ? 'BAD_REQUEST'
          : cause instanceof ConflictError
            ? 'CONFLICT'
            : cause instanceof ForbiddenError
              ? 'FORBIDDEN'
              : cause instanceof UnavailableError
                ? 'SERVICE_UNAVAILABLE'
                : 'INTERNAL_SERVER_ERROR';
    throw new TRPCError({ code, message: cause.message, cause });
  }
  return res;
});

/**
 * The tRPC handler's `onError`: a failure nobody foresaw is logged (reason, code, stack frames; see serializeErr) with
 * the procedure's path, under the request's id; the answer's message and `requestId` point there.
 */
export function logUnforeseen({ error, path }: { error: TRPCError; path?: string }) {
  if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof DomainError))
    log.error({ procedure: path ?? null, err: error.cause ?? error }, 'procedure failed');
}

/** Where in an input a string holds a NUL, as a field path ("q", "filters.0.text"), if anywhere. */
function nulAt(value: unknown, at: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? at.join('.') || 'input' : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const found = nulAt(v, [...at, k], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold a NUL character: an input with one (a `%00` in an address) is refused by its field
 * here, before any procedure's query fails on it.
 */
const refuseNul = t.middleware(async ({ getRawInput, next }) => {
  const field = nulAt(await getRawInput());
  if (field !== null)
    throw new TRPCError({ code: 'BAD_REQUEST', message: `${field}: must not contain a NUL character` });
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

const RANK: Record<Role | 'none', number> = { none: -1, viewer: 0, reviewer: 1, admin: 2 };

/** Every procedure checks the caller's role, here, once: anonymous callers get UNAUTHORIZED, lower roles FORBIDDEN. */
function requireRole(min: Role) {
  return t.middleware(({ ctx, next }) => {
    if (ctx.role === 'none') throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first' });
    if (RANK[ctx.role] < RANK[min])
      throw new TRPCError({ code: 'FORBIDDEN', message: `this needs the ${min} role; you are a ${ctx.role}` });
    return next();
  });
}

/** Reads: any member of the project. */
export const procedure = t.procedure.use(mapErrors).use(requireRole('viewer')).use(refuseNul);
/** Decisions on memory and imports. */
export const reviewerProcedure = t.procedure.use(mapErrors).use(requireRole('reviewer')).use(refuseNul);
/** Keys, members and policy. */
export const adminProcedure = t.procedure.use(mapErrors).use(requireRole('admin')).use(refuseNul);
/**
 * Imports of records (Settings → Import): each record is checked alone by the ingest contract, which refuses one with
 * a NUL naming its field and keeps the rest, as the HTTP ingest does; the whole batch is not refused for it.
 */
export const recordsProcedure = t.procedure.use(mapErrors).use(requireRole('reviewer'));
