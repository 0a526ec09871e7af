import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '@/server/db';
import { substrateAgentIds } from './substrate';

/**
 * Counts for the app shell: one round trip. Turns are summed from `session_stats` (one row a session, kept by every
 * ingest batch), not counted: a count of a million-turn project's turns on every page view is what
 * `bench:sessions` measures as "app shell counts (before)".
 */
export async function projectCounts(db: Tx, projectId: string) {
  const q = (table: string) => sql.raw(`(select count(*)::int from ${table} where project_id = `);
  const rows = await db.execute<{
    sessions: number;
    turns: number;
    events: number;
    snapshots: number;
    substrate_agents: number;
    dead_ends: number;
    audit: number;
    pending: number;
  }>(sql`
    select ${q('sessions')}${projectId}) as sessions,
           (select coalesce(sum(turn_count), 0)::int from session_stats where project_id = ${projectId}) as turns,
           ${q('memory_events')}${projectId}) as events,
           ${q('ucs_snapshots')}${projectId}) as snapshots,
           (select count(*)::int from (${substrateAgentIds(projectId)}) a) as substrate_agents,
           ${q('ucs_dead_ends')}${projectId}) as dead_ends,
           ${q('audit_log')}${projectId}) as audit,
           (select count(*)::int from proposals where status = 'pending' and project_id = ${projectId}) as pending`);
  const row = rowsOf<Record<string, number>>(rows)[0]!;
  return {
    sessions: row.sessions!,
    turns: row.turns!,
    events: row.events!,
    snapshots: row.snapshots!,
    /** Agents with anything of their substrate stored: what the Substrate page lists. */
    substrateAgents: row.substrate_agents!,
    deadEnds: row.dead_ends!,
    audit: row.audit!,
    pending: row.pending!,
  };
}
