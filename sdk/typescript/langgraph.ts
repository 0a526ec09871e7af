/**
 * Records a LangGraph thread as a Mnemoscope session: its checkpoint history, read with the graph's own
 * `getStateHistory(config)`, one turn per super-step (the graph state as the turn's state, the node(s) that ran, the
 * messages in and out, pending tasks and interrupts), converted as the file import converts a saved history
 * (lib/import/langgraph.ts). No dependency on LangGraph: the graph is anything with `getStateHistory`.
 */
import type { Mnemoscope } from './client';
import { langGraphEnvelopes } from '@/lib/import/langgraph';

/**
 * What `recordLangGraph` needs of a graph: a compiled LangGraph graph with a checkpointer
 * (`new StateGraph(...).compile({ checkpointer })`), or anything else whose `getStateHistory(config)` yields its
 * state snapshots.
 */
export interface LangGraphHistorySource<C> {
  getStateHistory(config: C): AsyncIterable<unknown>;
}

/** A LangGraph run config: `{ configurable: { thread_id } }` names the thread to record. */
export interface LangGraphThreadConfig {
  configurable?: Record<string, unknown>;
}

export interface RecordLangGraphOptions {
  /** The session id; default the thread id. */
  sessionId?: string;
  /** The agent; default the checkpoints' `graph_id` when they have one, else `langgraph`. */
  agent?: string;
  /** Default `LangGraph thread <id>`. */
  title?: string;
}

export interface LangGraphRecording {
  sessionId: string;
  /** Checkpoints read from the history. */
  checkpoints: number;
  /** The turns they make: one per super-step in which graph nodes ran, numbered from 1 in the order they were made. */
  turns: number;
  /** Records queued for sending (the session and its turns); a record refused before sending goes to `onRejected`. */
  queued: number;
}

/** A snapshot as JSON: messages as LangChain serialises them, an error as its name and message, a bigint as text. */
function asJson(snapshot: unknown, thread: string): unknown {
  try {
    return JSON.parse(
      JSON.stringify(snapshot, (_k, v: unknown) =>
        typeof v === 'bigint' ? v.toString() : v instanceof Error ? { name: v.name, message: v.message } : v,
      ),
    );
  } catch (e) {
    throw new Error(`recordLangGraph: a checkpoint of thread ${thread} is not JSON: ${(e as Error).message}`, {
      cause: e,
    });
  }
}

/**
 * Sends a LangGraph thread's checkpoint history as a session, through `mnemo` (queued and sent in the background like
 * every record: `await mnemo.flush()` to wait for it). Idempotent: a checkpoint always makes the same turn under the
 * same number, so recording a thread again stores nothing new, and recording it after more runs adds only their
 * turns. Throws when the config names no thread, when the graph cannot give its history (a graph compiled without a
 * checkpointer) or a checkpoint is not JSON.
 *
 *   await graph.invoke({ messages: [new HumanMessage('Disk at 95% on db-7')] }, config);
 *   await recordLangGraph(mnemo, graph, config);
 */
export async function recordLangGraph<C extends LangGraphThreadConfig>(
  mnemo: Mnemoscope,
  graph: LangGraphHistorySource<C>,
  config: C,
  options: RecordLangGraphOptions = {},
): Promise<LangGraphRecording> {
  const thread = config.configurable?.thread_id;
  if (typeof thread !== 'string' && typeof thread !== 'number')
    throw new TypeError('recordLangGraph: config.configurable.thread_id names no thread to record');
  const threadId = String(thread);
  const snapshots: unknown[] = [];
  for await (const s of graph.getStateHistory(config)) snapshots.push(asJson(s, threadId));
  const sessionId = options.sessionId ?? threadId;
  if (!snapshots.length) return { sessionId, checkpoints: 0, turns: 0, queued: 0 };
  const envelopes = langGraphEnvelopes(snapshots, {
    fallbackId: threadId,
    session: { id: options.sessionId, agent: options.agent, title: options.title },
  });
  if ('error' in envelopes) throw new Error(`recordLangGraph: thread ${threadId}: ${envelopes.error}`);
  let queued = 0;
  for (const e of envelopes) if (mnemo.record(e as Parameters<Mnemoscope['record']>[0])) queued++;
  return {
    sessionId,
    checkpoints: snapshots.length,
    turns: envelopes.filter((e) => e.type === 'turn').length,
    queued,
  };
}
