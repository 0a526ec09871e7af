/**
 * OpenTelemetry traces (an ExportTraceServiceRequest as OTLP/HTTP JSON carries it; protobuf is decoded into the
 * same shape by otlp-proto.ts) to ingest envelopes:
 *
 * - Whole traces become turns (GenAI conventions or OpenInference, no Mnemoscope attribute needed): see
 *   `otlpToEnvelopes`. Their LLM, tool and retriever calls go into the turn's `calls` and `usage`.
 * - A span with `mnemoscope.turn` (integer) is that turn. Its session is `mnemoscope.session_id`, else
 *   `gen_ai.conversation.id`, else `session.id` (on it, below it or above it), else the trace id; its agent
 *   `mnemoscope.agent`, else `gen_ai.agent.name`, else the resource's `service.name`. Input and output come from
 *   `mnemoscope.input` / `mnemoscope.output`, else `gen_ai.input.messages` / `gen_ai.output.messages` (text parts
 *   joined), `gen_ai.prompt` / `gen_ai.completion` or `input.value` / `output.value`. The CCS is `mnemoscope.ccs` (JSON
 *   object or the ACC paper's text notation). Also read: `mnemoscope.recalled`, `mnemoscope.qualified` (string arrays
 *   or JSON), `mnemoscope.hallucination`, `mnemoscope.drift`, `mnemoscope.utility`, `mnemoscope.success`,
 *   `mnemoscope.title`; token usage goes into the footprint.
 * - Span events named `mnemoscope.memory_event` (attribute `event`: the event as JSON) and
 *   `mnemoscope.artifact` (attributes `id`, `content`, `kind`) become memory events and artifacts.
 * - Calls whose turn's span is not in the request wait (`pending`; kept by server/services/otel-pending.ts).
 * - Other spans are skipped (counted); spans that cannot be placed are errors with the reason.
 *
 * Pure; the route validates the resulting envelopes like any other ingest.
 */

import { messagesTurnText, spanMessages, type ChatMessage } from './messages';
import { evidenceRef } from '@/lib/ingest/normalize';
import { nearField } from '@/lib/ingest/near-field';

export interface OtlpEnvelope {
  type: 'session' | 'turn' | 'memory_event' | 'artifact';
  data: Record<string, unknown>;
  /** Where in the request it came from, for error messages: `resourceSpans[0].scopeSpans[1].spans[3]`. */
  source: string;
  /** The attribute each field of `data` was read from, so that an error names what the sender wrote. */
  from?: Record<string, string>;
  /** What was left out of the record and why (a figure that is not a number): said in the answer. */
  warnings?: string[];
  /**
   * A memory event emitted inside a turn the server numbers: that turn's envelope, whose number the event takes
   * (server/services/otel-turns.ts).
   */
  turnOf?: OtlpEnvelope;
}

/**
 * An error's path as the span named it: `data.ccs.goal` read from `mnemoscope.ccs` is `attribute mnemoscope.ccs: goal`;
 * `data.kind` of a memory event sent as JSON in `event` is `attribute event: kind`.
 */
export function spanPath(envelope: OtlpEnvelope, path: string): string {
  // An event sent whole as JSON in one attribute: its fields as the JSON names them.
  const whole = envelope.from?.[''];
  if (whole) return `attribute ${whole}: ${path.replace(/^data\.?/, '') || 'the event'}`;
  const m = /^data\.([^.[]+)(.*)$/.exec(path);
  const attribute = m ? envelope.from?.[m[1]!] : undefined;
  const inside = m?.[2]?.replace(/^\./, '');
  return attribute ? `attribute ${attribute}${inside ? `: ${inside}` : ''}` : path || 'record';
}

/** A span kept until its turn's span arrives, as OTLP/JSON carries it, with its resource's attributes. */
export interface PendingSpan {
  traceId: string;
  spanId: string;
  span: Record<string, unknown>;
  resource: unknown[];
}

export interface OtlpResult {
  envelopes: OtlpEnvelope[];
  spans: number;
  skipped: number;
  /** Spans that could not become a turn, with why (they count as rejected). */
  errors: { source: string; message: string }[];
  /**
   * Calls whose turn's span is not in this request (an exporter sends the calls of a long invocation in earlier
   * batches than the invocation's span), with the spans below them: kept by the server until it comes.
   */
  pending: PendingSpan[];
}

export interface OtlpOptions {
  /**
   * Place every call whose parent never came as a turn of its own (the server's sweep of spans pending too long);
   * otherwise such calls are `pending`.
   */
  orphansAreTurns?: boolean;
}

/** OTLP span flags: whether the parent is remote is known (bit 8), and it is (bit 9). */
const PARENT_REMOTE_KNOWN = 0x100;
const PARENT_REMOTE = 0x200;

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
};
type KeyValue = { key: string; value?: AnyValue };

