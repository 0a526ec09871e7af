import { z } from 'zod';
import { LIMITS, type Envelope } from '@/lib/ingest/contract';
import { diffStates } from '@/lib/json-state/diff';

/**
 * A LangGraph thread's checkpoint history to a session: what `client.threads.getHistory(threadId)` of the LangGraph
 * SDK / Platform API returns, or `graph.getStateHistory(config)` of LangGraph itself (as JSON, or the snapshots the
 * TypeScript SDK's `recordLangGraph` reads). One turn per super-step in which graph nodes ran, its state the graph
 * state as structured JSON (no CCS: the state a LangGraph agent keeps is its memory, and it is not made of terms), its
 * input and output the messages the step was given and added, `state_changes` the number of paths its state changed
 * from the previous turn's (the replay timeline's tick height, as a CCS turn's is its terms changed), and `langgraph`
 * on the turn: the checkpoint, the node(s) that ran, what comes next, the pending tasks with their interrupts and
 * errors. Pure.
 *
 * What LangGraph JS 1.x records (read off real runs): `metadata` is `{source, step, parents, thread_id}`, with no
 * `writes` (older LangGraph and some Platform versions still send it, and it is used when present); a snapshot's
 * `tasks` are the tasks of the *next* super-step (with their `interrupts`, an `error`, and their writes as `result`
 * once they ran). So the node(s) that made a checkpoint are the tasks of its parent checkpoint. A run's input makes two
 * checkpoints that hold no work of the graph (`source: "input"` at the step before, then the `__start__` step that
 * writes the input into the channels), a replay from an earlier checkpoint one more (`source: "fork"`): those are not
 * turns, but the messages they add are the next turn's input.
 */

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** How much of a graph state a turn stores. */
export const STATE_BOUNDS = {
  /** The state as JSON, in characters: the same bound as a turn's CCS. */
  chars: LIMITS.ccsChars,
  /** A string longer than this keeps its first `stringChars` characters and says how many more there were. */
  stringChars: 4_000,
  /** Arrays and objects nested deeper than this (under the state) are not stored. */
  depth: 40,
  /** The text of a message in `messages_in` / `messages_out`. */
  messageChars: 2_000,
  /** A task's interrupts as JSON. */
  interruptChars: 4_000,
  /** Messages in `messages_in` / `messages_out` (the last ones when a step added more). */
  messages: 100,
} as const;

/** What stands in for a value that was not stored (an array item dropped, a value nested too deep). */
export const NOT_STORED = '[not stored]';

// ------------------------------------------------------------------ what a LangGraph turn carries

const messageSchema = z.object({
  type: z.string(),
  id: z.string().optional(),
  name: z.string().optional(),
  text: z.string(),
  tool_calls: z
    .array(z.object({ name: z.string(), args: z.unknown().optional(), id: z.string().optional() }))
    .optional(),
  tool_call_id: z.string().optional(),
});
export type LangGraphMessage = z.infer<typeof messageSchema>;

/**
 * `langgraph` on a turn. Turns imported before the state view carry only checkpoint_id, step, source, nodes and next;
 * the rest defaults.
 */
export const langGraphTurnSchema = z.object({
  checkpoint_id: z.string().nullable().default(null),
  parent_checkpoint_id: z.string().nullable().default(null),
  step: z.number(),
  source: z.string().nullable().default(null),
  /** The node(s) that ran in this super-step. */
  nodes: z.array(z.string()).default([]),
  /** The channels each node of the step wrote (`{agent: ["messages", "plan"]}`), where the history says. */
  writes: z.record(z.string(), z.array(z.string())).default({}),
  /** The node(s) to run next; empty when the run ended here. */
  next: z.array(z.string()).default([]),
  /**
   * The next super-step's tasks as the snapshot carries them: pending, interrupted (`interrupts`) or failed; without
   * their `result`, which LangGraph fills in once a pending task has run (kept, it would change a recorded turn).
   */
  tasks: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        interrupts: z.array(z.unknown()).default([]),
        error: z.string().optional(),
      }),
    )
    .default([]),
  /** The messages the step was given (those its parent checkpoint added) and the messages it added. */
  messages_in: z.array(messageSchema).default([]),
  messages_out: z.array(messageSchema).default([]),
  /** Set when the stored state is not the whole state: its size as sent, and what was cut (STATE_BOUNDS). */
  bounded: z
    .object({
      chars: z.number(),
      strings_clipped: z.number(),
      items_dropped: z.number(),
      deep_cut: z.number(),
      whole: z.boolean().optional(),
    })
    .optional(),
});
export type LangGraphTurn = z.infer<typeof langGraphTurnSchema>;

