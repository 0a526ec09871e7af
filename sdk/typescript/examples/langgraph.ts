// A LangGraph agent recorded with @mnemoscope/sdk: an on-call graph (an agent node calling a chat model, a tools node,
// an approval node that interrupts the run) runs offline with a scripted chat model, and recordLangGraph sends its
// thread's checkpoints as a session — every super-step a turn, the graph state as the turn's state.
// MNEMOSCOPE_URL (the SDK's default: port 3000 on this machine) and MNEMOSCOPE_API_KEY come from the environment.
//
//   npx tsx sdk/typescript/examples/langgraph.ts [thread-id]
//
// The thread's checkpoints are kept in a file (MemorySaver's storage, standing in for a database checkpointer), so a
// second run finds the thread already run and records it again: nothing new is stored.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import {
  Annotation,
  Command,
  END,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { Mnemoscope, recordLangGraph } from '@mnemoscope/sdk';

const thread = process.argv[2] ?? 'langgraph-disk-alarm';

// The graph state: the conversation, the agent's plan, and notes of what the tools found.
const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  plan: Annotation<{ step: string; done: boolean }[]>({ reducer: (_, next) => next, default: () => [] }),
  notes: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
});

// A chat model that answers from a script, offline: the replies and tool calls a real model would make.
const model = fakeModel()
  .respond(
    new AIMessage({
      content: 'Checking disk usage on db-7.',
      tool_calls: [{ name: 'disk_usage', args: { host: 'db-7' }, id: 'call_du' }],
    }),
  )
  .respond(
    new AIMessage({
      content: 'WAL holds 41 GB for the stale slot replica_old; dropping it needs approval.',
      tool_calls: [{ name: 'drop_replication_slot', args: { host: 'db-7', slot: 'replica_old' }, id: 'call_drop' }],
    }),
  )
  .respond(new AIMessage('Dropped replica_old: disk at 61% on db-7.'))
  .respond(new AIMessage('Stable: 61% for the last 10 minutes, WAL at 2 GB.'));

const tools: Record<string, (args: Record<string, unknown>) => Record<string, unknown>> = {
  disk_usage: ({ host }) => ({ host, used_pct: 95, wal_gb: 41, stale_slot: 'replica_old' }),
  drop_replication_slot: ({ host, slot }) => ({ host, slot, dropped: true, used_pct: 61 }),
};
const toolCalls = (m: BaseMessage | undefined) => (m && AIMessage.isInstance(m) ? (m.tool_calls ?? []) : []);

/** MemorySaver kept in a file between runs; a real agent would use a database checkpointer (Postgres, SQLite). */
class FileSaver extends MemorySaver {
  constructor(readonly file: string) {
    super();
    if (!existsSync(file)) return;
    const saved = JSON.parse(readFileSync(file, 'utf8'), (_k, v) =>
      v && typeof v === 'object' && typeof v.base64 === 'string' ? new Uint8Array(Buffer.from(v.base64, 'base64')) : v,
    );
    this.storage = saved.storage;
    this.writes = saved.writes;
  }

  save() {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const bytes = (_k: string, v: unknown) =>
      v instanceof Uint8Array ? { base64: Buffer.from(v).toString('base64') } : v;
    writeFileSync(this.file, JSON.stringify({ storage: this.storage, writes: this.writes }, bytes));
  }
}

const checkpointer = new FileSaver(path.join(os.tmpdir(), 'mnemoscope-examples', `langgraph-${thread}.json`));
const graph = new StateGraph(State)
  .addNode('agent', async (s) => {
    const reply = await model.invoke(s.messages);
    const ran = new Set(s.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.name));
    return {
      messages: [reply],
      plan: [
        { step: 'measure disk', done: ran.has('disk_usage') },
        { step: 'free WAL', done: ran.has('drop_replication_slot') },
        { step: 'confirm stable', done: s.messages.filter((m) => HumanMessage.isInstance(m)).length > 1 },
      ],
    };
  })
  .addNode('tools', async (s) => {
    const results = toolCalls(s.messages.at(-1)).map((c) => ({ c, r: tools[c.name]!(c.args) }));
    return {
      messages: results.map(
        ({ c, r }) => new ToolMessage({ content: JSON.stringify(r), tool_call_id: c.id!, name: c.name }),
      ),
      notes: results.map(({ c, r }) => `${c.name}: ${JSON.stringify(r)}`),
    };
  })
  // Dropping a replication slot waits for a person: interrupt() pauses the run until it is resumed.
  .addNode('approve', async () => {
    const answer = interrupt({ question: 'Drop replication slot replica_old on db-7?' });
    return { notes: [`drop_replication_slot ${String(answer)} by on-call`] };
  })
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', (s) => {
    const calls = toolCalls(s.messages.at(-1));
    return !calls.length ? END : calls.some((c) => c.name.startsWith('drop_')) ? 'approve' : 'tools';
  })
  .addEdge('approve', 'tools')
  .addEdge('tools', 'agent')
  .compile({ checkpointer });

const mnemo = new Mnemoscope({ flushIntervalMs: 200 });
const config = { configurable: { thread_id: thread } };
const session = { agent: 'oncall-graph', title: 'Disk at 95% on db-7 (LangGraph)' };

// What was sent while the run waited for approval: recorded again at the end, it is already stored then.
let early = 0;
if (!(await checkpointer.getTuple(config))) {
  await graph.invoke({ messages: [new HumanMessage('Disk at 95% on db-7: free some space.')] }, config);
  // Recorded while the run waits for approval: the last turn holds the pending task and its interrupt.
  await recordLangGraph(mnemo, graph, config, session);
  await mnemo.flush();
  early = mnemo.stats().accepted;
  // Approved: the run goes on from where it stopped. Then a second run on the same thread.
  await graph.invoke(new Command({ resume: 'approved' }), config);
  await graph.invoke({ messages: [new HumanMessage('Is it stable now?')] }, config);
  checkpointer.save();
}
// Recorded again: the turns already sent are duplicates, only the new ones are stored.
const recorded = await recordLangGraph(mnemo, graph, config, session);

const stats = await mnemo.shutdown(15_000);
console.log(
  `session ${recorded.sessionId}: ${recorded.turns} turns from ${recorded.checkpoints} checkpoints → ` +
    `accepted ${stats.accepted}, already stored ${stats.duplicates}, ` +
    `rejected ${stats.rejected + stats.invalid + stats.conflicts}, dropped ${stats.dropped}` +
    (early ? ` (the ${early} already stored were sent earlier in this run, while it waited for approval)` : ''),
);
if (stats.rejected || stats.invalid || stats.conflicts || stats.dropped) {
  console.error(`mnemoscope: not everything arrived${stats.lastError ? `: ${stats.lastError}` : ''}`);
  process.exitCode = 1;
}