function value(v: AnyValue | undefined): unknown {
  if (!v) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  if (v.kvlistValue) return attributes(v.kvlistValue.values);
  if (v.bytesValue !== undefined) return v.bytesValue;
  return null;
}

function attributes(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list as KeyValue[]) if (kv && typeof kv.key === 'string') out[kv.key] = value(kv.value);
  return out;
}

const str = (v: unknown) => (typeof v === 'string' && v.length ? v : null);

/** The span attributes Mnemoscope reads (`mnemoscope.<name>`), and those it reads on a turn's own span only. */
const OWN_ATTRIBUTES = [
  'turn',
  'session_id',
  'agent',
  'title',
  'ccs',
  'recalled',
  'qualified',
  'utility',
  'hallucination',
  'drift',
  'success',
  'input',
  'output',
];
const ON_TURN_SPAN = ['title', 'ccs', 'recalled', 'qualified', 'utility', 'hallucination', 'drift', 'success'];
const num = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() && Number.isFinite(Number(v))
      ? Number(v)
      : null;

/** A yes/no attribute: a boolean, or as SDKs that export only strings or numbers write one. */
function flag(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  const t = String(v).trim().toLowerCase();
  return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : null;
}

/** A list attribute: an array, or a JSON array in a string (some SDKs only export strings). */
function list(v: unknown): string[] | null {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') {
    try {
      const p = JSON.parse(v);
      if (Array.isArray(p)) return p.map(String);
    } catch {
      return v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    }
  }
  return null;
}

function nanosToIso(v: unknown): string | undefined {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  if (!Number.isFinite(n) || n <= 0) return undefined;
  return new Date(Math.floor(n / 1e6)).toISOString();
}

function ccsOf(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? undefined;
  const t = v.trim();
  if (t.startsWith('{')) {
    try {
      return JSON.parse(t);
    } catch {
      return v;
    }
  }
  return v;
}

/**
 * A `mnemoscope.memory_event` span event: the event as JSON in its attribute `event`, or its fields (`event_id`,
 * `kind`, `content`, …) as attributes of their own, as artifacts are sent. `source_agent` and `timestamp` the event
 * leaves out are the span's agent and the span event's time (`implied`).
 */
