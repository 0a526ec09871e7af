import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '@/server/db';
import { substrateAgentIds } from './substrate';

const count = (table: string, projectId: string) =>
  sql`(select count(*)::int from ${sql.raw(table)} where project_id = ${projectId})`;

/**
 * The app shell's counts, asked on every page and again after each review decision: one round trip, each figure
 * O(sessions, agents or proposals waiting), never a count of the project's turns or events.
 */
export async function projectCounts(db: Tx, projectId: string) {
  const rows = await db.execute(sql`
    select ${count('sessions', projectId)} as sessions,
           (select count(*)::int from (${substrateAgentIds(projectId)}) a) as substrate_agents,
           (select count(*)::int from proposals where status = 'pending' and project_id = ${projectId}) as pending`);
  const row = rowsOf<Record<string, number>>(rows)[0]!;
  return {
    sessions: row.sessions!,
    /** Agents with anything of their substrate stored: what the Substrate page lists. */
    substrateAgents: row.substrate_agents!,
    pending: row.pending!,
  };
}

/**
 * What the project stores, for Settings' storage panel alone. Turns are summed from `session_stats` (one row a
 * session, kept by every ingest batch), not counted: `bench:sessions` measures both at 1,000,000 turns.
 */
export async function storageCounts(db: Tx, projectId: string) {
  const rows = await db.execute(sql`
    select (select coalesce(sum(turn_count), 0)::int from session_stats where project_id = ${projectId}) as turns,
           ${count('memory_events', projectId)} as events,
           ${count('ucs_snapshots', projectId)} as snapshots,
           ${count('audit_log', projectId)} as audit`);
  const row = rowsOf<Record<string, number>>(rows)[0]!;
  return { turns: row.turns!, events: row.events!, snapshots: row.snapshots!, audit: row.audit! };
}
