import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';

/** OTLP/HTTP traces in protobuf (gzip too) and JSON through the route handler, on an in-memory database. */
const { enterApp, leaveApp } = await import('@/server/test/in-process');
const saved = enterApp();
const { ready } = await import('@/server/bootstrap');
const { createKey } = await import('@/server/services/api-keys');
const route = await import('@/app/api/v1/otel/v1/traces/route');
const { turns } = await import('@/server/db/schema/sessions');
const { eq } = await import('drizzle-orm');

let key = '';
beforeAll(async () => {
  const { db } = await ready();
  key = (await createKey(db, 'default', 'otlp', 'test', 'agent')).key;
});
afterAll(() => leaveApp(saved));

/** Spans as the OpenTelemetry JS SDK makes them: a turn each, and one without its CCS. */
function spans(conv: string) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'proto-bot' }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('t');
  for (const k of [1, 2])
    tracer
      .startSpan('invoke_agent', {
        attributes: {
          'gen_ai.conversation.id': conv,
          'mnemoscope.turn': k,
          'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `q${k}` }] }]),
          'mnemoscope.ccs': JSON.stringify({ goal_orientation: [`g(${k})`] }),
        },
      })
      .end();
  tracer.startSpan('invoke_agent', { attributes: { 'mnemoscope.turn': 3 } }).end();
  return exporter.getFinishedSpans();
}

const post = (body: Uint8Array, headers: Record<string, string>) =>
  route.POST(
    new Request('http://127.0.0.1/api/v1/otel/v1/traces', {
      method: 'POST',
      headers,
      body: body as Uint8Array<ArrayBuffer>,
    }),
  );
const stored = async (conv: string) => {
  const { db } = await ready();
  return (
    await db
      .select({ turn: turns.turn, input: turns.input, ccs: turns.ccs })
      .from(turns)
      .where(eq(turns.sessionId, conv))
  )
    .map((t) => [t.turn, t.input, JSON.stringify(t.ccs)])
    .sort();
};

