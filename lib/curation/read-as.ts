import { z } from 'zod';
import { LIMITS } from '@/lib/ingest/contract';

/**
 * Who reads a memory entry. An agent reads its durable memory scope by scope — first who its user is, then its
 * team's, its project's and its repository's memory, then its own task's notes — and within a scope only the entries
 * that are its own. An entry carries no owner itself: the memory event it was written from says whose it is, by the
 * field its scope names (`OWNER_SOURCES`). An entry without a source event (a reviewer wrote it) or whose event names
 * no owner is shared by the whole scope: every reader of that scope reads it. Except a session's: session memory is
 * what one task keeps for itself (where the curator puts what is temporary, private or unclear), so one that names no
 * task or session is read by no task rather than by every one.
 *
 * The server evaluates the same rule in SQL (`server/services/curation-read-as.ts`, built from `OWNER_SOURCES`);
 * `ownerKey` and `sees` are it in TypeScript, and the integration test holds the two together.
 */

/** The scopes an agent reads, in the order it reads them. `agent_team` is `team_memory`; `discard` is never read. */
export const READ_ORDER = ['user_identity', 'team_memory', 'project', 'agent_repo', 'session'] as const;
export type ReadScope = (typeof READ_ORDER)[number];

/** Entry statuses an agent reads: the live ones, as `search_memory` serves them. Deprecated entries are never read. */
export const READABLE_STATUSES = ['active', 'in_conflict'] as const;

/** What a reader says about itself, one value per scope it reads. */
export const READER_KEYS = ['user', 'team', 'project', 'agentRepo', 'task'] as const;
export type ReaderKey = (typeof READER_KEYS)[number];
export type Reader = Partial<Record<ReaderKey, string>>;

/** Which of the reader's values a scope's entries are matched against. */
export const SCOPE_READER_KEY: Record<ReadScope, ReaderKey> = {
  user_identity: 'user',
  team_memory: 'team',
  project: 'project',
  agent_repo: 'agentRepo',
  session: 'task',
};

/** Where an owner key is read from: a column of the stored event, or a top-level field of the event as sent. */
export type OwnerSource = { column: 'taskId' | 'sourceAgent' } | { field: string };

/** Per scope, where its entries' owner comes from, first present wins. */
export const OWNER_SOURCES: Record<ReadScope, readonly OwnerSource[]> = {
  // Mnemoscope's extension of the event: the Agentlas schema has no user field.
  user_identity: [{ field: 'user_id' }],
  team_memory: [{ field: 'team_id' }],
  project: [{ field: 'project_id' }],
  // An agent that names no repository is its own repository.
  agent_repo: [{ field: 'agent_repo' }, { column: 'sourceAgent' }],
  session: [{ column: 'taskId' }, { field: 'session_id' }],
};

/**
 * The owner of an entry whose event names one that cannot be matched: a value that is not a string, or one that
 * redaction masked before storage (two masked users are indistinguishable). Such an entry is hidden from every reader
 * rather than shared with all. It contains a control character, which no reader's value may, so it equals none.
 */
export const UNREADABLE_OWNER = '\u0001unreadable';
const MASK = '[REDACTED:';

/** The fields of a stored memory event that say whose its entries are. */
export interface OwnerEvent {
  sourceAgent: string;
  taskId: string | null;
  raw: Record<string, unknown>;
}

/** The scope an entry is read in, or null for one no agent reads (`discard`, or a scope this version does not know). */
export function readScopeOf(scope: string): ReadScope | null {
  if (scope === 'agent_team') return 'team_memory';
  return (READ_ORDER as readonly string[]).includes(scope) ? (scope as ReadScope) : null;
}

function fromSource(s: OwnerSource, e: OwnerEvent): string | null {
  const v = 'column' in s ? e[s.column] : e.raw[s.field];
  if (v === undefined || v === null || v === '') return null;
  return typeof v === 'string' ? v : UNREADABLE_OWNER;
}

/**
 * Whose an entry of `scope` is: its owner key, null when it is shared by the whole scope (no source event, or the
 * event names no owner), or `UNREADABLE_OWNER`.
 */
