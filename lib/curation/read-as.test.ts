import { describe, expect, it } from 'vitest';
import { LIMITS } from '@/lib/ingest/contract';
import {
  readerWords,
  isAnonymous,
  ownerKey,
  readAsInputSchema,
  readerFromParams,
  readerProblems,
  readerToParams,
  readScopeOf,
  sees,
  UNREADABLE_OWNER,
  type OwnerEvent,
} from './read-as';

const event = (raw: Record<string, unknown>, o: Partial<OwnerEvent> = {}): OwnerEvent => ({
  sourceAgent: 'acc-itops',
  taskId: 'inc-42',
  raw,
  ...o,
});
const full = event({
  user_id: 'u-mara',
  team_id: 'sre',
  project_id: 'edge-platform',
  agent_repo: 'itops-agent',
  session_id: 'sess-9',
});

describe('ownerKey: whose an entry is, by its scope, from its source event', () => {
  it('reads the field each scope names', () => {
    expect(ownerKey('user_identity', full)).toBe('u-mara');
    expect(ownerKey('team_memory', full)).toBe('sre');
    expect(ownerKey('agent_team', full)).toBe('sre');
    expect(ownerKey('project', full)).toBe('edge-platform');
    expect(ownerKey('agent_repo', full)).toBe('itops-agent');
    expect(ownerKey('session', full)).toBe('inc-42');
  });

  it('falls back: a repository to the source agent, a session to the event’s session when it has no task', () => {
    expect(ownerKey('agent_repo', event({}))).toBe('acc-itops');
    expect(ownerKey('session', event({ session_id: 'sess-9' }, { taskId: null }))).toBe('sess-9');
    expect(ownerKey('session', event({ session_id: 'sess-9' }, { taskId: '' }))).toBe('sess-9');
  });

  it('is null (shared by the scope) without a source event, or when the event names no owner', () => {
    expect(ownerKey('user_identity', null)).toBeNull();
    expect(ownerKey('agent_repo', null)).toBeNull();
    expect(ownerKey('user_identity', event({}))).toBeNull();
    expect(ownerKey('team_memory', event({ team_id: '' }))).toBeNull();
    expect(ownerKey('project', event({ project_id: null }))).toBeNull();
  });

  it('shares no session entry: one that names no task or session is read by no task (not by every one)', () => {
    expect(ownerKey('session', event({}, { taskId: null }))).toBe(UNREADABLE_OWNER);
    expect(ownerKey('session', null)).toBe(UNREADABLE_OWNER);
    expect(sees({ task: 'inc-42' }, 'session', ownerKey('session', null))).toBe(false);
  });

  it('never shares an entry whose owner cannot be matched: a masked value, or one that is not a string', () => {
    expect(ownerKey('user_identity', event({ user_id: '[REDACTED:email]' }))).toBe(UNREADABLE_OWNER);
    expect(ownerKey('team_memory', event({ team_id: 42 }))).toBe(UNREADABLE_OWNER);
    expect(ownerKey('project', event({ project_id: { id: 'x' } }))).toBe(UNREADABLE_OWNER);
    // A masked repository is not replaced by the source agent: it named an owner, one nobody can be matched with.
    expect(ownerKey('agent_repo', event({ agent_repo: 'repo-[REDACTED:hint]' }))).toBe(UNREADABLE_OWNER);
  });

  it('knows the scopes an agent reads; discard and unknown ones are read by none', () => {
    expect(readScopeOf('agent_team')).toBe('team_memory');
    expect(readScopeOf('session')).toBe('session');
    expect(readScopeOf('discard')).toBeNull();
    expect(ownerKey('discard', full)).toBeNull();
  });
});

describe('sees: what a reader reads', () => {
  const reader = { user: 'u-mara', team: 'sre', task: 'inc-42' };

  it('reads its own entries and the shared ones, not another owner’s', () => {
    expect(sees(reader, 'user_identity', 'u-mara')).toBe(true);
    expect(sees(reader, 'user_identity', 'u-jonas')).toBe(false);
    expect(sees(reader, 'user_identity', null)).toBe(true);
    expect(sees(reader, 'session', 'inc-42')).toBe(true);
  });

  it('reads only the shared entries of a scope it gives no value for', () => {
    expect(sees(reader, 'project', 'edge-platform')).toBe(false);
    expect(sees(reader, 'project', null)).toBe(true);
    expect(sees({}, 'agent_repo', 'acc-itops')).toBe(false);
  });

  it('never reads an unreadable owner’s entries', () => {
    expect(sees({ user: UNREADABLE_OWNER }, 'user_identity', UNREADABLE_OWNER)).toBe(false);
  });
});

describe('the reader as input and in the URL', () => {
  it('trims values, drops empty ones and refuses control characters', () => {
    expect(readAsInputSchema.parse({ user: ' u-mara ', team: '', project: null })).toEqual({
      user: 'u-mara',
      team: undefined,
      project: undefined,
      agentRepo: undefined,
      task: undefined,
    });
    expect(readAsInputSchema.safeParse({ user: 'a\u0001b' }).success).toBe(false);
    expect(readAsInputSchema.safeParse({ limits: { project: 5000 } }).success).toBe(false);
  });

  it('round-trips through the query string, in a stable order, leaving out what is not valid', () => {
    const params = readerToParams({ task: 'inc 42', user: 'u-mara', agentRepo: 'itops-agent' }, ' nginx ');
    expect(params.toString()).toBe('user=u-mara&repo=itops-agent&task=inc+42&q=nginx');
    expect(readerFromParams(params)).toEqual({ user: 'u-mara', agentRepo: 'itops-agent', task: 'inc 42' });
    expect(readerFromParams(new URLSearchParams('user=%01&team=sre&project='))).toEqual({ team: 'sre' });
    // What was left out is said, naming the parameter (a 600-character user was dropped in silence).
    expect(readerProblems(new URLSearchParams(`user=%01&team=sre&task=${'x'.repeat(600)}`))).toEqual([
      'user: must not contain control characters, left out',
      `task: must be at most ${LIMITS.idChars} characters, left out`,
    ]);
    expect(readerProblems(params)).toEqual([]);
    expect(isAnonymous(readerFromParams(new URLSearchParams('q=x')))).toBe(true);
    expect(isAnonymous({ project: 'p' })).toBe(false);
  });

  it('is named in words as search_memory names its values, in reading order', () => {
    expect(readerWords({ task: 'inc 42', agentRepo: 'itops-agent', user: 'u-mara', team: '' })).toBe(
      'user u-mara, agent_repo itops-agent, task inc 42',
    );
    expect(readerWords({})).toBe('no one in particular (shared entries only)');
  });
});
