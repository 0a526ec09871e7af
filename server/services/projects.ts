import { eq } from 'drizzle-orm';
import type { Tx } from '@/server/db';
import { projects } from '@/server/db/schema/projects';

export const DEFAULT_PROJECT = 'default';

export async function ensureProject(
  db: Tx,
  id = DEFAULT_PROJECT,
  name = 'Default project',
): Promise<{ created: boolean }> {
  const rows = await db.insert(projects).values({ id, name }).onConflictDoNothing().returning({ id: projects.id });
  return { created: rows.length > 0 };
}

export async function getProject(db: Tx, id: string) {
  const [row] = await db.select().from(projects).where(eq(projects.id, id));
  return row ?? null;
}

export async function setProjectSetting(db: Tx, id: string, key: string, value: unknown) {
  const p = await getProject(db, id);
  if (!p) throw new Error(`project ${id} does not exist`);
  await db
    .update(projects)
    .set({ settings: { ...p.settings, [key]: value } })
    .where(eq(projects.id, id));
}