function memoryEventOf(
  ea: Record<string, unknown>,
  source: string,
  implied: { source_agent: string; timestamp: string | undefined },
): OtlpEnvelope | { error: string } {
  const withImplied = (data: Record<string, unknown>) => ({
    source_agent: implied.source_agent,
    ...(implied.timestamp ? { timestamp: implied.timestamp } : {}),
    ...data,
  });
  const raw = ea.event;
  if (raw === undefined) {
    if (!Object.keys(ea).length)
      return {
        error:
          'no attributes: send the memory event as JSON in the attribute "event", or its fields (event_id, kind, ' +
          'content, …) as attributes',
      };
    const from = Object.fromEntries(Object.keys(ea).map((k) => [k, k]));
    // An attribute holds no objects: the older shape's evidence refs come as strings (`commit:4b1e9a2`, a URL).
    const refs = ea.evidence_refs;
    const data =
      'kind' in ea && Array.isArray(refs)
        ? { ...ea, evidence_refs: refs.map((r) => (typeof r === 'string' ? evidenceRef(r) : r)) }
        : ea;
    return { type: 'memory_event', data: withImplied(data), source, from };
  }
  let data: unknown = raw;
  if (typeof raw === 'string') {
    try {
      data = JSON.parse(raw);
    } catch {
      return { error: 'attribute "event" must be the memory event as JSON' };
    }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    return { error: `attribute "event" must be the memory event as a JSON object, got ${quote(data)}` };
  return { type: 'memory_event', data: withImplied(data as Record<string, unknown>), source, from: { '': 'event' } };
}

interface FlatSpan {
  source: string;
  traceId: string | null;
  spanId: string | null;
  parent: string | null;
  name: string | null;
  start: number | null;
  end: number | null;
  /** Its attributes over its resource's; `own` its attributes alone. */
  a: Record<string, unknown>;
  own: Record<string, unknown>;
  error: string | null;
  events: unknown[];
  /** Its parent lives in another process (a distributed trace): it will not come in an export to us. */
  remoteParent: boolean;
  raw: Record<string, unknown>;
  resource: unknown[];
}

/** What a span is, by the GenAI conventions (`gen_ai.operation.name`) or OpenInference (`openinference.span.kind`). */
export type CallKind = 'agent' | 'chain' | 'llm' | 'tool' | 'retriever' | 'embedding';

const GENAI_KIND: Record<string, CallKind> = {
  invoke_agent: 'agent',
  create_agent: 'agent',
  chat: 'llm',
  text_completion: 'llm',
  generate_content: 'llm',
  execute_tool: 'tool',
  embeddings: 'embedding',
};
const OI_KIND: Record<string, CallKind> = {
  AGENT: 'agent',
  CHAIN: 'chain',
  LLM: 'llm',
  TOOL: 'tool',
  RETRIEVER: 'retriever',
  EMBEDDING: 'embedding',
  RERANKER: 'retriever',
};

function kindOf(a: Record<string, unknown>): CallKind | null {
  const g = str(a['gen_ai.operation.name']);
  if (g && GENAI_KIND[g]) return GENAI_KIND[g];
  const o = str(a['openinference.span.kind']);
  if (o && OI_KIND[o.toUpperCase()]) return OI_KIND[o.toUpperCase()]!;
  return null;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Whether a trace or span id can be one (ids are hex; one with a control character is refused). */
export const usableId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && !CONTROL.test(v);
const nanos = (v: unknown) => {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
};
const clip = (v: string | null, n = 2000) => (v && v.length > n ? `${v.slice(0, n - 1)}…` : v);
/** A value as an error quotes it: at most 100 characters. */
const quote = (v: unknown) => clip(JSON.stringify(v) ?? String(v), 100);
const textOf = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? null : JSON.stringify(v));

/**
 * A span's input and output text, by whichever convention it follows: chat messages (the last user message in, the
 * last answer or the tools asked for out; see messages.ts), else a plain prompt or OpenInference's `input.value`.
 */
function inputOf(a: Record<string, unknown>): string | null {
  return (
    str(a['mnemoscope.input']) ??
    messagesTurnText(spanMessages(a, 'input'), 'input') ??
    str(a['gen_ai.prompt']) ??
    str(a['input.value']) ??
    null
  );
}
function outputOf(a: Record<string, unknown>): string | null {
  return (
    str(a['mnemoscope.output']) ??
    messagesTurnText(spanMessages(a, 'output'), 'output') ??
    str(a['gen_ai.completion']) ??
    str(a['output.value']) ??
    null
  );
}

/** One LLM, tool, retriever or other call inside a turn, as the replay's waterfall draws it. */
export interface TurnCall {
  kind: CallKind | 'span';
  name: string;
  /** The call's span, when traced: a span sent again (a retried export) is not a second call. */
  span_id?: string;
  /** Milliseconds from the turn's start, and how long it took. */
  start_ms: number;
  duration_ms: number | null;
  model?: string;
  input_tokens?: number;
  output_tokens?: number;
  cost?: number;
  tool?: string;
  arguments?: string;
  result?: string;
  documents?: string[];
  error?: string;
  /**
   * A tool call read from the model's messages (it asked for the tool; a later call's input holds the answer), for
   * agents whose tools are not traced: no span, so no duration.
   */
  from_messages?: true;
}

/** A turn's totals over its calls (absent figures were not sent). */
export interface TurnUsage {
  input_tokens?: number;
  output_tokens?: number;
  cost?: number;
  latency_ms?: number;
  llm_calls: number;
  tool_calls: number;
  errors: number;
}

/** A turn's usage: the totals known (tokens, cost, its span's latency) and its calls counted by kind. */
export function usageOf(
  calls: TurnCall[],
  tokens: Record<string, number>,
  cost: number | null,
  latency: number | null | undefined,
): TurnUsage {
  return {
    ...tokens,
    ...(cost !== null ? { cost } : {}),
    ...(latency !== null && latency !== undefined ? { latency_ms: latency } : {}),
    llm_calls: calls.filter((c) => c.kind === 'llm').length,
    tool_calls: calls.filter((c) => c.kind === 'tool').length,
    errors: calls.filter((c) => c.error).length,
  };
}

function callOf(sp: FlatSpan, t0: number): TurnCall {
  const a = sp.a;
  const kind = kindOf(a) ?? 'span';
  const c: TurnCall = {
    kind,
    name: sp.name ?? kind,
    start_ms: sp.start !== null ? Math.max(0, Math.round((sp.start - t0) / 1e6)) : 0,
    duration_ms: sp.start !== null && sp.end !== null ? Math.max(0, Math.round((sp.end - sp.start) / 1e6)) : null,
  };
  if (sp.spanId) c.span_id = sp.spanId;
  const model = str(a['gen_ai.response.model']) ?? str(a['gen_ai.request.model']) ?? str(a['llm.model_name']);
  if (model) c.model = model;
  // The GenAI names, OpenInference's, and those of OpenLLMetry before the GenAI conventions settled.
  const tin =
    num(a['gen_ai.usage.input_tokens']) ?? num(a['llm.token_count.prompt']) ?? num(a['gen_ai.usage.prompt_tokens']);
  const tout =
    num(a['gen_ai.usage.output_tokens']) ??
    num(a['llm.token_count.completion']) ??
    num(a['gen_ai.usage.completion_tokens']);
  if (tin !== null) c.input_tokens = tin;
  if (tout !== null) c.output_tokens = tout;
  const cost = num(a['gen_ai.usage.cost']) ?? num(a['llm.cost.total']);
  if (cost !== null) c.cost = cost;
  if (kind === 'tool') {
    // OpenInference's tool wrappers name the tool only in the span's name.
    const tool = str(a['gen_ai.tool.name']) ?? str(a['tool.name']) ?? sp.name;
    if (tool) c.tool = tool;
    const args = clip(textOf(a['gen_ai.tool.call.arguments'] ?? a['tool.parameters'] ?? a['input.value']));
    const result = clip(textOf(a['gen_ai.tool.call.result'] ?? a['output.value']));
    if (args) c.arguments = args;
    if (result) c.result = result;
  }
  const docs = documentsOf(a);
  if (docs.length) c.documents = docs;
  if (sp.error) c.error = sp.error;
  return c;
}

/**
 * Tool calls of a turn whose tools are not traced, read from its LLM calls' messages: each tool an answer asked for,
 * with the result the next call's input added after the conversation the asking call had (matched by call id, else
 * by order), so a result from earlier in the conversation is never taken. At most `room` calls. Starts where the
 * asking call ended.
 */
function toolCallsFromMessages(llms: FlatSpan[], t0: number, room: number): TurnCall[] {
  const out: TurnCall[] = [];
  const inputs = llms.map((sp) => spanMessages(sp.a, 'input') ?? []);
  for (let i = 0; i < llms.length && out.length < room; i++) {
    const sp = llms[i]!;
    const asked = (spanMessages(sp.a, 'output') ?? []).flatMap((m) => m.toolCalls);
    if (!asked.length) continue;
    const next = inputs[i + 1] ?? [];
    const answers = next.slice(Math.min(inputs[i]!.length, next.length)).flatMap((m: ChatMessage) => m.toolResults);
    const byId = new Map(answers.filter((r) => r.id !== null).map((r) => [r.id, r]));
    const unnamed = answers.filter((r) => r.id === null);
    for (const c of asked.slice(0, room - out.length)) {
      const r = (c.id !== null ? byId.get(c.id) : undefined) ?? unnamed.shift();
      const call: TurnCall = {
        kind: 'tool',
        name: c.name,
        tool: c.name,
        start_ms: sp.end !== null ? Math.max(0, Math.round((sp.end - t0) / 1e6)) : 0,
        duration_ms: null,
        from_messages: true,
      };
      const args = clip(c.arguments);
      if (args) call.arguments = args;
      if (r) call.result = clip(r.result) ?? '';
      out.push(call);
    }
  }
  return out;
}

/** Ids of the documents a retriever span returned (OpenInference's flattened `retrieval.documents.N.document.id`). */
function documentsOf(a: Record<string, unknown>): string[] {
  const out: { k: number; id: string }[] = [];
  for (const [key, v] of Object.entries(a)) {
    const m = /^retrieval\.documents\.(\d+)\.document\.id$/.exec(key);
    if (m && (typeof v === 'string' || typeof v === 'number')) out.push({ k: Number(m[1]), id: String(v) });
  }
  return out.sort((x, y) => x.k - y.k).map((d) => d.id);
}

/** The first value of `key` on the span or any of the spans given, in order. */
function firstStr(spans: FlatSpan[], ...keys: string[]): string | null {
  for (const k of keys) for (const sp of spans) if (str(sp.a[k])) return str(sp.a[k]);
  return null;
}

/**
 * Maps one request in OTLP/JSON shape. Throws only on a body that is not an ExportTraceServiceRequest at all.
 *
 * Whole traces become turns too: a GenAI or OpenInference span with no such span above it in the request (an
 * `invoke_agent` / AGENT span, else the topmost chat, chain or tool span) is a turn, and every span below it is one
 * of the turn's calls (LLM calls with model, tokens, cost and latency; tool calls with arguments, result and errors;
 * retrievers' documents, which become the turn's recalled artifacts A_t). Such a turn has no number
 * (`turn` is absent): the server numbers it in its session (`server/services/otel-turns.ts`), keeping the number of
 * a span sent again. A span with `mnemoscope.turn` is a turn as before, and gathers the calls below it the same way.
 */
export function otlpToEnvelopes(body: unknown, options: OtlpOptions = {}): OtlpResult {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { resourceSpans?: unknown }).resourceSpans))
    throw new Error('body is not an OTLP ExportTraceServiceRequest: expected {"resourceSpans": [...]}');
  const out: OtlpResult = { envelopes: [], spans: 0, skipped: 0, errors: [], pending: [] };
  const titled = new Set<string>();
  const flat: FlatSpan[] = [];
  (body as { resourceSpans: unknown[] }).resourceSpans.forEach((rs, i) => {
    const r = (rs ?? {}) as { resource?: { attributes?: unknown }; scopeSpans?: unknown[] };
    const resource = attributes(r.resource?.attributes);
    (r.scopeSpans ?? []).forEach((ss, j) => {
      ((ss as { spans?: unknown[] })?.spans ?? []).forEach((sp, k) => {
        out.spans++;
        const span = (sp ?? {}) as {
          traceId?: string;
          spanId?: string;
          parentSpanId?: string;
          name?: string;
          startTimeUnixNano?: string | number;
          endTimeUnixNano?: string | number;
          attributes?: unknown;
          events?: unknown[];
          status?: { code?: number | string; message?: string };
          flags?: number;
        };
        const source = `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`;
        // An id is hex: one with a control character (a NUL, which PostgreSQL's text refuses) is refused by name,
        // rather than failing its whole request on every retry.
        const badId = (['traceId', 'spanId', 'parentSpanId'] as const).find(
          (f) => typeof span[f] === 'string' && CONTROL.test(span[f]),
        );
        if (badId) {
          out.errors.push({ source: `${source}.${badId}`, message: 'must not contain control characters' });
          return;
        }
        const code = span.status?.code;
        const flags = typeof span.flags === 'number' ? span.flags : 0;
        const own = attributes(span.attributes);
        flat.push({
          source,
          traceId: str(span.traceId),
          spanId: str(span.spanId),
          parent: str(span.parentSpanId),
          name: str(span.name),
          start: nanos(span.startTimeUnixNano),
          end: nanos(span.endTimeUnixNano),
          a: { ...resource, ...own },
          own,
          error:
            code === 2 || code === 'STATUS_CODE_ERROR'
              ? (str(span.status?.message) ?? str(own['error.type']) ?? 'error')
              : null,
          events: span.events ?? [],
          remoteParent: (flags & PARENT_REMOTE_KNOWN) !== 0 && (flags & PARENT_REMOTE) !== 0,
          raw: span as Record<string, unknown>,
          resource: Array.isArray(r.resource?.attributes) ? r.resource.attributes : [],
        });
      });
    });
  });

  const key = (sp: FlatSpan) => `${sp.traceId}\u0000${sp.spanId}`;
  const byId = new Map(flat.filter((sp) => sp.spanId).map((sp) => [key(sp), sp]));
  const parentOf = (sp: FlatSpan) => (sp.parent ? byId.get(`${sp.traceId}\u0000${sp.parent}`) : undefined);
  const isTurn = (sp: FlatSpan) => sp.a['mnemoscope.turn'] !== undefined;
  const traced = (sp: FlatSpan) => isTurn(sp) || kindOf(sp.a) !== null;
  // The turn a span belongs to: the topmost traced span above it (itself included), or an explicit turn on the way.
  const rootOf = new Map<FlatSpan, FlatSpan | null>();
  const findRoot = (sp: FlatSpan): FlatSpan | null => {
    if (rootOf.has(sp)) return rootOf.get(sp)!;
    rootOf.set(sp, null); // a cycle of parents ends here
    const up = parentOf(sp);
    const above = up ? findRoot(up) : null;
    const root = isTurn(sp) ? sp : (above ?? (traced(sp) ? sp : null));
    rootOf.set(sp, root);
    return root;
  };
  const ancestors = (sp: FlatSpan): FlatSpan[] => {
    const up: FlatSpan[] = [];
    for (let p = parentOf(sp); p && up.length < 64 && !up.includes(p); p = parentOf(p)) up.push(p);
    return up;
  };
  // A traced span above a span tagged `mnemoscope.turn` is not a turn of its own: the tagged one is.
  const aboveExplicit = new Set(flat.filter(isTurn).flatMap(ancestors));
  const members = new Map<FlatSpan, FlatSpan[]>();
  for (const sp of flat) {
    const root = findRoot(sp);
    if (root && root !== sp) members.set(root, [...(members.get(root) ?? []), sp]);
  }

  // A call whose parent span is not here and will come (not a remote parent): its turn's agent span (or its caller)
  // comes in a later export. It waits, with everything below it, unless told to place such calls now.
  const orphan = (root: FlatSpan) =>
    !options.orphansAreTurns &&
    !isTurn(root) &&
    !!root.parent &&
    !root.remoteParent &&
    !parentOf(root) &&
    kindOf(root.a) !== 'agent' &&
    !aboveExplicit.has(root);
  const waiting = new Set(
    flat.filter((sp) => {
      const root = findRoot(sp);
      return root !== null && orphan(root);
    }),
  );

  // Where the conventions put a turn's session: on its span, the spans below it, or (for a tagged span such as a chat
  // inside invoke_agent) the spans above it; else the trace.
  const sessionOfTurn = (root: FlatSpan) =>
    firstStr(
      [root, ...(members.get(root) ?? []), ...ancestors(root)],
      'mnemoscope.session_id',
      'gen_ai.conversation.id',
      'session.id',
    ) ?? root.traceId;

  // Memory events emitted inside a turn, and the envelope each turn's span became: the event is placed at that turn.
  const emittedIn: { envelope: OtlpEnvelope; root: FlatSpan }[] = [];
  const turnEnvelope = new Map<FlatSpan, OtlpEnvelope>();
  for (const sp of flat) {
    const { source, a } = sp;
    if (waiting.has(sp)) {
      if (sp.traceId && sp.spanId)
        out.pending.push({ traceId: sp.traceId, spanId: sp.spanId, span: sp.raw, resource: sp.resource });
      else out.errors.push({ source, message: 'a call whose turn is not in this export, and no trace or span id' });
      continue;
    }
    const inTurn = findRoot(sp);
    // A turn the server numbers is known again by its span's id (a retried export is then the same turn): with none,
    // or OTLP's invalid all-zero one, every retry of the span would be stored as one more turn. It is refused, and
    // what its spans carry with it (memory events, artifacts), rather than stored without their turn.
    if (inTurn && !isTurn(inTurn) && !aboveExplicit.has(inTurn) && (!inTurn.spanId || /^0+$/.test(inTurn.spanId))) {
      if (inTurn === sp)
        out.errors.push({
          source: `${source}.spanId`,
          message:
            `a turn's span needs its id (${sp.spanId ? 'all zeros is no id' : 'none sent'}): a retried export is ` +
            'known by it, else set mnemoscope.turn',
        });
      continue;
    }
    // An artifact or memory event on a span belongs to the session of the turn the span is part of.
    const session =
      str(a['mnemoscope.session_id']) ??
      (inTurn ? sessionOfTurn(inTurn) : null) ??
      str(a['gen_ai.conversation.id']) ??
      str(a['session.id']) ??
      sp.traceId;
    // The agent a memory event or artifact on this span comes from: the span's, else the agent span's above it (a
    // "remember" tool call under invoke_agent), else the service's.
    const agent =
      firstStr([sp, ...ancestors(sp)], 'mnemoscope.agent', 'gen_ai.agent.name') ?? str(a['service.name']) ?? 'otel';
    let used = false;
    for (const [e, ev] of sp.events.entries()) {
      const event = (ev ?? {}) as { name?: string; attributes?: unknown };
      const ea = attributes(event.attributes);
      const where = `${source}.events[${e}]`;
      if (event.name === 'mnemoscope.memory_event') {
        used = true;
        const memory = memoryEventOf(ea, where, {
          source_agent: agent,
          timestamp: nanosToIso((event as { timeUnixNano?: unknown }).timeUnixNano) ?? nanosToIso(sp.start),
        });
        if ('error' in memory) out.errors.push({ source: where, message: memory.error });
        else {
          if (inTurn) emittedIn.push({ envelope: memory, root: inTurn });
          out.envelopes.push(memory);
        }
      } else if (event.name === 'mnemoscope.artifact') {
        used = true;
        out.envelopes.push({
          type: 'artifact',
          data: { ...ea, ...(session ? { session_id: session } : {}), agent },
          source: where,
          from: Object.fromEntries(Object.keys(ea).map((k) => [k, k])),
        });
      }
    }
    if (inTurn !== sp || aboveExplicit.has(sp)) {
      // A call inside a turn is the turn's; anything else without Mnemoscope attributes is not memory.
      if (!inTurn && !used) out.skipped++;
      continue;
    }
    const explicit = isTurn(sp);
    const turnNo = num(a['mnemoscope.turn']);
    if (explicit && (turnNo === null || !Number.isInteger(turnNo))) {
      out.errors.push({
        source,
        message: `mnemoscope.turn must be an integer, got ${JSON.stringify(a['mnemoscope.turn'])}`,
      });
      continue;
    }
    // In start order; spans started within the same millisecond (some instrumentations stamp whole milliseconds) by
    // their end.
    const below = (members.get(sp) ?? []).sort((x, y) => {
      const d = (x.start ?? 0) - (y.start ?? 0);
      return Math.abs(d) >= 1e6 ? d : (x.end ?? 0) - (y.end ?? 0) || d;
    });
    // Where the conventions put the session and the agent: on the turn's span, the spans below it, or (for a tagged
    // span such as a chat inside invoke_agent) the spans above it.
    const all = [sp, ...below, ...ancestors(sp)];
    const turnSession = sessionOfTurn(sp);
    if (!turnSession) {
      out.errors.push({
        source,
        message:
          'no session: set mnemoscope.session_id (or gen_ai.conversation.id)' +
          (sp.traceId ? '' : ', or send the span with its traceId (a trace is a session when nothing else names one)'),
      });
      continue;
    }
    const turnAgent = firstStr(all, 'mnemoscope.agent', 'gen_ai.agent.name') ?? str(a['service.name']) ?? 'otel';
    const title = str(a['mnemoscope.title']);
    if (title && !titled.has(turnSession)) {
      titled.add(turnSession);
      out.envelopes.push({ type: 'session', data: { id: turnSession, agent: turnAgent, title }, source });
    }
    const llms = below.filter((x) => kindOf(x.a) === 'llm');
    const t0 = sp.start ?? below[0]?.start ?? 0;
    const calls = below.slice(0, 200).map((x) => callOf(x, t0));
    if (!calls.some((c) => c.kind === 'tool')) {
      // Untraced tools: the ones the model asked for, placed after the call that asked.
      for (const c of toolCallsFromMessages(llms, t0, Math.max(0, 200 - calls.length))) {
        const at = calls.findIndex((x) => x.start_ms > c.start_ms);
        calls.splice(at < 0 ? calls.length : at, 0, c);
      }
    }
    const sum = (k: 'input_tokens' | 'output_tokens' | 'cost') =>
      calls.some((c) => c[k] !== undefined) ? calls.reduce((n, c) => n + (c[k] ?? 0), 0) : null;
    const own = callOf(sp, t0);
    const usage = {
      input_tokens: own.input_tokens ?? sum('input_tokens'),
      output_tokens: own.output_tokens ?? sum('output_tokens'),
    };
    const footprint = Object.fromEntries(Object.entries(usage).filter(([, v]) => v !== null)) as Record<string, number>;
    const recalledDocs = [...new Set(below.flatMap((x) => documentsOf(x.a)))];
    const data: Record<string, unknown> = {
      session_id: turnSession,
      agent: turnAgent,
      ...(explicit ? { turn: turnNo } : {}),
      input: inputOf(a) ?? (llms[0] ? inputOf(llms[0].a) : null) ?? '',
      output: outputOf(a) ?? (llms.length ? outputOf(llms.at(-1)!.a) : null) ?? '',
      // A traced agent that sends no CCS still has turns: an empty state (the replay says so), its work in `calls`.
      ccs: ccsOf(a['mnemoscope.ccs']) ?? (explicit ? undefined : {}),
      recalled: list(a['mnemoscope.recalled']) ?? recalledDocs,
      qualified: list(a['mnemoscope.qualified']) ?? [],
      otel: { trace_id: sp.traceId ?? null, span_id: sp.spanId ?? null, name: sp.name ?? null },
    };
    if (calls.length) data.calls = calls;
    // A turn's own span's figures are kept with no calls below it too: its latency per turn, and calls that arrive
    // after it is stored (lib/otel/late-calls.ts) add to its totals instead of replacing them.
    const cost = own.cost ?? sum('cost');
    if (calls.length || Object.keys(footprint).length || cost !== null || own.duration_ms !== null)
      data.usage = usageOf(calls, footprint, cost, own.duration_ms);
    if (Object.keys(footprint).length) data.footprint = footprint;
    const timestamp = nanosToIso(sp.start);
    if (timestamp) data.timestamp = timestamp;
    // A figure that is not one is left out and said (it was dropped without a word); the turn is stored all the same,
    // since an exporter seldom reads the answer.
    const warnings: string[] = [];
    const figure = (name: string, v: unknown, want: string) =>
      warnings.push(`attribute ${name} must be ${want}, got ${quote(v)}: the turn was stored without it`);
    for (const [k, name] of [
      ['hallucination', 'mnemoscope.hallucination'],
      ['drift', 'mnemoscope.drift'],
      ['utility', 'mnemoscope.utility'],
    ] as const) {
      if (a[name] === undefined) continue;
      const v = num(a[name]);
      if (v === null) figure(name, a[name], 'a number');
      else data[k] = v;
    }
    const success = flag(a['mnemoscope.success']);
    if (success !== null) data.success = success;
    else if (a['mnemoscope.success'] !== undefined)
      figure('mnemoscope.success', a['mnemoscope.success'], 'true or false');
    // Mnemoscope's own attributes, on the turn's span and those below it: a name it does not read is a slip
    // (`mnemoscope.sesion_id`), and a turn's figure on a span below the turn's is not read there. Both are said, once.
    const slips = new Set<string>();
    // (A span below is judged by its own attributes: the resource's are every span's, and read on the turn's.)
    for (const x of [sp, ...below])
      for (const key of Object.keys(x === sp ? x.a : x.own)) {
        if (!key.startsWith('mnemoscope.')) continue;
        const name = key.slice('mnemoscope.'.length);
        if (!OWN_ATTRIBUTES.includes(name)) {
          const meant = nearField(name, OWN_ATTRIBUTES);
          slips.add(
            `attribute ${key} is not one Mnemoscope reads${meant ? `: did you mean mnemoscope.${meant}?` : ''}`,
          );
        } else if (x !== sp && ON_TURN_SPAN.includes(name))
          slips.add(`attribute ${key} is read on the turn's span only, not on span ${quote(x.name ?? '')} below it`);
      }
    warnings.push(...slips);
    const from: Record<string, string> = {};
    for (const k of ['ccs', 'hallucination', 'drift', 'utility', 'success', 'recalled', 'qualified', 'turn'])
      if (a[`mnemoscope.${k}`] !== undefined) from[k] = `mnemoscope.${k}`;
    const turn: OtlpEnvelope = { type: 'turn', data, source, from, ...(warnings.length ? { warnings } : {}) };
    turnEnvelope.set(sp, turn);
    out.envelopes.push(turn);
  }
  // An event that does not name its turn (session_id and turn) is the turn's it was emitted in: numbered by the span,
  // or by the server once the turn is stored. One that names a turn and no session is of the span's session.
  for (const { envelope, root } of emittedIn) {
    const turn = turnEnvelope.get(root);
    if (!turn || 'session_id' in envelope.data) continue;
    envelope.data.session_id = turn.data.session_id;
    if ('turn' in envelope.data) continue;
    if (turn.data.turn !== undefined) envelope.data.turn = turn.data.turn;
    else envelope.turnOf = turn;
  }
  return out;
}
