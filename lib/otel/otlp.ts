/**
 * OpenTelemetry traces (an ExportTraceServiceRequest as OTLP/HTTP JSON carries it; protobuf is decoded into the
 * same shape by otlp-proto.ts) to ingest envelopes, so an agent already instrumented with OpenTelemetry sends its
 * memory by adding a few span attributes:
 *
 * - A span with `mnemoscope.turn` (integer) is one turn. Its session is `mnemoscope.session_id`, else
 *   `gen_ai.conversation.id`, else `session.id`, else the trace id; its agent `mnemoscope.agent`,
 *   else `gen_ai.agent.name`, else the resource's `service.name`. Input and output come from
 *   `mnemoscope.input` / `mnemoscope.output`, else the GenAI conventions' `gen_ai.input.messages` /
 *   `gen_ai.output.messages` (text parts joined) or `gen_ai.prompt` / `gen_ai.completion`. The CCS is
 *   `mnemoscope.ccs` (JSON object or the ACC paper's text notation). Also read: `mnemoscope.recalled`,
 *   `mnemoscope.qualified` (string arrays or JSON), `mnemoscope.hallucination`, `mnemoscope.drift`,
 *   `mnemoscope.utility`, `mnemoscope.success`, `mnemoscope.title`; token usage
 *   (`gen_ai.usage.input_tokens` / `output_tokens`) goes into the footprint.
 * - Span events named `mnemoscope.memory_event` (attribute `event`: the event as JSON) and
 *   `mnemoscope.artifact` (attributes `id`, `content`, `kind`) become memory events and artifacts.
 * - Other spans are counted as skipped: GenAI tracing without Mnemoscope attributes is welcome and
 *   ignored.
 *
 * Pure; the route validates the resulting envelopes like any other ingest.
 */

export interface OtlpEnvelope {
  type: 'session' | 'turn' | 'memory_event' | 'artifact';
  data: Record<string, unknown>;
  /** Where in the request it came from, for error messages: `resourceSpans[0].scopeSpans[1].spans[3]`. */
  source: string;
}

export interface OtlpResult {
  envelopes: OtlpEnvelope[];
  spans: number;
  skipped: number;
  /** Spans that could not become a turn, with why (they count as rejected). */
  errors: { source: string; message: string }[];
}

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
const num = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() && Number.isFinite(Number(v))
      ? Number(v)
      : null;

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

/**
 * Text of GenAI messages (`[{role, parts: [{type: "text", content}]}]` or `[{role, content}]`), else the string itself.
 */
