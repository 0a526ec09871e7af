import { describe, expect, it } from 'vitest';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import { convertFile } from './files';
import { approveAndAsk, historyOf, oncallGraph, runUntilApproval } from './fixtures/langgraph-oncall';
import {
  bounded,
  langGraphEnvelopes,
  langGraphTurnOf,
  NOT_STORED,
  STATE_BOUNDS,
  type LangGraphTurn,
} from './langgraph';

type TurnData = {
  turn: number;
  input: string;
  output: string;
  ccs: unknown;
  timestamp?: string;
  state: Record<string, unknown>;
  state_changes: number;
  langgraph: LangGraphTurn;
};
const turnsOf = (envelopes: { type: string; data: unknown }[]) =>
  envelopes.filter((e) => e.type === 'turn').map((e) => e.data as TurnData);
/** What `graph.getStateHistory()` gives, as a file holds it (and as the SDK's recordLangGraph reads it). */
const asJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('a real LangGraph thread (the @langchain/langgraph package, run offline)', () => {
  it('becomes a session: a turn a super-step that ran nodes, the graph state as JSON, no CCS', async () => {
    const g = oncallGraph();
    const config = { configurable: { thread_id: 'oncall-1' } };
    await runUntilApproval(g, config);
    await approveAndAsk(g, config);
    const history = await historyOf(g, config);
    // LangGraph JS 1.x: no `writes` in the metadata; the input and __start__ checkpoints, and one per node step.
    expect(history.every((s) => !('writes' in (s.metadata ?? {})))).toBe(true);
    expect(history.map((s) => s.metadata?.source).reverse()).toEqual([
      ...['input', 'loop', 'loop', 'loop', 'loop', 'loop', 'loop', 'loop'],
      ...['input', 'loop', 'loop'],
    ]);

    const r = convertFile({ path: 'oncall-1.json', text: JSON.stringify(history) });
    if (!('envelopes' in r)) throw new Error(JSON.stringify(r));
    expect(r.kind).toBe('LangGraph thread history');
    expect(r.envelopes[0]).toMatchObject({ type: 'session', data: { id: 'oncall-1', agent: 'langgraph' } });
    const turns = turnsOf(r.envelopes);
    expect(turns.map((t) => [t.turn, t.langgraph.step, t.langgraph.nodes])).toEqual([
      [1, 1, ['agent']],
      [2, 2, ['tools']],
      [3, 3, ['agent']],
      [4, 4, ['approve']],
      [5, 5, ['tools']],
      [6, 6, ['agent']],
      [7, 9, ['agent']],
    ]);
    expect(turns.map((t) => t.input)).toEqual([
      'Disk at 95% on db-7: free some space.',
      'step 2: tools',
      'step 3: agent',
      'step 4: approve',
      'step 5: tools',
      'step 6: agent',
      'Is it stable now?',
    ]);
    // The AI messages out, their tool calls named; a tool's result; a node that wrote no message.
    expect(turns[0]!.output).toBe('Checking disk usage on db-7.\n→ disk_usage({"host":"db-7"})');
    expect(turns[1]!.output).toMatch(/^\[tool disk_usage\] \{"host":"db-7","used_pct":95/);
    expect(turns[3]!.output).toBe('approve wrote notes');
    expect(turns[6]!.output).toBe('Stable: 61% for the last 10 minutes, WAL at 2 GB.');
    expect(turns.every((t) => JSON.stringify(t.ccs) === '{}')).toBe(true);
    // How many paths of the state each step changed (the first: its channels, all new).
    expect(turns.map((t) => t.state_changes)).toEqual([3, 2, 2, 1, 2, 2, 3]);

    // The graph state as it is, messages as the LangGraph API gives them ({type, content, ...}).
    const last = turns[6]!;
    expect(last.state.plan).toEqual([
      { step: 'measure disk', done: true },
      { step: 'free WAL', done: true },
      { step: 'confirm stable', done: true },
    ]);
    expect((last.state.messages as unknown[]).length).toBe(8);
    expect((last.state.messages as unknown[])[3]).toMatchObject({
      type: 'ai',
      tool_calls: [{ name: 'drop_replication_slot', args: { host: 'db-7', slot: 'replica_old' } }],
    });
    expect(last.state).toEqual(
      expect.objectContaining({ notes: expect.arrayContaining(['drop_replication_slot approved by on-call']) }),
    );
    expect(turns[0]!.state.plan).toEqual([
      { step: 'measure disk', done: false },
      { step: 'free WAL', done: false },
      { step: 'confirm stable', done: false },
    ]);

    // The step that asked for approval: what comes next, and the interrupt on the pending task.
    expect(turns[2]!.langgraph).toMatchObject({
      next: ['approve'],
      tasks: [{ name: 'approve', interrupts: [{ value: { question: 'Drop replication slot replica_old on db-7?' } }] }],
      writes: { agent: ['messages', 'plan'] },
      messages_in: [{ type: 'tool', name: 'disk_usage' }],
      messages_out: [{ type: 'ai', tool_calls: [{ name: 'drop_replication_slot' }] }],
    });
    expect(turns[2]!.langgraph.tasks[0]).not.toHaveProperty('result');
    expect(turns[6]!.langgraph).toMatchObject({ next: [], tasks: [], messages_in: [{ type: 'human' }] });
    // Checkpoints: each turn names its own and its parent's, which is a checkpoint of the thread.
    const ids = new Set(history.map((s) => s.config.configurable?.checkpoint_id));
    for (const t of turns) {
      expect(ids.has(t.langgraph.checkpoint_id)).toBe(true);
      expect(ids.has(t.langgraph.parent_checkpoint_id)).toBe(true);
    }
    expect(turns[1]!.langgraph.parent_checkpoint_id).toBe(turns[0]!.langgraph.checkpoint_id);
    // Times are the checkpoints' own, in order.
    const times = turns.map((t) => Date.parse(t.timestamp!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Valid records, as ingest checks them; the state stays in the turn's extra fields.
    for (const e of r.envelopes) expect(normalizeEnvelope(e).ok, JSON.stringify(e)).toBe(true);
  });

  it('is idempotent: recording again gives the same records, and after more runs only adds turns', async () => {
    const g = oncallGraph();
    const config = { configurable: { thread_id: 'oncall-2' } };
    await runUntilApproval(g, config);
    const interrupted = langGraphEnvelopes(asJson(await historyOf(g, config)), { fallbackId: 'x' });
    const again = langGraphEnvelopes(asJson(await historyOf(g, config)), { fallbackId: 'x' });
    expect(again).toEqual(interrupted);
    if ('error' in interrupted) throw new Error(interrupted.error);
    expect(turnsOf(interrupted).map((t) => t.turn)).toEqual([1, 2, 3]);
    await approveAndAsk(g, config);
    const later = langGraphEnvelopes(asJson(await historyOf(g, config)), { fallbackId: 'x' });
    if ('error' in later) throw new Error(later.error);
    // The session and the three turns already sent, exactly as they were; four more.
    expect(later.slice(0, interrupted.length)).toEqual(interrupted);
    expect(turnsOf(later.slice(interrupted.length)).map((t) => t.turn)).toEqual([4, 5, 6, 7]);
  });

  it('numbers an update and a replay from an earlier checkpoint after what was there; a fork is no turn', async () => {
    const g = oncallGraph();
    const config = { configurable: { thread_id: 'oncall-3' } };
    await runUntilApproval(g, config);
    await approveAndAsk(g, config);
    const before = langGraphEnvelopes(asJson(await historyOf(g, config)), { fallbackId: 'x' });
    if ('error' in before) throw new Error(before.error);
    await g.updateState(config, { notes: ['paged the storage team'] });
    // Time travel: run again from the checkpoint after the approval. The tools run; the scripted model has no answer
    // left, so the agent step fails, and its error stays on the pending task.
    const approved = (await historyOf(g, config)).find((s) => s.metadata?.step === 4)!;
    await expect(g.invoke(null, approved.config)).rejects.toThrow();
    const after = langGraphEnvelopes(asJson(await historyOf(g, config)), { fallbackId: 'x' });
    if ('error' in after) throw new Error(after.error);
    expect(after.slice(0, before.length)).toEqual(before);
    const more = turnsOf(after.slice(before.length));
    expect(more[0]).toMatchObject({ turn: 8, input: 'step 10: update', langgraph: { source: 'update', nodes: [] } });
    expect(more[0]!.state.notes).toContain('paged the storage team');
    // The replay: LangGraph copies the checkpoint (source "fork", no turn), then the tools node runs from there.
    expect(more.slice(1).map((t) => [t.turn, t.langgraph.source, t.langgraph.nodes])).toEqual([[9, 'loop', ['tools']]]);
    expect(more[1]!.langgraph.tasks).toEqual([
      { id: expect.any(String), name: 'agent', interrupts: [], error: expect.stringMatching(/\w+: .+/) },
    ]);
    expect(more[1]!.state.notes).not.toContain('paged the storage team');
  });
});

/** A thread's history as the LangGraph SDK's `client.threads.getHistory()` returns it: newest checkpoint first. */
const platform = [
  {
    values: {
      messages: [
        { type: 'human', id: 'm1', content: 'Checkout returns 504 since 09:40.' },
        { type: 'ai', id: 'm2', content: 'Looking at the payments CA rotation.' },
        { type: 'tool', id: 'm3', name: 'ca_status', content: '{"rotated_at":"09:38"}' },
        { type: 'ai', id: 'm4', content: [{ type: 'text', text: 'The CA bundle rotated at 09:38; restart needed.' }] },
      ],
      plan: ['check(ca_rotation)', 'restart(checkout)'],
      incident: { id: 'INC-7', severity: 'high' },
    },
    next: [],
    tasks: [],
    checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c3' },
    parent_checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c2' },
    metadata: { source: 'loop', step: 2, writes: { agent: { messages: [] } }, graph_id: 'oncall' },
    created_at: '2026-11-25T09:41:30+00:00',
  },
  {
    values: {
      messages: [
        { type: 'human', id: 'm1', content: 'Checkout returns 504 since 09:40.' },
        { type: 'ai', id: 'm2', content: 'Looking at the payments CA rotation.' },
        { type: 'tool', id: 'm3', name: 'ca_status', content: '{"rotated_at":"09:38"}' },
      ],
      plan: ['check(ca_rotation)'],
    },
    next: ['agent'],
    tasks: [{ id: 't3', name: 'agent', error: null, interrupts: [], result: { messages: [] } }],
    checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c2' },
    parent_checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c1' },
    metadata: { source: 'loop', step: 1, writes: { tools: { messages: [] } }, graph_id: 'oncall' },
    created_at: '2026-11-25T09:41:10+00:00',
  },
  {
    values: {
      messages: [
        { type: 'human', id: 'm1', content: 'Checkout returns 504 since 09:40.' },
        { type: 'ai', id: 'm2', content: 'Looking at the payments CA rotation.' },
      ],
      plan: ['check(ca_rotation)'],
    },
    next: ['tools'],
    tasks: [{ id: 't2', name: 'tools', error: 'TimeoutError: ca_status took 30 s', interrupts: [] }],
    checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c1' },
    parent_checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c0' },
    metadata: { source: 'loop', step: 0, writes: { agent: { messages: [], plan: [] } }, graph_id: 'oncall' },
    created_at: '2026-11-25T09:41:00+00:00',
  },
  {
    values: { messages: [{ type: 'human', id: 'm1', content: 'Checkout returns 504 since 09:40.' }] },
    next: ['agent'],
    tasks: [],
    checkpoint: { thread_id: 'th-42', checkpoint_ns: '', checkpoint_id: 'c0' },
    parent_checkpoint: null,
    metadata: { source: 'input', step: -1, writes: { __start__: {} }, graph_id: 'oncall' },
    created_at: '2026-11-25T09:40:59+00:00',
  },
];

describe('a LangGraph thread history saved as JSON', () => {
  it('reads the LangGraph SDK / Platform shape (checkpoint, created_at, metadata.writes, string errors)', () => {
    const r = convertFile({ path: 'exports/th-42.json', text: JSON.stringify(platform) });
    if (!('envelopes' in r)) throw new Error(JSON.stringify(r));
    const [session, ...rest] = r.envelopes;
    expect(session).toMatchObject({ type: 'session', data: { id: 'th-42', agent: 'oncall' } });
    const turns = turnsOf(rest);
    expect(turns.map((t) => [t.turn, t.input, t.output])).toEqual([
      [1, 'Checkout returns 504 since 09:40.', 'Looking at the payments CA rotation.'],
      [2, 'step 1: tools', '[tool ca_status] {"rotated_at":"09:38"}'],
      [3, 'step 2: agent', 'The CA bundle rotated at 09:38; restart needed.'],
    ]);
    expect(turns[2]).toMatchObject({
      ccs: {},
      state: { plan: ['check(ca_rotation)', 'restart(checkout)'], incident: { id: 'INC-7', severity: 'high' } },
      timestamp: '2026-11-25T09:41:30.000Z',
      langgraph: { checkpoint_id: 'c3', parent_checkpoint_id: 'c2', step: 2, nodes: ['agent'] },
    });
    expect(turns[0]!.langgraph.tasks).toEqual([
      { id: 't2', name: 'tools', interrupts: [], error: 'TimeoutError: ca_status took 30 s' },
    ]);
    expect(turns[0]!.langgraph.writes).toEqual({ agent: ['messages', 'plan'] });
    for (const e of r.envelopes) expect(normalizeEnvelope(e).ok, JSON.stringify(e)).toBe(true);
  });

  it('reads graph.getStateHistory() snapshots without parents as JSON lines, messages in LangChain form', () => {
    const lc = (cls: string, content: string) => ({
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'messages', cls],
      kwargs: { content },
    });
    const snap = (step: number, msgs: unknown[]) => ({
      values: { messages: msgs, todo: [`t${step}`] },
      next: [],
      config: { configurable: { thread_id: 'local-1', checkpoint_id: `k${step}` } },
      metadata: { source: 'loop', step, writes: null },
      createdAt: `2026-11-25T10:00:0${step}.000Z`,
    });
    const human = lc('HumanMessage', 'hi');
    const text = [snap(1, [human, lc('AIMessageChunk', 'hello')]), snap(0, [human])]
      .map((s) => JSON.stringify(s))
      .join('\n');
    const r = convertFile({ path: 'local.jsonl', text }, 'my-graph');
    if (!('envelopes' in r)) throw new Error(JSON.stringify(r));
    expect(r.envelopes.map((e) => e.data)).toMatchObject([
      { id: 'local-1', agent: 'my-graph' },
      { turn: 1, input: 'step 0: loop', output: '[human] hi', state: { todo: ['t0'] } },
      {
        turn: 2,
        input: 'hi',
        output: 'hello',
        state: {
          messages: [
            { type: 'human', content: 'hi' },
            { type: 'ai', content: 'hello' },
          ],
          todo: ['t1'],
        },
      },
    ]);
  });

  it('refuses two threads in one file, naming why', () => {
    const two = [platform[0], { ...platform[1], checkpoint: { thread_id: 'other', checkpoint_id: 'x' } }];
    expect(convertFile({ path: 'x.json', text: JSON.stringify(two) })).toEqual({
      error: 'checkpoints of 2 threads in one file: one thread a file',
    });
  });

  it('reads `langgraph` of turns imported before the state view, and nothing else under that name', () => {
    expect(langGraphTurnOf({ checkpoint_id: 'c1', step: 0, source: 'loop', nodes: ['agent'], next: [] })).toEqual({
      checkpoint_id: 'c1',
      parent_checkpoint_id: null,
      step: 0,
      source: 'loop',
      nodes: ['agent'],
      writes: {},
      next: [],
      tasks: [],
      messages_in: [],
      messages_out: [],
    });
    expect(langGraphTurnOf('agent')).toBeNull();
    expect(langGraphTurnOf({ step: 'one' })).toBeNull();
  });
});

describe('a graph state is stored bounded', () => {
  it('clips long strings, drops the oldest items of the largest array in place, and says what it cut', () => {
    const long = 'x'.repeat(STATE_BOUNDS.stringChars + 500);
    const messages = Array.from({ length: 60 }, (_, i) => ({ type: 'human', id: `m${i}`, content: `${i} ${long}` }));
    const { value, cut } = bounded({ messages, plan: ['a', 'b'], note: long });
    const v = value as { messages: unknown[]; plan: string[]; note: string };
    expect(JSON.stringify(v).length).toBeLessThanOrEqual(STATE_BOUNDS.chars);
    expect(v.note).toBe(`${'x'.repeat(STATE_BOUNDS.stringChars)}… [500 more characters not stored]`);
    // Every index kept; the oldest messages stand as NOT_STORED, the latest are whole (clipped text).
    expect(v.messages).toHaveLength(60);
    expect(v.messages[0]).toBe(NOT_STORED);
    expect(v.messages[59]).toMatchObject({ id: 'm59' });
    const dropped = v.messages.filter((m) => m === NOT_STORED).length;
    expect(dropped).toBeGreaterThan(40);
    expect(v.messages.slice(dropped).every((m) => m !== NOT_STORED)).toBe(true);
    expect(v.plan).toEqual(['a', 'b']);
    expect(cut).toEqual({
      chars: JSON.stringify({ messages, plan: ['a', 'b'], note: long }).length,
      strings_clipped: 61,
      items_dropped: dropped,
      deep_cut: 0,
    });
  });

  it('cuts nesting too deep to store, and replaces a state no array can shrink with a note', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 50; i++) deep = { down: deep };
    const d = bounded({ deep });
    expect(JSON.stringify(d.value)).toContain(NOT_STORED);
    expect(d.cut?.deep_cut).toBe(1);
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'y'.repeat(3_000)]));
    const w = bounded(wide);
    expect(w.value).toEqual({
      [NOT_STORED]: `the value is ${JSON.stringify(wide).length} characters of JSON, more than 64000`,
    });
    expect(w.cut).toMatchObject({ whole: true });
    expect(bounded({ a: 1 }).cut).toBeNull();
  });

  it('keeps a turn with a huge state a valid record, its bounds on the turn', () => {
    const big = platform.map((s) => ({
      ...s,
      values: { ...s.values, log: Array.from({ length: 500 }, (_, i) => ({ line: i, text: 'z'.repeat(300) })) },
    }));
    const r = langGraphEnvelopes(big, { fallbackId: 'x' });
    if ('error' in r) throw new Error(r.error);
    const t = turnsOf(r)[0]!;
    expect(JSON.stringify(t.state).length).toBeLessThanOrEqual(STATE_BOUNDS.chars);
    expect(t.langgraph.bounded).toMatchObject({ strings_clipped: 0, deep_cut: 0 });
    expect(t.langgraph.bounded!.items_dropped).toBeGreaterThan(200);
    for (const e of r) expect(normalizeEnvelope(e).ok).toBe(true);
  });
});