/** `langgraph` of a stored turn, or null when the turn has none (or something else under that name). */
export function langGraphTurnOf(v: unknown): LangGraphTurn | null {
  const r = langGraphTurnSchema.safeParse(v);
  return r.success ? r.data : null;
}

// ------------------------------------------------------------------ checkpoints

/** A checkpoint as either API gives it. */
export function isLangGraphState(v: unknown): boolean {
  return (
    isObj(v) &&
    isObj(v.values) &&
    isObj(v.metadata) &&
    (isObj(v.checkpoint) || (isObj(v.config) && isObj((v.config as Json).configurable)))
  );
}

/** The checkpoint's own reference (`checkpoint`, or `config.configurable`), or its parent's. */
function ref(s: Json, parent = false): Json | null {
  const c = parent
    ? isObj(s.parent_checkpoint)
      ? s.parent_checkpoint
      : isObj(s.parentConfig)
        ? (s.parentConfig as Json).configurable
        : null
    : isObj(s.checkpoint)
      ? s.checkpoint
      : isObj(s.config)
        ? (s.config as Json).configurable
        : null;
  return isObj(c) ? c : null;
}
const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

// ------------------------------------------------------------------ messages

const LC_CLASSES: Record<string, string> = {
  HumanMessage: 'human',
  AIMessage: 'ai',
  ToolMessage: 'tool',
  SystemMessage: 'system',
  FunctionMessage: 'function',
  ChatMessage: 'chat',
  RemoveMessage: 'remove',
};

/**
 * A LangChain message serialised by its class (`{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs}`, what
 * `JSON.stringify` makes of a message object) as the message object the LangGraph API sends (`{type: "ai", ...}`);
 * anything else as it is.
 */
