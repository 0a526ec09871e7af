import protobuf from 'protobufjs/light';
import descriptor from './otlp-trace.descriptor.json';

/**
 * OTLP/HTTP in binary protobuf, as the OpenTelemetry exporters send it by default (Python's HTTP exporter sends
 * nothing else): decoded by protobufjs against the official trace schema (lib/otel/proto/, compiled to
 * otlp-trace.descriptor.json by `npm run otlp:descriptor`) into the shape of OTLP/JSON, which otlp.ts maps.
 */

const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
const Request = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const Response = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
// google.rpc.Status, which OTLP/HTTP answers errors with in protobuf (not in the OTLP schema files).
const Status = new protobuf.Type('Status')
  .add(new protobuf.Field('code', 1, 'int32'))
  .add(new protobuf.Field('message', 2, 'string'));
new protobuf.Root().define('google.rpc').add(Status);

const ID_FIELDS = ['traceId', 'spanId', 'parentSpanId'] as const;

/** Base64 (protobufjs's form of bytes) → lowercase hex (OTLP/JSON's form of trace and span ids). */
function hex(b64: string): string {
  const bin = atob(b64);
  let out = '';
  for (let i = 0; i < bin.length; i++) out += bin.charCodeAt(i).toString(16).padStart(2, '0');
  return out;
}

function hexIds(o: Record<string, unknown>) {
  for (const k of ID_FIELDS) if (typeof o[k] === 'string') o[k] = hex(o[k]);
}

/**
 * An ExportTraceServiceRequest in protobuf → the same request as OTLP/JSON would carry it: camelCase fields, 64-bit
 * integers as decimal strings, enums as numbers, trace and span ids as hex, other bytes as base64. Throws on a body
 * that is not one (truncated, wrong wire types, nested beyond what the decoder can follow).
 */
export function decodeTraceRequest(body: Uint8Array): unknown {
  const message = Request.decode(body);
  const obj = Request.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false }) as {
    resourceSpans?: {
      scopeSpans?: { spans?: (Record<string, unknown> & { links?: Record<string, unknown>[] })[] }[];
    }[];
  };
  for (const rs of obj.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? [])
      for (const span of ss.spans ?? []) {
        hexIds(span);
        for (const link of span.links ?? []) hexIds(link);
      }
  return { resourceSpans: [], ...obj };
}

/** The ExportTraceServiceResponse in protobuf, with partialSuccess when some spans were refused. */
export function encodeTraceResponse(partial: { rejectedSpans: number; errorMessage: string } | null): Uint8Array {
  return Response.encode(Response.fromObject(partial ? { partialSuccess: partial } : {})).finish();
}

/** An OTLP/HTTP error answer in protobuf (google.rpc.Status). */
export function encodeStatus(code: number, message: string): Uint8Array {
  return Status.encode(Status.fromObject({ code, message })).finish();
}