export function messagesText(v: unknown): string | null {
  let msgs: unknown = v;
  if (typeof v === 'string') {
    try {
      msgs = JSON.parse(v);
    } catch {
      return v;
    }
  }
  if (!Array.isArray(msgs)) return typeof v === 'string' ? v : null;
  const texts = msgs.flatMap((m) => {
    if (!m || typeof m !== 'object') return [];
    const o = m as { content?: unknown; parts?: { type?: string; content?: unknown }[] };
    if (typeof o.content === 'string') return [o.content];
    return (o.parts ?? [])
      .filter((p) => p && (p.type === 'text' || p.type === undefined) && typeof p.content === 'string')
      .map((p) => p.content as string);
  });
  return texts.length ? texts.join('\n') : typeof v === 'string' ? v : null;
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

/** Maps one request in OTLP/JSON shape. Throws only on a body that is not an ExportTraceServiceRequest at all. */
export function otlpToEnvelopes(body: unknown): OtlpResult {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { resourceSpans?: unknown }).resourceSpans))
    throw new Error('body is not an OTLP ExportTraceServiceRequest: expected {"resourceSpans": [...]}');
  const out: OtlpResult = { envelopes: [], spans: 0, skipped: 0, errors: [] };
  const titled = new Set<string>();
  (body as { resourceSpans: unknown[] }).resourceSpans.forEach((rs, i) => {
    const r = (rs ?? {}) as { resource?: { attributes?: unknown }; scopeSpans?: unknown[] };
    const resource = attributes(r.resource?.attributes);
    (r.scopeSpans ?? []).forEach((ss, j) => {
      ((ss as { spans?: unknown[] })?.spans ?? []).forEach((sp, k) => {
        out.spans++;
        const source = `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`;
        const span = (sp ?? {}) as {
          traceId?: string;
          spanId?: string;
          name?: string;
          startTimeUnixNano?: string | number;
          attributes?: unknown;
          events?: unknown[];
        };
        const a = { ...resource, ...attributes(span.attributes) };
        const session =
          str(a['mnemoscope.session_id']) ??
          str(a['gen_ai.conversation.id']) ??
          str(a['session.id']) ??
          str(span.traceId);
        const agent = str(a['mnemoscope.agent']) ?? str(a['gen_ai.agent.name']) ?? str(a['service.name']) ?? 'otel';
        const timestamp = nanosToIso(span.startTimeUnixNano);
        let used = false;
        for (const [e, ev] of (span.events ?? []).entries()) {
          const event = (ev ?? {}) as { name?: string; attributes?: unknown };
          const ea = attributes(event.attributes);
          const where = `${source}.events[${e}]`;
          if (event.name === 'mnemoscope.memory_event') {
            used = true;
            const raw = ea.event;
            let data: unknown = raw;
            if (typeof raw === 'string') {
              try {
                data = JSON.parse(raw);
              } catch {
                out.errors.push({ source: where, message: 'attribute "event" must be the memory event as JSON' });
                continue;
              }
            }
            out.envelopes.push({ type: 'memory_event', data: (data ?? {}) as Record<string, unknown>, source: where });
          } else if (event.name === 'mnemoscope.artifact') {
            used = true;
            out.envelopes.push({
              type: 'artifact',
              data: { ...ea, ...(session ? { session_id: session } : {}), agent },
              source: where,
            });
          }
        }
        const turnNo = num(a['mnemoscope.turn']);
        if (a['mnemoscope.turn'] === undefined) {
          if (!used) out.skipped++;
          return;
        }
        if (turnNo === null || !Number.isInteger(turnNo)) {
          out.errors.push({
            source,
            message: `mnemoscope.turn must be an integer, got ${JSON.stringify(a['mnemoscope.turn'])}`,
          });
          return;
        }
        if (!session) {
          out.errors.push({ source, message: 'no session: set mnemoscope.session_id (or gen_ai.conversation.id)' });
          return;
        }
        const title = str(a['mnemoscope.title']);
        if (title && !titled.has(session)) {
          titled.add(session);
          out.envelopes.push({ type: 'session', data: { id: session, agent, title }, source });
        }
        const usage = {
          input_tokens: num(a['gen_ai.usage.input_tokens']),
          output_tokens: num(a['gen_ai.usage.output_tokens']),
        };
        const footprint = Object.fromEntries(Object.entries(usage).filter(([, v]) => v !== null));
        const data: Record<string, unknown> = {
          session_id: session,
          agent,
          turn: turnNo,
          input:
            str(a['mnemoscope.input']) ?? messagesText(a['gen_ai.input.messages']) ?? str(a['gen_ai.prompt']) ?? '',
          output:
            str(a['mnemoscope.output']) ??
            messagesText(a['gen_ai.output.messages']) ??
            str(a['gen_ai.completion']) ??
            '',
          ccs: ccsOf(a['mnemoscope.ccs']),
          recalled: list(a['mnemoscope.recalled']) ?? [],
          qualified: list(a['mnemoscope.qualified']) ?? [],
          otel: { trace_id: span.traceId ?? null, span_id: span.spanId ?? null, name: span.name ?? null },
        };
        if (Object.keys(footprint).length) data.footprint = footprint;
        if (timestamp) data.timestamp = timestamp;
        for (const [k, key] of [
          ['hallucination', 'mnemoscope.hallucination'],
          ['drift', 'mnemoscope.drift'],
          ['utility', 'mnemoscope.utility'],
        ] as const)
          if (num(a[key]) !== null) data[k] = num(a[key]);
        if (typeof a['mnemoscope.success'] === 'boolean') data.success = a['mnemoscope.success'];
        out.envelopes.push({ type: 'turn', data, source });
      });
    });
  });
  return out;
}
