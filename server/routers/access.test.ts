import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbHandle } from '@/server/db';
import { appRouter } from '@/server/routers/app';
import { createCallerFactory, type Context, type Role } from '@/server/trpc/init';
import { createUser, ensureAdmin, principal, setMember, signIn } from '@/server/services/auth';
import { ensureProject } from '@/server/services/projects';
import { seedDemo } from '@/server/demo/seed';
import { ingest } from '@/server/services/ingest';
import { DRIVERS, freshDb } from '@/server/test/db';

/**
 * The authorization matrix: every tRPC procedure with the least role that may call it. A procedure
 * added without an entry here fails the first test; each entry is checked for every role.
 */
const ACCESS: Record<string, Role> = {
  'annotations.list': 'viewer',
  'annotations.turns': 'viewer',
  'annotations.counts': 'viewer',
  'annotations.create': 'reviewer',
  'annotations.remove': 'reviewer',
  'annotations.scores': 'viewer',
  'annotations.defineScore': 'admin',
  'annotations.removeScore': 'admin',
  'apiKeys.list': 'admin',
  'apiKeys.names': 'viewer',
  'hygiene.agents': 'viewer',
  'hygiene.lab': 'viewer',
  'hygiene.pending': 'viewer',
  'hygiene.propose': 'reviewer',
  'apiKeys.create': 'admin',
  'apiKeys.revoke': 'admin',
  'members.list': 'admin',
  'members.set': 'admin',
  'members.remove': 'admin',
  'curation.setPolicy': 'admin',
  'curation.decide': 'reviewer',
  'curation.decideMany': 'reviewer',
  'curation.deprecate': 'reviewer',
  'curation.createEntry': 'reviewer',
  'curation.editEntry': 'reviewer',
  'curation.linkEntries': 'reviewer',
  'ingest.batch': 'reviewer',
  'curation.inbox': 'viewer',
  'curation.proposal': 'viewer',
  'curation.statuses': 'viewer',
  'curation.entries': 'viewer',
  'curation.entry': 'viewer',
  'curation.readAs': 'viewer',
  'curation.batches': 'viewer',
  'curation.report': 'viewer',
  'curation.audit': 'viewer',
  'curation.rejected': 'viewer',
  'curation.health': 'viewer',
  'curation.eventDays': 'viewer',
  'curation.policy': 'viewer',
  'curation.events': 'viewer',
  'curation.retrievals': 'viewer',
  'curation.retrieval': 'viewer',
  'curation.judge': 'reviewer',
  'recall.corpus': 'viewer',
  'recall.version': 'viewer',
  'sessions.list': 'viewer',
  'sessions.page': 'viewer',
  'sessions.position': 'viewer',
  'sessions.artifactTurn': 'viewer',
  'sessions.byId': 'viewer',
  'sessions.fork': 'reviewer',
  'sessions.forks': 'viewer',
  'sessions.artifacts': 'viewer',
  'sessions.digest': 'viewer',
  'sessions.shape': 'viewer',
  'sessions.blame': 'viewer',
  'sessions.events': 'viewer',
  'sessions.stamp': 'viewer',
  'sessions.window': 'viewer',
  'sessions.turns': 'viewer',
  'system.info': 'viewer',
  'system.storage': 'viewer',
  'substrate.agents': 'viewer',
  'substrate.known': 'viewer',
  'substrate.snapshots': 'viewer',
  'substrate.state': 'viewer',
  'substrate.bridgeIndex': 'viewer',
  'substrate.contexts': 'viewer',
  'substrate.audit': 'viewer',
  'substrate.fieldArtifacts': 'viewer',
  'substrate.judgment': 'viewer',
  'substrate.consultSamples': 'viewer',
  'substrate.deadEnds': 'viewer',
  'substrate.fieldSeries': 'viewer',
  'webhooks.list': 'admin',
  'webhooks.secret': 'admin',
  'webhooks.create': 'admin',
  'webhooks.setEnabled': 'admin',
  'webhooks.remove': 'admin',
  'webhooks.deliveries': 'admin',
  'webhooks.redeliver': 'admin',
};

/** Every HTTP route and who may use it; a route file without an entry fails the test. */
const ROUTES: Record<string, string> = {
  'api/[...path]': 'anyone outside /api/v1 signed in as proxy.ts requires; answers only a JSON 404, no data',
  'api/auth/sign-in': 'anyone (the form; cross-site posts refused by proxy.ts)',
  'api/auth/sign-out': 'anyone (ends the caller’s own session)',
  'api/health': 'anyone (liveness for load balancers: no database, no data)',
  'api/ready': 'anyone (readiness for load balancers: which check failed, no data)',
  'api/trpc/[trpc]': 'per procedure (the matrix above)',
  'api/v1/agents/[agent]/ucs/export': 'API key, its own project only',
  'api/v1/ingest': 'API key, its own project only',
  'api/v1/annotations': 'API key, its own project only (a judge posts scores; anyone with the key lists them)',
  'api/project/export': 'admin of the current project (the sign-in session)',
  'api/sessions/[id]/live': 'viewer of the current project (the sign-in session), as sessions.stamp',
  'api/curation/live': 'viewer of the current project (the sign-in session); says only that proposals changed',
  'api/v1/project/export': 'API key, its own project only',
  'api/v1/project/import': 'API key, into its own project only, and only while it is empty',
  'api/v1/otel/v1/traces': 'API key, its own project only',
  'api/v1/mcp': 'API key, its own project only (MCP tools act in the key’s project)',
  'api/v1/schema': 'anyone (the public contract)',
  'api/v1/openapi.json': 'anyone (the public contract)',
  'api/v1/memory-events/[id]': 'API key, its own project only (an agent asks what became of its memory event)',
  'api/v1/sessions/[id]/export': 'API key, its own project only',
  'api/v1/sessions/[id]/state': 'API key, its own project only (an agent resuming, e.g. from a fork)',
  'ort/[file]': 'anyone (the WASM runtime)',
};