export function ownerKey(scope: string, event: OwnerEvent | null): string | null {
  const read = readScopeOf(scope);
  if (!read) return null;
  let owner: string | null = null;
  if (event)
    for (const s of OWNER_SOURCES[read]) {
      owner = fromSource(s, event);
      if (owner !== null) break;
    }
  if (owner === null) return read === UNSHARED ? UNREADABLE_OWNER : null;
  return owner.includes(MASK) ? UNREADABLE_OWNER : owner;
}

/** The scope whose entries are never shared: one that names no owner is read by nobody. */
export const UNSHARED: ReadScope = 'session';

/** Whether a reader reads an entry of `scope` owned by `owner`: a shared one always, an owned one when it is theirs. */
export function sees(reader: Reader, scope: ReadScope, owner: string | null): boolean {
  if (owner === null) return true;
  const mine = reader[SCOPE_READER_KEY[scope]];
  return mine !== undefined && mine === owner && owner !== UNREADABLE_OWNER;
}

// ---------------------------------------------------------------- the reader as input and in the URL

/** One of a reader's values: an id as events carry it (trimmed, no control characters); empty means not given. */
const readerValue = z
  .string()
  .trim()
  .max(LIMITS.idChars, `must be at most ${LIMITS.idChars} characters`)
  // eslint-disable-next-line no-control-regex -- an owner key never holds one (the unreadable owner does)
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
  .nullish()
  .transform((v) => v || undefined);

export const readerSchema = z.object({
  user: readerValue,
  team: readerValue,
  project: readerValue,
  agentRepo: readerValue,
  task: readerValue,
});

/** Entries shown per scope unless more are asked for, and the most one answer holds per scope. */
export const READ_AS_PAGE = 50;
export const READ_AS_MAX = 1000;

export const readAsInputSchema = readerSchema.extend({
  /** Words in the entries' content: every count then counts matching entries only. */
  query: z.string().trim().max(200).nullish(),
  /** How many entries to list per scope (`READ_AS_PAGE` by default); the counts are always whole. */
  limits: z.partialRecord(z.enum(READ_ORDER), z.number().int().min(1).max(READ_AS_MAX)).optional(),
});
export type ReadAsInput = z.input<typeof readAsInputSchema>;

/** The URL parameter of each reader value (`/curation/read-as?user=…&team=…`), and `q` for the words. */
export const READER_PARAMS: Record<ReaderKey, string> = {
  user: 'user',
  team: 'team',
  project: 'project',
  agentRepo: 'repo',
  task: 'task',
};

/** The reader a URL names (a value that is not a valid id is left out, as if not given). */
export function readerFromParams(params: { get(name: string): string | null }): Reader {
  const out: Reader = {};
  for (const k of READER_KEYS) {
    const one = readerValue.safeParse(params.get(READER_PARAMS[k]));
    if (one.success && one.data) out[k] = one.data;
  }
  return out;
}

/** What `readerFromParams` left out, in words naming the parameter ("user: must be at most 200 characters"). */
export function readerProblems(params: { get(name: string): string | null }): string[] {
  return READER_KEYS.flatMap((k) => {
    const one = readerValue.safeParse(params.get(READER_PARAMS[k]));
    return one.success ? [] : [`${READER_PARAMS[k]}: ${one.error.issues[0]!.message}, left out`];
  });
}

/** The query string of a reader and its words, in a stable order (empty values left out). */
export function readerToParams(reader: Reader, query = ''): URLSearchParams {
  const out = new URLSearchParams();
  for (const k of READER_KEYS) {
    const v = reader[k]?.trim();
    if (v) out.set(READER_PARAMS[k], v);
  }
  if (query.trim()) out.set('q', query.trim());
  return out;
}

/** Whether the reader says nothing about itself (it would read shared entries only). */
export const isAnonymous = (reader: Reader) => READER_KEYS.every((k) => !reader[k]);

/**
 * A reader in words, its values named as `search_memory`'s `reader` argument names them ("user ana, task t-7"); one
 * that gives none reads the shared entries only.
 */
export function readerWords(reader: Reader): string {
  const parts = READER_KEYS.filter((k) => reader[k]).map((k) => `${k === 'agentRepo' ? 'agent_repo' : k} ${reader[k]}`);
  return parts.length ? parts.join(', ') : 'no one in particular (shared entries only)';
}
