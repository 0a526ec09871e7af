import { describe, expect, it } from 'vitest';
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { decodeTraceRequest, encodeStatus, encodeTraceResponse } from './otlp-proto';
import { otlpToEnvelopes } from './otlp';

/** Spans made by the OpenTelemetry JS SDK, serialised by its own OTLP serializers (protobuf and JSON). */
function sdkSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'proto-agent', 'deployment.count': 3 }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('unit');
  for (let k = 1; k <= 3; k++) {
    const span = tracer.startSpan('invoke_agent ops', {
      kind: SpanKind.SERVER,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.conversation.id': 'proto-conv',
        'mnemoscope.turn': k,
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `q${k} é` }] }]),
        'mnemoscope.ccs': JSON.stringify({ goal_orientation: [`g(${k})`] }),
        'mnemoscope.recalled': ['doc-1', 'doc-2'],
        'gen_ai.usage.input_tokens': 2 ** 40 + k,
        'x.ratio': 0.25,
        'x.flag': true,
      },
    });
    span.addEvent('mnemoscope.artifact', { id: `doc-${k}`, content: 'runbook text' });
    const child = tracer.startSpan('chat gpt', {}, trace.setSpan(context.active(), span));
    child.end();
    span.setStatus({ code: SpanStatusCode.OK });
    span.end();
  }
  return exporter.getFinishedSpans();
}

describe('OTLP/HTTP protobuf', () => {
  const spans = sdkSpans();
  const proto = ProtobufTraceSerializer.serializeRequest(spans)!;
  const json = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)!));

  it('decodes what the official serializer encodes into what its JSON serializer sends, ids as hex', () => {
    const decoded = decodeTraceRequest(proto) as typeof json;
    const span = (b: typeof json) =>
      b.resourceSpans[0].scopeSpans[0].spans.find((x: { name: string }) => x.name === 'invoke_agent ops');
    expect(span(decoded).traceId).toBe(span(json).traceId);
    expect(span(decoded).traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span(decoded).spanId).toBe(span(json).spanId);
    expect(String(span(decoded).startTimeUnixNano)).toBe(String(span(json).startTimeUnixNano));
    // 64-bit integers are decimal strings, as OTLP/JSON allows (the JS serializer writes small ones as numbers).
    const ints = (attrs: { key: string; value: { intValue?: unknown } }[]) =>
      attrs.map((a) => (a.value.intValue === undefined ? a : { ...a, value: { intValue: String(a.value.intValue) } }));
    expect(ints(decoded.resourceSpans[0].resource.attributes)).toEqual(ints(json.resourceSpans[0].resource.attributes));
    expect(ints(span(decoded).attributes)).toEqual(ints(span(json).attributes));
    expect(span(decoded).events[0].name).toBe('mnemoscope.artifact');
    // The child span names its parent, in hex too.
    const child = decoded.resourceSpans[0].scopeSpans[0].spans.find((x: { name: string }) => x.name === 'chat gpt');
    expect(child.parentSpanId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('maps to the same turns, events and artifacts as the JSON encoding', () => {
    const fromProto = otlpToEnvelopes(decodeTraceRequest(proto));
    const fromJson = otlpToEnvelopes(json);
    expect(fromProto).toEqual(fromJson);
    expect(fromProto.envelopes.filter((e) => e.type === 'turn')).toHaveLength(3);
  });

  it("refuses a body that is not a request, or nests attribute values beyond the decoder's depth limit", () => {
    expect(() => decodeTraceRequest(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]))).toThrow();
    // A resource attribute whose value is a key-value list 5,000 levels deep (hostile: ~65 KB).
    const varint = (n: number) => {
      const out: number[] = [];
      for (; n > 127; n >>>= 7) out.push((n & 127) | 128);
      return [...out, n];
    };
    const field = (n: number, body: number[]) => [(n << 3) | 2, ...varint(body.length), ...body];
    let value = field(1, [0x78]);
    for (let d = 0; d < 5000; d++) value = field(6, field(1, [...field(1, [0x6b]), ...field(2, value)]));
    const deep = new Uint8Array(field(1, field(1, field(1, [...field(1, [0x6b]), ...field(2, value)]))));
    expect(() => decodeTraceRequest(deep)).toThrow(/depth/);
  });

  it('encodes the answers', () => {
    expect(decodeTraceRequest(new Uint8Array())).toEqual({ resourceSpans: [] });
    expect(encodeTraceResponse(null).length).toBe(0);
    const partial = encodeTraceResponse({ rejectedSpans: 2, errorMessage: 'two refused' });
    expect(partial.length).toBeGreaterThan(10);
    expect(new TextDecoder().decode(partial)).toContain('two refused');
    expect(new TextDecoder().decode(encodeStatus(3, 'bad'))).toContain('bad');
  });
});