const RANK: Record<Role | 'none', number> = { none: -1, viewer: 0, reviewer: 1, admin: 2 };
const createCaller = createCallerFactory(appRouter);

function routeFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) return routeFiles(p, base);
    return n === 'route.ts' ? [path.relative(base, dir).split(path.sep).join('/')] : [];
  });
}

async function call(ctx: Context, proc: string): Promise<string | null> {
  const caller = createCaller(ctx) as unknown as Record<string, Record<string, (input?: unknown) => Promise<unknown>>>;
  const [ns, name] = proc.split('.') as [string, string];
  try {
    await caller[ns]![name]!(undefined);
    return null;
  } catch (e) {
    return e instanceof TRPCError ? e.code : 'THROWN';
  }
}

describe('authorization matrix', () => {
  it('lists every procedure and every HTTP route', () => {
    expect(Object.keys(appRouter._def.procedures).sort()).toEqual(Object.keys(ACCESS).sort());
    expect(routeFiles(path.join(process.cwd(), 'app')).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  describe.each(DRIVERS)('on %s', (driver) => {
    let h: DbHandle;
    beforeAll(async () => {
      h = await freshDb(driver);
      await seedDemo(h.db, 'default');
    });
    afterAll(() => h?.close());

    it.each(Object.entries(ACCESS))('%s needs %s', async (proc, least) => {
      for (const role of ['none', 'viewer', 'reviewer', 'admin'] as const) {
        const ctx: Context = {
          db: h.db,
          driver: h.driver,
          location: h.location,
          projectId: role === 'none' ? '' : 'default',
          actor: `t-${role}`,
          role,
        };
        const code = await call(ctx, proc);
        if (role === 'none') expect(code, `${proc} as nobody`).toBe('UNAUTHORIZED');
        else if (RANK[role] < RANK[least]) expect(code, `${proc} as ${role}`).toBe('FORBIDDEN');
        else expect(['UNAUTHORIZED', 'FORBIDDEN'], `${proc} as ${role}`).not.toContain(code);
      }
    });

    it('instances started at once each make sure of the admin: all start, one admin', async () => {
      await Promise.all(Array.from({ length: 4 }, () => ensureAdmin(h.db, 'default', 'racer', 'racer-password-123')));
      const rows = rowsOf<{ n: number; role: string }>(
        await h.db.execute(sql`select count(*)::int as n, min(m.role) as role from users u
          join memberships m on m.user_id = u.id and m.project_id = 'default' where u.username = 'racer'`),
      );
      expect(rows).toEqual([{ n: 1, role: 'admin' }]);
    });

    it('a member of another project sees none of this one', async () => {
      await ensureProject(h.db, 'other', 'Other');
      await createUser(h.db, 'bob', 'correct horse battery');
      await setMember(h.db, 'other', 'bob', 'admin', null, 'test');
      await ingest(
        h.db,
        'other',
        [
          {
            ok: true,
            value: {
              type: 'turn',
              data: { session_id: 'bob-s', agent: 'b', turn: 1, input: 'q', output: 'a', ccs: 'goal_orientation: x' },
            },
          },
        ],
        'test',
      );
      const s = (await signIn(h.db, 'bob', 'correct horse battery'))!;
      expect(await signIn(h.db, 'bob', 'wrong password here')).toBeNull();
      // Asking for the default project does not get it: bob is not a member there.
      const p = (await principal(h.db, s.token, 'default'))!;
      expect([p.projectId, p.role]).toEqual(['other', 'admin']);
      const bob = createCaller({
        db: h.db,
        driver: h.driver,
        location: h.location,
        projectId: p.projectId,
        actor: p.username,
        role: p.role,
      });
      expect((await bob.sessions.list()).map((x) => x.id)).toEqual(['bob-s']);
      await expect(bob.sessions.byId({ id: 'itops-nginx-502' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await bob.curation.inbox({ status: 'pending' })).items).toEqual([]);
      expect(await bob.apiKeys.list()).toEqual([]);
      expect(await principal(h.db, 'not-a-token', 'default')).toBeNull();
    });

    it('a project always keeps an admin: its last one can be neither demoted nor removed', async () => {
      await ensureProject(h.db, 'solo', 'Solo');
      await createUser(h.db, 'carol', 'correct horse battery');
      await createUser(h.db, 'dave', 'correct horse battery');
      await setMember(h.db, 'solo', 'carol', 'admin', null, 'test');
      await setMember(h.db, 'solo', 'dave', 'reviewer', null, 'test');
      const carol = createCaller({
        db: h.db,
        driver: h.driver,
        location: h.location,
        projectId: 'solo',
        actor: 'carol',
        role: 'admin',
      });
      await expect(carol.members.set({ username: 'carol', role: 'viewer' })).rejects.toThrow(
        /the last admin of a project cannot lose the admin role: make another member an admin first/,
      );
      await expect(carol.members.remove({ username: 'carol' })).rejects.toThrow(/cannot be removed/);
      // With a second admin, either may step down.
      await carol.members.set({ username: 'dave', role: 'admin' });
      await carol.members.set({ username: 'carol', role: 'viewer' });
      const roles = Object.fromEntries((await carol.members.list()).map((m) => [m.username, m.role]));
      expect(roles).toMatchObject({ carol: 'viewer', dave: 'admin' });
    });
  });
});
