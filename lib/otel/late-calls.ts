/**
 * Calls that arrive after their turn is stored. A batch span processor exports a long invocation's calls before the
 * invocation's span; when the two exports are requests in flight at once, the request with the invocation can store
 * its turn before the other has kept its calls (server/services/otel-pending.ts). Those calls belong to that stored
 * turn: they are read under it as `otlpToEnvelopes` reads a turn's calls (times from its start), and merged into it
 * here. What is not as it would have been in time: the turn's session, agent and input were read from its own span
 * (the calls may have named the conversation). The figures of the turn's own span (latency, and tokens or cost it
 * carried) were stored with it, calls or not, and stay. A call below one of the turn's calls (a chain inside the
 * agent) is found by that call's span, which the stored call keeps. Pure.
 */

import { otlpToEnvelopes, usageOf, type PendingSpan, type TurnCall, type TurnUsage } from './otlp';

/** What a stored turn of a trace holds that late calls can change. */
export interface StoredTurn {
  input: string;
  output: string;
  recalled: unknown[] | null;
  footprint: Record<string, unknown> | null;
  extra: Record<string, unknown> & { calls?: TurnCall[]; usage?: TurnUsage };
}

/** At most this many calls per turn, as `otlpToEnvelopes` keeps. */
const MAX_CALLS = 200;

/**
 * The turn-shaped reading of spans below a stored turn's span (`spanId`, started at `startMs`) or below the spans of
 * its stored `calls`: their calls (a turn's calls are a flat list, so a span under a stored call is read as under the
 * turn), the documents they retrieved, and the input and output of their first and last LLM call. Null if they place
 * nothing.
 */
export function callsUnder(
  turn: { traceId: string; spanId: string; startMs: number; calls?: readonly string[] },
  spans: PendingSpan[],
) {
  const under = new Set(turn.calls ?? []);
  const reparent = (span: Record<string, unknown>) =>
    typeof span.parentSpanId === 'string' && under.has(span.parentSpanId)
      ? { ...span, parentSpanId: turn.spanId }
      : span;
  const head = {
    traceId: turn.traceId,
    spanId: turn.spanId,
    name: 'turn',
    startTimeUnixNano: String(BigInt(Math.round(turn.startMs)) * 1_000_000n),
    attributes: [
      { key: 'mnemoscope.turn', value: { intValue: '1' } },
      { key: 'mnemoscope.session_id', value: { stringValue: 'late' } },
    ],
  };
  const body = {
    resourceSpans: [
      { resource: { attributes: [] }, scopeSpans: [{ spans: [head] }] },
      ...spans.map((p) => ({ resource: { attributes: p.resource }, scopeSpans: [{ spans: [reparent(p.span)] }] })),
    ],
  };
  const mine = otlpToEnvelopes(body, { orphansAreTurns: true }).envelopes.find(
    (e) => e.type === 'turn' && (e.data.otel as { span_id?: unknown } | undefined)?.span_id === turn.spanId,
  );
  const calls = (mine?.data.calls as TurnCall[] | undefined) ?? [];
  if (!calls.length) return null;
  return {
    calls,
    documents: (mine!.data.recalled as string[] | undefined) ?? [],
    input: String(mine!.data.input ?? ''),
    output: String(mine!.data.output ?? ''),
  };
}

type Figure = 'input_tokens' | 'output_tokens' | 'cost';

const sumOf = (calls: TurnCall[], k: Figure) =>
  calls.some((c) => c[k] !== undefined) ? calls.reduce((n, c) => n + (c[k] ?? 0), 0) : null;

/**
 * The stored turn with the late calls added, in start order, and what follows from them: totals counted again (a
 * total the turn's own span carried is kept), the documents they retrieved added to a recall that was read from its
 * calls, and its input or output taken from them where the turn had none. Returns the fields that changed.
 */
export function withLateCalls(stored: StoredTurn, late: NonNullable<ReturnType<typeof callsUnder>>) {
  const footprint = stored.footprint ?? {};
  const recalled = stored.recalled ?? [];
  const before = stored.extra.calls ?? [];
  // A span the turn holds already (an exporter that sent the calls again) is not a second call.
  const held = new Set(before.flatMap((c) => (c.span_id ? [c.span_id] : [])));
  const fresh = late.calls.filter((c) => !c.span_id || !held.has(c.span_id));
  if (!fresh.length) return { turn: stored, fields: [] as string[] };
  const calls = [...before, ...fresh].sort((a, b) => a.start_ms - b.start_ms).slice(0, MAX_CALLS);
  const old = (stored.extra.usage ?? {}) as Partial<TurnUsage>;
  // A figure its own span carried differs from the sum of its calls (or it had none): that one stays.
  const total = (k: Figure, had: unknown) => {
    const own = typeof had === 'number' && had !== sumOf(before, k);
    return own ? had : sumOf(calls, k);
  };
  const tokens = {
    input_tokens: total('input_tokens', old.input_tokens ?? footprint.input_tokens),
    output_tokens: total('output_tokens', old.output_tokens ?? footprint.output_tokens),
  };
  const cost = total('cost', old.cost);
  const known = Object.fromEntries(Object.entries(tokens).filter(([, v]) => v !== null)) as Record<string, number>;
  const usage = usageOf(calls, known, cost, old.latency_ms);
  // A recall read from the calls' documents (not one the agent declared) gains the late calls' documents.
  const derived = [...new Set(before.flatMap((c) => c.documents ?? []))];
  const recallFromCalls = recalled.length === derived.length && recalled.every((d, i) => d === derived[i]);
  const next: StoredTurn = {
    input: stored.input || late.input,
    output: stored.output || late.output,
    recalled: recallFromCalls ? [...new Set([...recalled, ...late.documents])] : recalled,
    footprint: Object.keys(known).length ? { ...footprint, ...known } : stored.footprint,
    extra: { ...stored.extra, calls, usage },
  };
  const fields = (['input', 'output', 'recalled', 'footprint', 'extra'] as const).filter(
    (k) => JSON.stringify(next[k]) !== JSON.stringify(stored[k]),
  );
  return { turn: next, fields };
}
