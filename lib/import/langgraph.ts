import type { Envelope } from '@/lib/ingest/contract';

/**
 * A LangGraph thread's checkpoint history (what `client.threads.getHistory(threadId)` of the LangGraph SDK / Platform
 * API returns, or `graph.getStateHistory(config)` of LangGraph itself, saved as JSON) to a session: one turn per
 * super-step, its CCS the graph state's channels (each channel a field, its items the terms), its input and output the
 * human and AI messages the step added to `messages`, its time the checkpoint's. No Mnemoscope code in the graph: the
 * state a LangGraph agent keeps is its compressed state. Pure.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** A checkpoint as either API gives it. */
export function isLangGraphState(v: unknown): boolean {
  return (
    isObj(v) &&
    isObj(v.values) &&
    isObj(v.metadata) &&
    (isObj(v.checkpoint) || (isObj(v.config) && isObj((v.config as Json).configurable)))
  );
}

const TERM_CHARS = 500;

function threadOf(s: Json): string | null {
  const c = (
    isObj(s.checkpoint) ? s.checkpoint : isObj(s.config) ? (s.config as Json).configurable : null
  ) as Json | null;
  return typeof c?.thread_id === 'string' ? c.thread_id : null;
}
const checkpointOf = (s: Json) => {
  const c = (
    isObj(s.checkpoint) ? s.checkpoint : isObj(s.config) ? (s.config as Json).configurable : null
  ) as Json | null;
  return typeof c?.checkpoint_id === 'string' ? c.checkpoint_id : null;
};

/** A message's role and text, in LangGraph's JSON (`{type, content}`) or LangChain's serialised form. */
function message(m: unknown): { role: string; text: string; id: string | null } | null {
  if (!isObj(m)) return null;
  const lc = isObj(m.kwargs) && Array.isArray(m.id) ? m : null;
  const body = (lc ? m.kwargs : m) as Json;
  const role = lc
    ? String((m.id as unknown[]).at(-1) ?? '')
        .replace(/Message(Chunk)?$/, '')
        .toLowerCase()
    : String(body.type ?? body.role ?? '');
  const c = body.content;
  const text =
    typeof c === 'string'
      ? c
      : Array.isArray(c)
        ? c
            .map((p) => (typeof p === 'string' ? p : isObj(p) && typeof p.text === 'string' ? p.text : ''))
            .filter(Boolean)
            .join('\n')
        : '';
  return {
    role: role === 'user' ? 'human' : role === 'assistant' ? 'ai' : role,
    text,
    id: typeof body.id === 'string' ? body.id : null,
  };
}

/** A channel's value as CCS terms: strings as they are, other items as compact JSON, each at most 500 characters. */
function terms(v: unknown): string[] {
  const one = (x: unknown) => {
    const s = typeof x === 'string' ? x : JSON.stringify(x);
    return s.length > TERM_CHARS ? `${s.slice(0, TERM_CHARS - 1)}…` : s;
  };
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined && x !== '').map(one);
  if (isObj(v)) return Object.entries(v).map(([k, x]) => `${k}(${one(x)})`);
  return [one(v)];
}

export interface LangGraphOptions {
  /** The session id when the checkpoints do not name their thread. */
  fallbackId: string;
  /** The agent when the checkpoints' metadata names no graph. */
  agent?: string;
  source?: string;
}

/**
 * The envelopes of one thread's history (in any order: they are sorted by step). A run's input checkpoint opens it
 * (its human message is the next turn's input); every other checkpoint is a turn, numbered in step order from 1.
 */
export function langGraphEnvelopes(states: readonly unknown[], o: LangGraphOptions): Envelope[] | { error: string } {
  const all = states.filter(isObj).filter(isLangGraphState);
  if (!all.length) return { error: 'no LangGraph checkpoints (objects with values, metadata and a checkpoint)' };
  const steps = all
    .map((s) => ({ s, step: Number((s.metadata as Json).step) }))
    .filter((x) => Number.isInteger(x.step))
    .sort((a, b) => a.step - b.step);
  if (!steps.length) return { error: 'the checkpoints carry no metadata.step' };
  const threads = new Set(steps.map((x) => threadOf(x.s)).filter(Boolean));
  if (threads.size > 1) return { error: `checkpoints of ${threads.size} threads in one file: one thread a file` };
  const id = [...threads][0] ?? o.fallbackId;
  const meta = steps[0]!.s.metadata as Json;
  const agent =
    (typeof meta.graph_id === 'string' && meta.graph_id) ||
    (typeof meta.assistant_id === 'string' && meta.assistant_id) ||
    o.agent ||
    'langgraph';
  const src = o.source ? { source: o.source } : {};
  const out: Envelope[] = [
    {
      type: 'session',
      data: {
        id,
        agent,
        title: `LangGraph thread ${id}`,
        domain: 'langgraph',
        metadata: { langgraph: { thread_id: id } },
      },
      ...src,
    },
  ];
  const seen = new Set<string>();
  let before: { role: string; text: string; id: string | null }[] = [];
  let human: { role: string; text: string; id: string | null } | undefined;
  let turn = 0;
  for (const { s, step } of steps) {
    const values = s.values as Json;
    const msgs = (Array.isArray(values.messages) ? values.messages : []).map(message).filter((m) => m !== null);
    // The messages this step added (by id where messages have one, else those past the previous step's count).
    const added = msgs.some((m) => m.id)
      ? msgs.filter((m) => !m.id || !seen.has(m.id))
      : msgs.slice(Math.min(before.length, msgs.length));
    for (const m of msgs) if (m.id) seen.add(m.id);
    before = msgs;
    // The human message that starts a run comes with the input checkpoint (step −1): it is the next turn's input.
    human = added.filter((m) => m.role === 'human').at(-1) ?? human;
    // A run's input checkpoint (step −1 for the first run, the next step for later runs) holds no work of the graph.
    if (step < 0 || (s.metadata as Json).source === 'input') continue;
    const writes = isObj((s.metadata as Json).writes) ? ((s.metadata as Json).writes as Json) : {};
    const ai = added.filter((m) => m.role === 'ai' && m.text).at(-1);
    const ccs: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(values)) if (k !== 'messages') ccs[k] = terms(v);
    const created =
      typeof s.created_at === 'string' ? s.created_at : typeof s.createdAt === 'string' ? s.createdAt : null;
    out.push({
      type: 'turn',
      data: {
        session_id: id,
        agent,
        // In order, from 1: steps go on across runs, and a branched history repeats a step.
        turn: ++turn,
        input: human?.text ?? (Object.keys(writes).length ? `step ${step}: ${Object.keys(writes).join(', ')}` : ''),
        output: ai?.text ?? '',
        ccs,
        recalled: [],
        qualified: [],
        ...(created && !Number.isNaN(Date.parse(created)) ? { timestamp: new Date(created).toISOString() } : {}),
        langgraph: {
          checkpoint_id: checkpointOf(s),
          step,
          source: (s.metadata as Json).source ?? null,
          nodes: Object.keys(writes),
          next: Array.isArray(s.next) ? s.next : [],
        },
      },
      ...src,
    });
    human = undefined;
  }
  return out;
}
