import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/server/db';
import { auditLog, memberships, projects, users, userSessions } from '@/server/db/schema/projects';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';

/**
 * Users mode: people sign in with a username and password; a session is a random token in an
 * httpOnly cookie, stored only as its SHA-256; a person's role is per project (membership).
 */
export type Role = 'viewer' | 'reviewer' | 'admin';
export const ROLES: readonly Role[] = ['viewer', 'reviewer', 'admin'];
export const SESSION_COOKIE = 'mnemoscope_session';
export const PROJECT_COOKIE = 'mnemoscope_project';
const SESSION_DAYS = 7;

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;
const N = 16384;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, { N, r: 8, p: 1 });
  return `scrypt$${N}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algo, n, salt, hash] = stored.split('$');
  if (algo !== 'scrypt' || !n || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64url');
  const got = await scrypt(password, Buffer.from(salt, 'base64url'), want.length, { N: Number(n), r: 8, p: 1 });
  return got.length === want.length && timingSafeEqual(got, want);
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

function checkUsername(username: string) {
  if (!/^[A-Za-z0-9._@-]{2,64}$/.test(username))
    throw new InvalidInputError('username: 2–64 letters, digits or . _ @ -');
}
function checkPassword(password: string) {
  if (password.length < 12) throw new InvalidInputError('password: at least 12 characters');
}

export async function createUser(db: Db | Tx, username: string, password: string): Promise<string> {
  checkUsername(username);
  checkPassword(password);
  const [row] = await db
    .insert(users)
    .values({ username, passwordHash: await hashPassword(password) })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!row) throw new ConflictError(`username: ${username} is taken`);
  return row.id;
}

/**
 * The admin named by the environment exists and is admin of the project (its password is set only when it is created).
 * Instances started at once each make sure: the one that loses the race to create the admin takes the one created.
 */
export async function ensureAdmin(db: Db, projectId: string, username: string, password: string) {
  const find = async () => (await db.select({ id: users.id }).from(users).where(eq(users.username, username)))[0]?.id;
  let id = await find();
  if (!id)
    try {
      id = await createUser(db, username, password);
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
      id = await find();
      if (!id) throw e;
    }
  await db
    .insert(memberships)
    .values({ projectId, userId: id, role: 'admin' })
    .onConflictDoUpdate({ target: [memberships.projectId, memberships.userId], set: { role: 'admin' } });
}

export async function userCount(db: Db): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return r?.n ?? 0;
}

/** Checks a password and opens a session; the same answer for an unknown user and a wrong password. */
export async function signIn(
  db: Db,
  username: string,
  password: string,
): Promise<{ token: string; expires: Date } | null> {
  const [u] = await db
    .select()
    .from(users)
    .where(and(eq(users.username, username), isNull(users.disabledAt)));
  const ok = u
    ? await verifyPassword(password, u.passwordHash)
    : await verifyPassword(password, 'scrypt$16384$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  if (!u || !ok) return null;
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + SESSION_DAYS * 86_400_000);
  await db.insert(userSessions).values({ tokenHash: tokenHash(token), userId: u.id, expiresAt: expires });
  return { token, expires };
}

export async function signOut(db: Db, token: string) {
  await db.delete(userSessions).where(eq(userSessions.tokenHash, tokenHash(token)));
}

export interface Principal {
  userId: string;
  username: string;
  projectId: string;
  role: Role;
  projects: { id: string; name: string; role: Role }[];
}

/**
 * Who a session token belongs to, and in which project: the one asked for if the user is a member,
 * else their first. Null when the token is unknown or expired, or the user belongs to no project.
 */
export async function principal(db: Db, token: string | null, wantProject: string | null): Promise<Principal | null> {
  if (!token) return null;
  const [s] = await db
    .select({ userId: users.id, username: users.username })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(
      and(
        eq(userSessions.tokenHash, tokenHash(token)),
        gt(userSessions.expiresAt, sql`now()`),
        isNull(users.disabledAt),
      ),
    );
  if (!s) return null;
  const mine = await db
    .select({ id: projects.id, name: projects.name, role: memberships.role })
    .from(memberships)
    .innerJoin(projects, eq(projects.id, memberships.projectId))
    .where(eq(memberships.userId, s.userId))
    .orderBy(asc(projects.id));
  const current = mine.find((p) => p.id === wantProject) ?? mine[0];
  if (!current) return null;
  return {
    ...s,
    projectId: current.id,
    role: current.role as Role,
    projects: mine.map((p) => ({ ...p, role: p.role as Role })),
  };
}

export async function listMembers(db: Tx, projectId: string) {
  return db
    .select({ userId: users.id, username: users.username, role: memberships.role, since: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.projectId, projectId))
    .orderBy(asc(users.username));
}

/** Adds a person to the project (creating the user when a password is given), or changes their role. */
export async function setMember(
  db: Db,
  projectId: string,
  username: string,
  role: Role,
  password: string | null,
  actor: string,
) {
  if (!ROLES.includes(role)) throw new InvalidInputError(`role: one of ${ROLES.join(', ')}`);
  await db.transaction(async (tx) => {
    const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.username, username));
    let id = u?.id;
    if (!id) {
      if (!password) throw new NotFoundError('user', username);
      id = await createUser(tx, username, password);
    }
    if (u && role !== 'admin') await keepAnAdmin(tx, projectId, u.id, 'lose the admin role');
    await tx
      .insert(memberships)
      .values({ projectId, userId: id, role })
      .onConflictDoUpdate({ target: [memberships.projectId, memberships.userId], set: { role } });
    await tx.insert(auditLog).values({
      projectId,
      actor,
      action: 'member.set',
      subjectType: 'user',
      subjectId: username,
      detail: { role, created: !u },
    });
  });
}

/**
 * Refuses a change that would leave the project without an admin (`userId` its only one). The admin rows are locked
 * for the transaction, so two admins demoting each other at once on two instances cannot both succeed.
 */
async function keepAnAdmin(tx: Tx, projectId: string, userId: string, change: string) {
  const admins = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.projectId, projectId), eq(memberships.role, 'admin')))
    .for('update');
  if (admins.length === 1 && admins[0]!.userId === userId)
    throw new ConflictError(`the last admin of a project cannot ${change}: make another member an admin first`);
}

export async function removeMember(db: Db, projectId: string, username: string, actor: string) {
  await db.transaction(async (tx) => {
    const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.username, username));
    if (!u) throw new NotFoundError('user', username);
    await keepAnAdmin(tx, projectId, u.id, 'be removed');
    await tx.delete(memberships).where(and(eq(memberships.projectId, projectId), eq(memberships.userId, u.id)));
    await tx.delete(userSessions).where(eq(userSessions.userId, u.id));
    await tx
      .insert(auditLog)
      .values({ projectId, actor, action: 'member.remove', subjectType: 'user', subjectId: username, detail: {} });
  });
}