function unwrapMessage(v: unknown): unknown {
  if (!isObj(v) || v.lc !== 1 || v.type !== 'constructor' || !Array.isArray(v.id) || !isObj(v.kwargs)) return v;
  const cls = String(v.id.at(-1) ?? '').replace(/Chunk$/, '');
  if (!/Message$/.test(cls)) return v;
  return { type: LC_CLASSES[cls] ?? cls.replace(/Message$/, '').toLowerCase(), ...v.kwargs };
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}… [${s.length - n} more characters not stored]` : s;
}

function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .map((p) => (typeof p === 'string' ? p : isObj(p) && typeof p.text === 'string' ? p.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** A message's role, text, id and tool calls, in the API's JSON or LangChain's serialised form. */
function messageOf(raw: unknown): LangGraphMessage | null {
  const m = unwrapMessage(raw);
  if (!isObj(m)) return null;
  const t = String(m.type ?? m.role ?? '');
  const type = t === 'user' ? 'human' : t === 'assistant' ? 'ai' : t;
  const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []).filter(isObj).map((c) => ({
    name: String(c.name ?? ''),
    ...(c.args !== undefined ? { args: bounded(c.args, STATE_BOUNDS.messageChars).value } : {}),
    ...(str(c.id) ? { id: str(c.id)! } : {}),
  }));
  return {
    type,
    ...(str(m.id) ? { id: str(m.id)! } : {}),
    ...(str(m.name) ? { name: str(m.name)! } : {}),
    text: clip(contentText(m.content), STATE_BOUNDS.messageChars),
    ...(calls.length ? { tool_calls: calls } : {}),
    ...(str(m.tool_call_id) ? { tool_call_id: str(m.tool_call_id)! } : {}),
  };
}

/** A message as a line of a turn's output: an AI message's text and the tools it calls, others by their type. */
function describe(m: LangGraphMessage): string {
  if (m.type === 'ai')
    return [
      m.text,
      ...(m.tool_calls ?? []).map((c) => `→ ${c.name}(${c.args === undefined ? '' : JSON.stringify(c.args)})`),
    ]
      .filter(Boolean)
      .join('\n');
  const who = m.type === 'tool' && m.name ? `tool ${m.name}` : m.type;
  return m.text ? `[${who}] ${m.text}` : '';
}

// ------------------------------------------------------------------ bounding a state

interface Cuts {
  strings_clipped: number;
  items_dropped: number;
  deep_cut: number;
}

/** A JSON value with LangChain messages unwrapped, long strings clipped and values nested too deep replaced. */
function prune(v: unknown, depth: number, stringChars: number, cuts: Cuts): unknown {
  v = unwrapMessage(v);
  if (typeof v === 'string') {
    if (v.length <= stringChars) return v;
    cuts.strings_clipped++;
    return clip(v, stringChars);
  }
  if (v === null || typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? null : v;
  if (depth >= STATE_BOUNDS.depth) {
    cuts.deep_cut++;
    return NOT_STORED;
  }
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : prune(x, depth + 1, stringChars, cuts)));
  const out: Json = {};
  for (const [k, x] of Object.entries(v))
    if (x !== undefined && typeof x !== 'function') out[k] = prune(x, depth + 1, stringChars, cuts);
  return out;
}

const MARK_CHARS = JSON.stringify(NOT_STORED).length;

/** The array that holds the most characters and still has an item whose dropping saves some. */
function largestArray(root: unknown): unknown[] | null {
  let best: unknown[] | null = null;
  let bestChars = 0;
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    const items = Array.isArray(v) ? v : Object.values(v);
    if (Array.isArray(v) && v.some((x) => x !== NOT_STORED && JSON.stringify(x).length > MARK_CHARS)) {
      const chars = JSON.stringify(v).length;
      if (chars > bestChars) [best, bestChars] = [v, chars];
    }
    for (const x of items) walk(x);
  };
  walk(root);
  return best;
}

/**
 * A value bounded to `chars` characters of JSON: LangChain messages as API messages; every string longer than
 * `stringChars` clipped; anything nested deeper than STATE_BOUNDS.depth replaced by NOT_STORED; then, while it is
 * still too large, the items of its largest array replaced by NOT_STORED, oldest (first) first, so a long `messages`
 * keeps its latest and every item keeps its index; and if that is not enough, the whole value replaced by a note.
 */
export function bounded(
  v: unknown,
  chars: number = STATE_BOUNDS.chars,
  stringChars: number = STATE_BOUNDS.stringChars,
): { value: unknown; cut: (Cuts & { chars: number; whole?: true }) | null } {
  const cuts: Cuts = { strings_clipped: 0, items_dropped: 0, deep_cut: 0 };
  const sent = JSON.stringify(unwrapDeep(v)) ?? 'null';
  let value = prune(v, 0, stringChars, cuts);
  let size = JSON.stringify(value).length;
  for (let rounds = 0; size > chars && rounds < 64; rounds++) {
    const arr = largestArray(value);
    if (!arr) break;
    for (let i = 0; i < arr.length && size > chars; i++) {
      if (arr[i] === NOT_STORED) continue;
      const c = JSON.stringify(arr[i]).length;
      if (c <= MARK_CHARS) continue;
      arr[i] = NOT_STORED;
      size -= c - MARK_CHARS;
      cuts.items_dropped++;
    }
    size = JSON.stringify(value).length;
  }
  let whole: true | undefined;
  if (size > chars) {
    value = { [NOT_STORED]: `the value is ${sent.length} characters of JSON, more than ${chars}` };
    whole = true;
  }
  const cut = cuts.strings_clipped || cuts.items_dropped || cuts.deep_cut || whole;
  return { value, cut: cut ? { chars: sent.length, ...cuts, ...(whole ? { whole } : {}) } : null };
}

function unwrapDeep(v: unknown): unknown {
  v = unwrapMessage(v);
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(unwrapDeep);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapDeep(x)]));
}

function interruptsOf(list: unknown[]): unknown[] {
  const v = bounded(list, STATE_BOUNDS.interruptChars, STATE_BOUNDS.messageChars).value;
  return Array.isArray(v) ? v : [v];
}

function errorText(e: unknown): string {
  const s =
    typeof e === 'string'
      ? e
      : isObj(e) && typeof e.message === 'string'
        ? `${typeof e.name === 'string' ? e.name : 'Error'}: ${e.message}`
        : JSON.stringify(e);
  return clip(s, STATE_BOUNDS.messageChars);
}

// ------------------------------------------------------------------ the session

export interface LangGraphOptions {
  /** The session id when the checkpoints do not name their thread. */
  fallbackId: string;
  /** The agent when the checkpoints' metadata names no graph. */
  agent?: string;
  /** What names the session whatever the checkpoints say (the SDK's `recordLangGraph` options). */
  session?: { id?: string; agent?: string; title?: string };
  source?: string;
}

interface Checkpoint {
  s: Json;
  meta: Json;
  step: number;
  id: string | null;
  parent: string | null;
  time: number | null;
  messages: LangGraphMessage[];
}

/** Messages of `c` that `before` does not hold: by id where they have ids, else those past its count. */
function added(c: Checkpoint, before: Checkpoint | null): LangGraphMessage[] {
  if (!before) return c.messages;
  if (c.messages.every((m) => m.id)) {
    const had = new Set(before.messages.map((m) => m.id));
    return c.messages.filter((m) => !had.has(m.id));
  }
  return c.messages.slice(Math.min(before.messages.length, c.messages.length));
}

/**
 * The envelopes of one thread's history (in any order). Checkpoints are taken in the order they were made (their
 * time, then their step): a run's steps follow each other, and a replay from an earlier checkpoint comes after what
 * was there, so recording a thread again after more runs only adds turns, numbered on from 1 without renumbering.
 */
export function langGraphEnvelopes(states: readonly unknown[], o: LangGraphOptions): Envelope[] | { error: string } {
  const all = states.filter(isObj).filter(isLangGraphState);
  if (!all.length) return { error: 'no LangGraph checkpoints (objects with values, metadata and a checkpoint)' };
  const seenIds = new Set<string>();
  const cps: Checkpoint[] = [];
  for (const s of all) {
    const meta = s.metadata as Json;
    const step = Number(meta.step);
    if (meta.step === null || !Number.isInteger(step)) continue;
    const id = str(ref(s)?.checkpoint_id);
    if (id && seenIds.has(id)) continue;
    if (id) seenIds.add(id);
    const created = str(s.created_at) ?? str(s.createdAt);
    const time = created && !Number.isNaN(Date.parse(created)) ? Date.parse(created) : null;
    const values = s.values as Json;
    const messages = (Array.isArray(values.messages) ? values.messages : []).map(messageOf).filter((m) => m !== null);
    cps.push({ s, meta, step, id, parent: str(ref(s, true)?.checkpoint_id), time, messages });
  }
  if (!cps.length) return { error: 'the checkpoints carry no metadata.step' };
  const threads = new Set(cps.map((c) => str(ref(c.s)?.thread_id)).filter(Boolean));
  if (threads.size > 1) return { error: `checkpoints of ${threads.size} threads in one file: one thread a file` };
  const timed = cps.every((c) => c.time !== null);
  cps.sort((a, b) => (timed && a.time !== b.time ? a.time! - b.time! : a.step - b.step));

  const id = o.session?.id ?? [...threads][0] ?? o.fallbackId;
  const meta0 = cps[0]!.meta;
  const agent = o.session?.agent || str(meta0.graph_id) || str(meta0.assistant_id) || o.agent || 'langgraph';
  const src = o.source ? { source: o.source } : {};
  const out: Envelope[] = [
    {
      type: 'session',
      data: {
        id,
        agent,
        title: o.session?.title ?? `LangGraph thread ${id}`,
        domain: 'langgraph',
        metadata: { langgraph: { thread_id: [...threads][0] ?? id } },
      },
      ...src,
    },
  ];
  const byId = new Map(cps.filter((c) => c.id).map((c) => [c.id!, c]));
  const at = new Map(cps.map((c, k) => [c, k]));
  // A checkpoint's parent: the one it names, else (a history without parents, or cut short) the one made before it.
  const before = (c: Checkpoint) => (c.parent ? byId.get(c.parent) : undefined) ?? cps[at.get(c)! - 1] ?? null;
  let turn = 0;
  let lastState: unknown = {};
  for (const c of cps) {
    const parent = before(c);
    // The node(s) that made it are its parent's tasks, but only when that is surely its parent.
    const sure = c.parent ? parent?.id === c.parent : true;
    // What each node wrote: `metadata.writes` where the history has it (older LangGraph), else the results of the
    // parent's tasks (final once this checkpoint exists).
    const ran: [string, unknown][] = isObj(c.meta.writes)
      ? Object.entries(c.meta.writes)
      : sure && parent && Array.isArray(parent.s.tasks)
        ? parent.s.tasks
            .filter((t) => isObj(t) && !t.error && typeof t.name === 'string')
            .map((t) => [String((t as Json).name), (t as Json).result])
        : [];
    const nodes = [...new Set(ran.map(([n]) => n))];
    const writes: Record<string, string[]> = {};
    for (const [n, w] of ran) if (isObj(w)) writes[n] = [...new Set([...(writes[n] ?? []), ...Object.keys(w)])];
    const source = str(c.meta.source);
    if (
      source === 'input' ||
      source === 'fork' ||
      c.step < 0 ||
      (nodes.length && nodes.every((n) => n === '__start__'))
    )
      continue;
    const messagesIn = (parent ? added(parent, before(parent)) : []).slice(-STATE_BOUNDS.messages);
    const messagesOut = added(c, parent).slice(-STATE_BOUNDS.messages);
    const human = messagesIn.filter((m) => m.type === 'human' && m.text).map((m) => m.text);
    const state = bounded(c.s.values);
    const stateChanges = diffStates(lastState, state.value).length;
    lastState = state.value;
    const tasks = (Array.isArray(c.s.tasks) ? c.s.tasks : []).filter(isObj).map((t) => ({
      id: String(t.id ?? ''),
      name: String(t.name ?? ''),
      interrupts: Array.isArray(t.interrupts) ? interruptsOf(t.interrupts) : [],
      ...(t.error !== undefined && t.error !== null ? { error: errorText(t.error) } : {}),
    }));
    const langgraph: LangGraphTurn = {
      checkpoint_id: c.id,
      parent_checkpoint_id: c.parent,
      step: c.step,
      source,
      nodes,
      writes,
      next: (Array.isArray(c.s.next) ? c.s.next : []).map(String),
      tasks,
      messages_in: messagesIn,
      messages_out: messagesOut,
      ...(state.cut ? { bounded: state.cut } : {}),
    };
    out.push({
      type: 'turn',
      data: {
        session_id: id,
        agent,
        // In order, from 1: steps go on across runs, and a replay from an earlier checkpoint repeats a step.
        turn: ++turn,
        input: clip(
          human.length ? human.join('\n\n') : `step ${c.step}: ${nodes.join(', ') || source}`,
          LIMITS.textChars - 64,
        ),
        output: clip(
          messagesOut.length
            ? messagesOut.map(describe).filter(Boolean).join('\n\n')
            : Object.entries(writes)
                .filter(([, w]) => w.length)
                .map(([n, w]) => `${n} wrote ${w.join(', ')}`)
                .join('\n'),
          LIMITS.textChars - 64,
        ),
        ccs: {},
        recalled: [],
        qualified: [],
        ...(c.time !== null ? { timestamp: new Date(c.time).toISOString() } : {}),
        state: state.value,
        state_changes: stateChanges,
        langgraph,
      },
      ...src,
    });
  }
  return out;
}