describe('OTLP/HTTP traces', () => {
  it('takes protobuf, gzip-compressed, and answers in protobuf with the refused span named', async () => {
    const body = gzipSync(ProtobufTraceSerializer.serializeRequest(spans('proto-conv'))!);
    const r = await post(body, {
      authorization: `Bearer ${key}`,
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-protobuf');
    // Read back by the official OTLP deserializer.
    const answer = ProtobufTraceSerializer.deserializeResponse(new Uint8Array(await r.arrayBuffer()));
    expect(answer.partialSuccess?.rejectedSpans).toBe(1);
    expect(answer.partialSuccess?.errorMessage).toMatch(
      /^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[2\] \(turn\): data\.ccs required: the agent's Compressed Cognitive/,
    );
    expect((await stored('proto-conv')).map(([turn, input]) => [turn, input])).toEqual([
      [1, 'q1'],
      [2, 'q2'],
    ]);
  });

  it('stores the same turns from protobuf as from JSON, and retries are idempotent', async () => {
    const pb = await post(ProtobufTraceSerializer.serializeRequest(spans('pb-conv'))!, {
      authorization: `Bearer ${key}`,
      'content-type': 'application/x-protobuf',
    });
    expect(pb.status).toBe(200);
    const json = await post(JsonTraceSerializer.serializeRequest(spans('json-conv'))!, {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
    });
    expect(json.status).toBe(200);
    expect((await json.json()).mnemoscope).toMatchObject({ accepted: 2, duplicates: 0 });
    const viaJson = await stored('json-conv');
    expect(viaJson.map(([turn, input]) => [turn, input])).toEqual([
      [1, 'q1'],
      [2, 'q2'],
    ]);
    expect(await stored('pb-conv')).toEqual(viaJson);
    // The exporter sends the same spans again after a timeout: nothing is stored twice.
    const again = await post(ProtobufTraceSerializer.serializeRequest(spans('pb-conv'))!, {
      authorization: `Bearer ${key}`,
      'content-type': 'application/x-protobuf',
    });
    expect(again.status).toBe(200);
    expect(await stored('pb-conv')).toEqual(viaJson);
  });

  it('warns in its partial success, rejecting nothing, when calls are placed at once (too many waiting)', async () => {
    const { db } = await ready();
    const { sql } = await import('drizzle-orm');
    const { MAX_WAITING } = await import('@/server/services/otel-pending');
    await db.execute(
      sql`insert into otel_pending_spans (project_id, trace_id, span_id, span, resource)
          select 'default', 'fill' || (g / 10), 's' || g, '{}'::jsonb, '[]'::jsonb
            from generate_series(1, ${MAX_WAITING}) g`,
    );
    try {
      // A chat call under an invocation span that is not in the export.
      const exporter = new InMemorySpanExporter();
      const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
      const tracer = provider.getTracer('t');
      const parent = tracer.startSpan('invoke_agent');
      const { trace, context } = await import('@opentelemetry/api');
      tracer
        .startSpan(
          'chat',
          { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.conversation.id': 'full-conv' } },
          trace.setSpan(context.active(), parent),
        )
        .end();
      const r = await post(ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans())!, {
        authorization: `Bearer ${key}`,
        'content-type': 'application/x-protobuf',
      });
      expect(r.status).toBe(200);
      const answer = ProtobufTraceSerializer.deserializeResponse(new Uint8Array(await r.arrayBuffer()));
      expect(answer.partialSuccess?.rejectedSpans ?? 0).toBe(0);
      expect(answer.partialSuccess?.errorMessage).toMatch(/placed as turns of their own at once.*100000 spans waiting/);
      expect((await stored('full-conv')).map(([turn]) => turn)).toEqual([1]);
    } finally {
      await db.execute(sql`delete from otel_pending_spans where trace_id like 'fill%'`);
    }
  });

  it('answers errors to a protobuf exporter as a google.rpc.Status in protobuf', async () => {
    const bad = await post(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]), {
      authorization: `Bearer ${key}`,
      'content-type': 'application/x-protobuf',
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/x-protobuf');
    const text = new TextDecoder().decode(await bad.arrayBuffer());
    expect(text).toContain('not an OTLP protobuf ExportTraceServiceRequest');
    expect(text.charCodeAt(0)).toBe(0x08); // field 1 (code), varint
    const anonymous = await post(new Uint8Array(), { 'content-type': 'application/x-protobuf' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toBe('application/x-protobuf');
    expect(new TextDecoder().decode(await anonymous.arrayBuffer())).toMatch(/Bearer/i);
    // A database that cannot write: 503 with Retry-After, still a Status, not JSON.
    const { db } = await ready();
    const full = Object.assign(new Error('No space left on device'), { code: '53100' });
    const spy = vi.spyOn(db, 'transaction').mockRejectedValueOnce(full);
    const down = await post(ProtobufTraceSerializer.serializeRequest(spans('down-conv'))!, {
      authorization: `Bearer ${key}`,
      'content-type': 'application/x-protobuf',
    });
    spy.mockRestore();
    expect([down.status, down.headers.get('content-type'), down.headers.get('retry-after')]).toEqual([
      503,
      'application/x-protobuf',
      '5',
    ]);
    const status = new Uint8Array(await down.arrayBuffer());
    expect([status[0], status[1]]).toEqual([0x08, 14]); // code UNAVAILABLE
    expect(new TextDecoder().decode(status)).toContain('cannot store records now');
    // Any other failure (the key cannot even be looked up): still a retryable Status, not a bare 500.
    const lookup = vi.spyOn(db, 'select').mockImplementationOnce(() => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    });
    const unreachable = await post(ProtobufTraceSerializer.serializeRequest(spans('down-conv'))!, {
      authorization: `Bearer ${key}`,
      'content-type': 'application/x-protobuf',
    });
    lookup.mockRestore();
    expect([
      unreachable.status,
      unreachable.headers.get('content-type'),
      unreachable.headers.get('retry-after'),
    ]).toEqual([503, 'application/x-protobuf', '5']);
    expect(new TextDecoder().decode(await unreachable.arrayBuffer())).toContain('retry later');
  });
});
