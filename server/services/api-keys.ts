import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Tx } from '@/server/db';
import { apiKeys, auditLog } from '@/server/db/schema/projects';
import { NotFoundError } from './errors';

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export interface ApiKeyDto {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  role: ApiKeyRole;
}

export type ApiKeyRole = 'agent' | 'admin';

const columns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  role: apiKeys.role,
};

export async function listKeys(db: Tx, projectId: string): Promise<ApiKeyDto[]> {
  return db.select(columns).from(apiKeys).where(eq(apiKeys.projectId, projectId)).orderBy(desc(apiKeys.createdAt));
}

/**
 * What an API key is called, by the actor logs record for it (`api_key:<id>`) and its prefix as Settings shows it:
 * so that a report, an audit entry or a search names the key a person made, not its id.
 */
export async function keyNames(db: Tx, projectId: string): Promise<Record<string, { name: string; prefix: string }>> {
  const rows = await db
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix })
    .from(apiKeys)
    .where(eq(apiKeys.projectId, projectId));
  return Object.fromEntries(rows.map((r) => [`api_key:${r.id}`, { name: r.name, prefix: r.prefix }]));
}

/** Creates a key; the plain key is returned this once and only its hash is stored. */
export async function createKey(
  db: Tx,
  projectId: string,
  name: string,
  actor: string,
  role: ApiKeyRole = 'agent',
): Promise<{ key: string; apiKey: ApiKeyDto }> {
  const key = `msk_${randomBytes(24).toString('base64url')}`;
  const [apiKey] = await db
    .insert(apiKeys)
    .values({ projectId, name, prefix: key.slice(0, 8), keyHash: hashKey(key), role })
    .returning(columns);
  await db.insert(auditLog).values({
    projectId,
    actor,
    action: 'api_key.create',
    subjectType: 'api_key',
    subjectId: apiKey!.id,
    detail: { name, role },
  });
  return { key, apiKey: apiKey! };
}

export async function revokeKey(db: Tx, projectId: string, id: string, actor: string): Promise<ApiKeyDto> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, id)))
    .returning(columns);
  if (!row) throw new NotFoundError('api key', id);
  await db
    .insert(auditLog)
    .values({ projectId, actor, action: 'api_key.revoke', subjectType: 'api_key', subjectId: id, detail: {} });
  return row;
}

/** The project a bearer key belongs to, or null when it is unknown or revoked. Records when it was last used. */
export async function verifyKey(
  db: Tx,
  key: string,
): Promise<{ projectId: string; keyId: string; role: ApiKeyRole } | null> {
  const [row] = await db
    .select({ id: apiKeys.id, projectId: apiKeys.projectId, revokedAt: apiKeys.revokedAt, role: apiKeys.role })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hashKey(key)));
  if (!row || row.revokedAt) return null;
  // At most one write a minute per key, not one per request.
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.id, row.id),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`)),
      ),
    );
  return { projectId: row.projectId, keyId: row.id, role: row.role };
}

/**
 * Makes MNEMOSCOPE_API_KEY a working key of the project, so scripts and CI can ingest without a UI step. It is
 * the deployment's own key, set by whoever runs the server: an admin key.
 */
export async function provisionKey(db: Tx, projectId: string, key: string): Promise<void> {
  await db
    .insert(apiKeys)
    .values({
      projectId,
      name: 'MNEMOSCOPE_API_KEY (environment)',
      prefix: key.slice(0, 4),
      keyHash: hashKey(key),
      role: 'admin',
    })
    .onConflictDoUpdate({ target: apiKeys.keyHash, set: { role: 'admin' } });
}
