import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Tx } from '@/server/db';
import {
  OWNER_SOURCES,
  READ_AS_PAGE,
  READ_ORDER,
  READABLE_STATUSES,
  READER_KEYS,
  SCOPE_READER_KEY,
  UNREADABLE_OWNER,
  UNSHARED,
  type OwnerSource,
  type ReadScope,
  type Reader,
  type ReaderKey,
} from '@/lib/curation/read-as';

/**
 * Curation → Read as: what an agent with a given user, team, project, repository and task reads of the project's
 * memory, scope by scope in the order it reads them, and how much of each scope it does not read. Whose an entry is
 * comes from its source event by the rule of `lib/curation/read-as.ts` (`OWNER_SOURCES`), evaluated here in SQL.
 */

export interface ReadAsEntry {
  id: string;
  /** As stored (`agent_team` is read as `team_memory`). */
  scope: string;
  kind: string;
  content: string;
  status: string;
  version: number;
  sourceEventId: string | null;
  /** The reader's own value, or null: shared by the whole scope. */
  owner: string | null;
  updatedAt: string;
}

export interface ReadAsScope {
  scope: ReadScope;
  /** The reader's value this scope is matched on, and what it was (null: not given, shared entries only). */
  readerKey: ReaderKey;
  value: string | null;
  /** The first `limit` entries the reader reads, newest change first. */
  items: ReadAsEntry[];
  limit: number;
  /** Entries the reader reads, of them shared ones; entries it does not read, and how many owners those have. */
  visible: number;
  shared: number;
  hidden: number;
  hiddenOwners: number;
}

export interface KnownValues {
  /** Most recently seen first, at most `KNOWN_CAP`. */
  values: string[];
  /** How many there are in all. */
  total: number;
}

export interface ReadAsResult {
  reader: Reader;
  query: string;
  scopes: ReadAsScope[];
  /** The values the project's memory events carry for each of a reader's keys, to choose a reader from. */
  known: Record<ReaderKey, KnownValues>;
}

/** Known values listed per key: enough for a list to choose from; the total says when there are more. */
export const KNOWN_CAP = 500;

const MASKED = '%[REDACTED:%';

/** One source of an owner key, from the event joined as `ev` (null when the entry has no event). */
function sourceSql(s: OwnerSource): SQL {
  if ('column' in s) return s.column === 'taskId' ? sql`nullif(ev.task_id, '')` : sql`nullif(ev.source_agent, '')`;
  const f = sql`${s.field}::text`;
  return sql`case when ev.raw -> ${f} is null then null
    when jsonb_typeof(ev.raw -> ${f}) = 'null' then null
    when jsonb_typeof(ev.raw -> ${f}) = 'string' then nullif(ev.raw ->> ${f}, '')
    else ${UNREADABLE_OWNER}::text end`;
}

/** The owner key of a read scope's entries: its sources in order, the first present wins; a masked one matches none. */
function ownerSql(scope: ReadScope): SQL {
  const chain = sql.join(OWNER_SOURCES[scope].map(sourceSql), sql`, `);
  // A session entry that names no owner is read by nobody (UNSHARED), any other is shared by its scope.
  const none = scope === UNSHARED ? sql`${UNREADABLE_OWNER}::text` : sql`null::text`;
  return sql`(select case when o like ${MASKED} then ${UNREADABLE_OWNER}::text else o end
    from (select coalesce(${chain}, ${none}) as o) c)`;
}

const whenScope = <T>(values: Record<ReadScope, T>, cast: SQL, column = sql.raw('read_scope')) =>
  sql`case ${column} ${sql.join(
    READ_ORDER.map((s) => sql`when ${s}::text then ${values[s]}${cast}`),
    sql` `,
  )} end`;

/**
 * The project's readable entries (live, in a scope agents read, matching the words), each with its read scope, its
 * owner and whether the reader reads it.
 */
function readable(projectId: string, reader: Reader, query: string) {
  const escape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  const list = (values: readonly string[]) =>
    sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    );
  const readScope = sql`(case m.scope when 'agent_team' then 'team_memory' else m.scope end)`;
  const owners = Object.fromEntries(READ_ORDER.map((s) => [s, ownerSql(s)])) as Record<ReadScope, SQL>;
  const values = Object.fromEntries(READ_ORDER.map((s) => [s, reader[SCOPE_READER_KEY[s]] ?? null])) as Record<
    ReadScope,
    string | null
  >;
  return sql`with owned as (
      select m.id, m.scope, m.kind, m.content, m.status, m.version, m.source_event_id, m.updated_at,
        ${readScope} as read_scope, ${whenScope(owners, sql``, readScope)} as owner
      from memory_entries m
      left join memory_events ev on ev.project_id = m.project_id and ev.event_id = m.source_event_id
      where m.project_id = ${projectId}
        and m.status in (${list(READABLE_STATUSES)})
        and m.scope in (${list([...READ_ORDER, 'agent_team'])})
        ${query ? sql`and m.content ilike ${`%${escape(query)}%`}` : sql``}
    ),
    readable as (
      -- A reader that gives no value for a scope reads its shared entries only (never a null comparison).
      select owned.*, (owner is null or coalesce(owner = ${whenScope(values, sql`::text`)}, false)) as visible
      from owned
    )`;
}

