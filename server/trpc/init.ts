import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { ready } from '@/server/bootstrap';
import type { Db } from '@/server/db';
import { DEFAULT_PROJECT } from '@/server/services/projects';
import { ConflictError, DomainError, ForbiddenError, InvalidInputError, NotFoundError } from '@/server/services/errors';

export interface Context {
  db: Db;
  driver: 'pglite' | 'postgres';
  location: string;
  projectId: string;
  actor: string;
  /** viewer reads; reviewer also decides proposals and deprecates entries; admin also changes policy. */
  role: Role;
}

export type Role = 'viewer' | 'reviewer' | 'admin';

/** Local single-user mode: the UI works on the default project. Access control builds on this context. */
export async function createContext(): Promise<Context> {
  const h = await ready();
  return { db: h.db, driver: h.driver, location: h.location, projectId: DEFAULT_PROJECT, actor: 'local-user', role: 'admin' };
}

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    return { ...shape, data: { ...shape.data, zodError: error.cause instanceof ZodError ? error.cause.flatten() : null } };
  },
});

/** Services throw domain errors; they become tRPC errors here, in one place. */
const mapErrors = t.middleware(async ({ next }) => {
  const res = await next();
  if (!res.ok && res.error.cause instanceof DomainError) {
    const cause = res.error.cause;
    const code =
      cause instanceof NotFoundError ? 'NOT_FOUND' : cause instanceof InvalidInputError ? 'BAD_REQUEST' : cause instanceof ConflictError ? 'CONFLICT' : cause instanceof ForbiddenError ? 'FORBIDDEN' : 'INTERNAL_SERVER_ERROR';
    throw new TRPCError({ code, message: cause.message, cause });
  }
  return res;
});

export const router = t.router;
export const procedure = t.procedure.use(mapErrors);

const RANK: Record<Role, number> = { viewer: 0, reviewer: 1, admin: 2 };

/** Procedures that change memory or policy check the caller's role. */
function requireRole(min: Role) {
  return t.middleware(({ ctx, next }) => {
    if (RANK[ctx.role] < RANK[min]) throw new TRPCError({ code: 'FORBIDDEN', message: `this needs the ${min} role; you are a ${ctx.role}` });
    return next();
  });
}

export const reviewerProcedure = procedure.use(requireRole('reviewer'));
export const adminProcedure = procedure.use(requireRole('admin'));
export const createCallerFactory = t.createCallerFactory;
