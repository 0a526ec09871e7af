import { describe, expect, it } from 'vitest';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import { convertFile } from './files';

/** A thread's history as the LangGraph SDK's `client.threads.getHistory()` returns it: newest checkpoint first. */
const platform = [
  {
    values: {
      messages: [
        { type: 'human', id: 'm1', content: 'Checkout returns 504 since 09:40.' },
        { type: 'ai', id: 'm2', content: 'Looking at the payments CA rotation.' },
        { type: 'tool', id: 'm3', content: '{"rotated_at":"09:38"}' },
        { type: 'ai', id: 'm4', content: [{ type: 'text', text: 'The CA bundle rotated at 09:38; restart needed.' }] },
      ],
      plan: ['check(ca_rotation)', 'restart(checkout)'],
      constraints: ['no_restart(payments)'],
      incident: { id: 'INC-7', severity: 'high' },
    },
    next: [],
    checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c3' },
    metadata: { source: 'loop', step: 2, writes: { agent: {} }, graph_id: 'oncall' },
    created_at: '2026-11-25T09:41:30+00:00',
  },
  {
    values: {
      messages: [
        { type: 'human', id: 'm1', content: 'Checkout returns 504 since 09:40.' },
        { type: 'ai', id: 'm2', content: 'Looking at the payments CA rotation.' },
        { type: 'tool', id: 'm3', content: '{"rotated_at":"09:38"}' },
      ],
      plan: ['check(ca_rotation)'],
      constraints: ['no_restart(payments)'],
    },
    next: ['agent'],
    checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c2' },
    metadata: { source: 'loop', step: 1, writes: { tools: {} }, graph_id: 'oncall' },
    created_at: '2026-11-25T09:41:10+00:00',
  },
  {
    values: {
      messages: [
        { type: 'human', id: 'm1', content: 'Checkout returns 504 since 09:40.' },
        { type: 'ai', id: 'm2', content: 'Looking at the payments CA rotation.' },
      ],
      plan: ['check(ca_rotation)'],
      constraints: ['no_restart(payments)'],
    },
    next: ['tools'],
    checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c1' },
    metadata: { source: 'loop', step: 0, writes: { agent: {} }, graph_id: 'oncall' },
    created_at: '2026-11-25T09:41:00+00:00',
  },
  {
    values: { messages: [{ type: 'human', id: 'm1', content: 'Checkout returns 504 since 09:40.' }] },
    next: ['agent'],
    checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c0' },
    metadata: { source: 'input', step: -1, writes: { __start__: {} }, graph_id: 'oncall' },
    created_at: '2026-11-25T09:40:59+00:00',
  },
];

describe('LangGraph thread history', () => {
  it('becomes a session: a turn a super-step, its state channels the CCS, its new messages input and output', () => {
    const r = convertFile({ path: 'exports/th-42.json', text: JSON.stringify(platform) });
    if (!('envelopes' in r)) throw new Error(JSON.stringify(r));
    expect(r.kind).toBe('LangGraph thread history');
    const [session, ...turns] = r.envelopes;
    expect(session).toMatchObject({ type: 'session', data: { id: 'th-42', agent: 'oncall' } });
    expect(turns.map((t) => [(t.data as { turn: number }).turn, (t.data as { input: string }).input])).toEqual([
      [1, 'Checkout returns 504 since 09:40.'],
      [2, 'step 1: tools'],
      [3, 'step 2: agent'],
    ]);
    expect(turns.map((t) => (t.data as { output: string }).output)).toEqual([
      'Looking at the payments CA rotation.',
      '',
      'The CA bundle rotated at 09:38; restart needed.',
    ]);
    expect(turns[2]!.data).toMatchObject({
      ccs: {
        plan: ['check(ca_rotation)', 'restart(checkout)'],
        constraints: ['no_restart(payments)'],
        incident: ['id(INC-7)', 'severity(high)'],
      },
      timestamp: '2026-11-25T09:41:30.000Z',
      langgraph: { checkpoint_id: 'c3', step: 2, nodes: ['agent'] },
    });
    // Valid records, as ingest checks them.
    for (const e of r.envelopes) expect(normalizeEnvelope(e).ok, JSON.stringify(e)).toBe(true);
  });

  it('reads graph.getStateHistory() snapshots (config.configurable, LangChain messages) as JSON lines', () => {
    const snap = (step: number, msgs: unknown[]) => ({
      values: { messages: msgs, todo: [`t${step}`] },
      next: [],
      config: { configurable: { thread_id: 'local-1', checkpoint_id: `k${step}` } },
      metadata: { source: 'loop', step, writes: null },
      createdAt: `2026-11-25T10:00:0${step}.000Z`,
    });
    const human = {
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'messages', 'HumanMessage'],
      kwargs: { content: 'hi' },
    };
    const ai = {
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'messages', 'AIMessage'],
      kwargs: { content: 'hello' },
    };
    const text = [snap(1, [human, ai]), snap(0, [human])].map((s) => JSON.stringify(s)).join('\n');
    const r = convertFile({ path: 'local.jsonl', text }, 'my-graph');
    if (!('envelopes' in r)) throw new Error(JSON.stringify(r));
    expect(r.envelopes.map((e) => e.data)).toMatchObject([
      { id: 'local-1', agent: 'my-graph' },
      { turn: 1, input: 'hi', output: '', ccs: { todo: ['t0'] } },
      { turn: 2, input: '', output: 'hello', ccs: { todo: ['t1'] } },
    ]);
  });

  it('takes a second run on the same thread as more turns, its input checkpoint giving the next turn its input', () => {
    const second = [
      {
        ...platform[0],
        values: {
          ...platform[0]!.values,
          messages: [...platform[0]!.values.messages, { type: 'human', id: 'm5', content: 'Restart done?' }],
        },
        checkpoint: { thread_id: 'th-42', checkpoint_id: 'c4' },
        metadata: { source: 'input', step: 3, writes: { __start__: {} }, graph_id: 'oncall' },
      },
      {
        ...platform[0],
        values: {
          ...platform[0]!.values,
          messages: [
            ...platform[0]!.values.messages,
            { type: 'human', id: 'm5', content: 'Restart done?' },
            { type: 'ai', id: 'm6', content: 'Yes.' },
          ],
        },
        checkpoint: { thread_id: 'th-42', checkpoint_id: 'c5' },
        metadata: { source: 'loop', step: 4, writes: { agent: {} }, graph_id: 'oncall' },
      },
    ];
    const r = convertFile({ path: 'th.json', text: JSON.stringify([...second, ...platform]) });
    if (!('envelopes' in r)) throw new Error(JSON.stringify(r));
    expect(
      r.envelopes
        .slice(1)
        .map((e) => [
          (e.data as { turn: number }).turn,
          (e.data as { input: string }).input,
          (e.data as { output: string }).output,
        ]),
    ).toEqual([
      [1, 'Checkout returns 504 since 09:40.', 'Looking at the payments CA rotation.'],
      [2, 'step 1: tools', ''],
      [3, 'step 2: agent', 'The CA bundle rotated at 09:38; restart needed.'],
      [4, 'Restart done?', 'Yes.'],
    ]);
  });

  it('refuses two threads in one file, naming why', () => {
    const two = [platform[0], { ...platform[1], checkpoint: { thread_id: 'other', checkpoint_id: 'x' } }];
    expect(convertFile({ path: 'x.json', text: JSON.stringify(two) })).toEqual({
      error: 'checkpoints of 2 threads in one file: one thread a file',
    });
  });
});