interface ScopeRow {
  read_scope: ReadScope;
  visible: number;
  shared: number;
  hidden: number;
  owners: number;
  /** `ReadAsEntry[]` as JSON. */
  items: string;
}

/** A reader's values that were given (an empty one is not: it names no owner). */
export function given(input: Reader): Reader {
  const reader: Reader = {};
  for (const k of READER_KEYS) if (input[k]) reader[k] = input[k];
  return reader;
}

/** A live entry in a scope agents read: the scope it is read in, and its owner key (null: shared by the scope). */
export interface EntryOwner {
  scope: ReadScope;
  owner: string | null;
}

/**
 * Every live entry of the project in a scope agents read, with its read scope and owner: what any reader's search may
 * return is those that `sees` (lib/curation/read-as.ts) lets it read. One pass for every reader, so that a search can
 * keep it with its index instead of asking the database again for each reader and search.
 */
export async function entryOwners(db: Tx, projectId: string): Promise<Map<string, EntryOwner>> {
  const rows = rowsOf<{ id: string; read_scope: ReadScope; owner: string | null }>(
    await db.execute(sql`${readable(projectId, {}, '')} select id, read_scope, owner from readable`),
  );
  return new Map(rows.map((r) => [r.id, { scope: r.read_scope, owner: r.owner }]));
}

/** Whether a reader reads an entry (live, in a read scope, its own or shared): whether its search may find it. */
export async function readsEntry(db: Tx, projectId: string, input: Reader, entryId: string): Promise<boolean> {
  const [row] = rowsOf<{ visible: boolean }>(
    await db.execute(
      sql`${readable(projectId, given(input), '')} select visible from readable where id = ${entryId}::uuid`,
    ),
  );
  return row?.visible === true;
}

/** What a reader reads of the project's memory, per scope in reading order, with what it does not read counted. */
export async function readAs(
  db: Tx,
  projectId: string,
  input: Reader & { query?: string | null; limits?: Partial<Record<ReadScope, number>> },
): Promise<ReadAsResult> {
  const reader = given(input);
  const query = input.query?.trim() ?? '';
  const limits = Object.fromEntries(READ_ORDER.map((s) => [s, input.limits?.[s] ?? READ_AS_PAGE])) as Record<
    ReadScope,
    number
  >;
  const base = readable(projectId, reader, query);
  // One pass: each scope's counts, and its first entries the reader reads (as JSON text: the drivers parse JSON
  // differently), newest change first.
  const rows = rowsOf<ScopeRow>(
    await db.execute(sql`${base},
      ranked as (
        select readable.*, row_number() over (partition by read_scope, visible order by updated_at desc, id) as rn
        from readable
      )
      select read_scope,
        count(*) filter (where visible)::int as visible,
        count(*) filter (where visible and owner is null)::int as shared,
        count(*) filter (where not visible)::int as hidden,
        count(distinct owner) filter (where not visible)::int as owners,
        coalesce(jsonb_agg(jsonb_build_object(
            'id', id, 'scope', scope, 'kind', kind, 'content', content, 'status', status, 'version', version,
            'sourceEventId', source_event_id, 'owner', owner,
            'updatedAt', to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
          ) order by updated_at desc, id) filter (where visible and rn <= ${whenScope(limits, sql`::int`)}),
          '[]'::jsonb)::text as items
      from ranked group by read_scope`),
  );
  return {
    reader,
    query,
    scopes: READ_ORDER.map((scope) => {
      const c = rows.find((r) => r.read_scope === scope);
      const readerKey = SCOPE_READER_KEY[scope];
      return {
        scope,
        readerKey,
        value: reader[readerKey] ?? null,
        items: c ? (JSON.parse(c.items) as ReadAsEntry[]) : [],
        limit: limits[scope],
        visible: c?.visible ?? 0,
        shared: c?.shared ?? 0,
        hidden: c?.hidden ?? 0,
        hiddenOwners: c?.owners ?? 0,
      };
    }),
    known: await knownValues(db, projectId),
  };
}

/** Each reader key's values among the project's memory events (owners that cannot be matched left out). */
async function knownValues(db: Tx, projectId: string): Promise<Record<ReaderKey, KnownValues>> {
  const keys = READER_KEYS.map((k) => {
    const scope = READ_ORDER.find((s) => SCOPE_READER_KEY[s] === k)!;
    return sql`(${k}::text, ${ownerSql(scope)})`;
  });
  const rows = rowsOf<{ k: ReaderKey; v: string; total: number }>(
    await db.execute(sql`select k, v, total from (
        select k, v, count(*) over (partition by k)::int as total,
          row_number() over (partition by k order by last desc, v) as rn
        from (
          select key.k, key.v, max(ev.ts) as last
          from memory_events ev, lateral (values ${sql.join(keys, sql`, `)}) as key(k, v)
          where ev.project_id = ${projectId}
          group by key.k, key.v
        ) seen
        where v is not null and v not like ${MASKED} and v <> ${UNREADABLE_OWNER}
      ) ranked
      where rn <= ${KNOWN_CAP}
      order by k, rn`),
  );
  return Object.fromEntries(
    READER_KEYS.map((k) => {
      const of = rows.filter((r) => r.k === k);
      return [k, { values: of.map((r) => r.v), total: of[0]?.total ?? 0 }];
    }),
  ) as Record<ReaderKey, KnownValues>;
}
