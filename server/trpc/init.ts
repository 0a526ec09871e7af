import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { ready } from '@/server/bootstrap';
import type { Db } from '@/server/db';
import { DEFAULT_PROJECT } from '@/server/services/projects';
import { DomainError, InvalidInputError, NotFoundError } from '@/server/services/errors';

export interface Context {
  db: Db;
  driver: 'pglite' | 'postgres';
  location: string;
  projectId: string;
  actor: string;
}

/** Local single-user mode: the UI works on the default project. Access control builds on this context. */
export async function createContext(): Promise<Context> {
  const h = await ready();
  return { db: h.db, driver: h.driver, location: h.location, projectId: DEFAULT_PROJECT, actor: 'local-user' };
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
    const code = cause instanceof NotFoundError ? 'NOT_FOUND' : cause instanceof InvalidInputError ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR';
    throw new TRPCError({ code, message: cause.message, cause });
  }
  return res;
});

export const router = t.router;
export const procedure = t.procedure.use(mapErrors);
export const createCallerFactory = t.createCallerFactory;
