import { describe, expect, it } from 'vitest';
import { emptyEntities } from './entities';
import {
  actionRow,
  artifactRows,
  deadEndRows,
  policyOverrideRows,
  ppHistoryRows,
  stateEntities,
  type AgentEntities,
} from './ingest-rows';
import type { UcsStateParts } from './state';

const parts = (t: number, artifacts: unknown[]): UcsStateParts => ({
  t,
  version: null,
  thetaBins: 1,
  phiBins: 1,
  fields: {},
  ports: null,
  graph: null,
  artifacts,
  policy: null,
  pp: null,
  trace: null,
  cursor: null,
  injectionSchedule: null,
  rest: {},
});

const state = (t: number, artifacts: unknown[]) =>
  stateEntities({ type: 'ucs_state', agentId: 'a1', parts: parts(t, artifacts), source: null });

describe('UCS ingest rows', () => {
  it('keeps one artifact per agent and id, from the latest state, whatever the order states arrive in', () => {
    const rows = artifactRows([
      state(7, [{ id: 'x', kind: 'note', score: 0.9 }]),
      state(3, [{ id: 'x', kind: 'draft', score: 0.1 }, { id: 'y', kind: 'note' }, { kind: 'no id' }]),
    ]);
    expect(rows).toEqual([
      { agentId: 'a1', id: 'x', kind: 'note', payload: {}, score: 0.9, createdT: null, meta: null, lastSeenT: 7 },
      { agentId: 'a1', id: 'y', kind: 'note', payload: {}, score: null, createdT: null, meta: null, lastSeenT: 3 },
    ]);
  });

  it('pulls typed fields out of the JSON, keeping the JSON whole', () => {
    const doc: AgentEntities = {
      ...emptyEntities(),
      agentId: 'a1',
      t: null,
      deadEnds: [
        { id: 4, topic: 'retry storms', why_closed: 'no signal', capabilities: ['net', 3] },
        { id: 4, topic: 'retry storms', why_closed: 'still no signal' },
      ],
      ppHistory: [{ t: 2, pp: { route: 0.5 }, health: 'n/a' }, { pp: {} }],
      policyOverrides: [{ t: 5, from: 'a', to: 'b', reason: 'faster' }],
    };
    const [dead] = deadEndRows([doc]);
    expect(dead).toMatchObject({ id: '4', whyClosed: 'still no signal', occurrences: 2, capabilities: [] });
    expect(ppHistoryRows([doc])).toEqual([
      { agentId: 'a1', t: 2, ts: null, pp: { route: 0.5 }, health: null, data: doc.ppHistory[0] },
    ]);
    expect(policyOverrideRows([doc])[0]).toMatchObject({ key: '5|a|b||faster', t: 5, fromNode: 'a', toNode: 'b' });
  });

  it('reads an action line: strings, a numeric reward and a boolean route, else null', () => {
    const data = { t: 9, action: 'route', outcome: 'ok', reward: '1', routed: true, cursor_before: 'n1' };
    expect(actionRow({ type: 'ucs_action', agentId: 'a1', t: 9, data })).toMatchObject({
      t: 9,
      action: 'route',
      outcome: 'ok',
      reward: null,
      routed: true,
      cursorBefore: 'n1',
      cursorAfter: null,
      data,
    });
  });
});
