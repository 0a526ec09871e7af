import { StateGraph, MessagesAnnotation, START, END } from '@langchain/langgraph';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestResult } from '@/lib/ingest/contract';
import { approveAndAsk, oncallGraph, runUntilApproval } from '@/lib/import/fixtures/langgraph-oncall';
import { Mnemoscope, recordLangGraph } from './index';

type Rec = { type: string; data: Record<string, unknown> };

/** An ingest endpoint that keeps what it stored and answers as the server does: accepted, duplicate or conflict. */
function fakeServer() {
  const stored = new Map<string, string>();
  const fetchImpl = (async (_url: string, init: RequestInit) => {
    const records = String(init.body)
      .split('\n')
      .map((l) => JSON.parse(l) as Rec);
    const results: IngestResult[] = records.map((r, index) => {
      const id = r.type === 'session' ? String(r.data.id) : `${r.data.session_id}/${r.data.turn}`;
      const k = `${r.type}:${id}`;
      const body = JSON.stringify(r.data);
      const had = stored.get(k);
      if (had === undefined) stored.set(k, body);
      const status = had === undefined ? 'accepted' : had === body ? 'duplicate' : 'conflict';
      return status === 'conflict'
        ? { index, status, type: r.type as 'turn', id, fields: ['data'], message: 'other content' }
        : { index, status, type: r.type as 'turn', id };
    });
    return Response.json({ results });
  }) as typeof fetch;
  const turns = () =>
    [...stored.entries()]
      .filter(([k]) => k.startsWith('turn:'))
      .map(([, v]) => JSON.parse(v) as { turn: number; langgraph: { nodes: string[] }; state: unknown })
      .sort((a, b) => a.turn - b.turn);
  return { fetchImpl, stored, turns };
}

const clients: Mnemoscope[] = [];
function client(fetchImpl: typeof fetch) {
  const c = new Mnemoscope({
    url: 'http://mnemo.test',
    apiKey: 'k',
    fetch: fetchImpl,
    flushOnExit: false,
    flushIntervalMs: 10,
    onError: () => {},
  });
  clients.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.shutdown(100)));
});

describe('recordLangGraph', () => {
  it('sends a real graph’s thread as a session; again, nothing new; after more runs, only the new turns', async () => {
    const server = fakeServer();
    const mnemo = client(server.fetchImpl);
    const graph = oncallGraph();
    const config = { configurable: { thread_id: 'oncall-sdk' } };
    await runUntilApproval(graph, config);

    const first = await recordLangGraph(mnemo, graph, config, { agent: 'oncall-graph' });
    expect(first).toEqual({ sessionId: 'oncall-sdk', checkpoints: 5, turns: 3, queued: 4 });
    await mnemo.flush();
    expect(mnemo.stats()).toMatchObject({ accepted: 4, duplicates: 0, conflicts: 0, invalid: 0 });

    await recordLangGraph(mnemo, graph, config, { agent: 'oncall-graph' });
    await mnemo.flush();
    expect(mnemo.stats()).toMatchObject({ accepted: 4, duplicates: 4, conflicts: 0 });

    await approveAndAsk(graph, config);
    const later = await recordLangGraph(mnemo, graph, config, { agent: 'oncall-graph' });
    expect(later).toMatchObject({ turns: 7, queued: 8 });
    await mnemo.flush();
    expect(mnemo.stats()).toMatchObject({ accepted: 8, duplicates: 8, conflicts: 0, rejected: 0 });
    expect(server.turns().map((t) => [t.turn, t.langgraph.nodes.join()])).toEqual([
      [1, 'agent'],
      [2, 'tools'],
      [3, 'agent'],
      [4, 'approve'],
      [5, 'tools'],
      [6, 'agent'],
      [7, 'agent'],
    ]);
    expect(JSON.parse(server.stored.get('session:oncall-sdk')!)).toMatchObject({
      agent: 'oncall-graph',
      domain: 'langgraph',
    });
  });

  it('takes anything with getStateHistory, and names the session as told', async () => {
    const server = fakeServer();
    const mnemo = client(server.fetchImpl);
    const snapshot = (step: number, source: string, values: Record<string, unknown>) => ({
      values,
      next: step ? ['n'] : [],
      tasks: step ? [{ id: 't', name: 'n', interrupts: [], error: new RangeError('out of range') }] : [],
      config: { configurable: { thread_id: 'plain', checkpoint_id: `c${step}` } },
      metadata: { source, step, parents: {} },
      createdAt: `2026-11-25T10:00:0${step + 1}.000Z`,
      // Not JSON as it is (nor is the task's error): what the helper makes of them.
      counter: BigInt(step),
    });
    const source = {
      async *getStateHistory(config: { configurable: { thread_id: string } }) {
        expect(config.configurable.thread_id).toBe('plain');
        yield snapshot(1, 'loop', { notes: ['b'] });
        yield snapshot(0, 'loop', { notes: ['a'] });
      },
    };
    const r = await recordLangGraph(
      mnemo,
      source,
      { configurable: { thread_id: 'plain' } },
      {
        sessionId: 'plain-session',
        agent: 'notes-bot',
        title: 'Notes',
      },
    );
    expect(r).toEqual({ sessionId: 'plain-session', checkpoints: 2, turns: 2, queued: 3 });
    await mnemo.flush();
    expect(JSON.parse(server.stored.get('session:plain-session')!)).toMatchObject({
      agent: 'notes-bot',
      title: 'Notes',
    });
    expect(server.turns().map((t) => t.state)).toEqual([{ notes: ['a'] }, { notes: ['b'] }]);
    expect(server.turns()[1]!.langgraph).toMatchObject({
      next: ['n'],
      tasks: [{ name: 'n', error: 'RangeError: out of range' }],
    });
  });

  it('says what is wrong: no thread, no checkpointer, a checkpoint not JSON; an empty thread: nothing', async () => {
    const mnemo = client(fakeServer().fetchImpl);
    const graph = oncallGraph();
    await expect(recordLangGraph(mnemo, graph, { configurable: {} })).rejects.toThrow(
      'recordLangGraph: config.configurable.thread_id names no thread to record',
    );
    const bare = new StateGraph(MessagesAnnotation)
      .addNode('n', () => ({}))
      .addEdge(START, 'n')
      .addEdge('n', END)
      .compile();
    await expect(recordLangGraph(mnemo, bare, { configurable: { thread_id: 't' } })).rejects.toThrow(/checkpointer/i);
    const cyclic: Record<string, unknown> = { values: {}, metadata: { step: 0 } };
    cyclic.self = cyclic;
    const loops = {
      async *getStateHistory() {
        yield cyclic;
      },
    };
    await expect(recordLangGraph(mnemo, loops, { configurable: { thread_id: 'loop' } })).rejects.toThrow(
      /^recordLangGraph: a checkpoint of thread loop is not JSON: /,
    );
    expect(await recordLangGraph(mnemo, graph, { configurable: { thread_id: 'never-ran' } })).toEqual({
      sessionId: 'never-ran',
      checkpoints: 0,
      turns: 0,
      queued: 0,
    });
    expect(mnemo.stats().buffered).toBe(0);
  });
});
