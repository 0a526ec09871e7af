/**
 * Writes lib/otel/otlp-trace.descriptor.json, the OTLP trace schema as protobufjs reads it at run time
 * (lib/otel/otlp-proto.ts), from the official .proto files vendored in lib/otel/proto/ (see its README). Run it
 * after updating those files; server/build/otlp-descriptor.test.ts fails while the JSON is out of date.
 *
 *   npm run otlp:descriptor
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import protobuf from 'protobufjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const DESCRIPTOR = path.join(ROOT, 'lib/otel/otlp-trace.descriptor.json');

/** The trace service's request and response with everything they use, as protobufjs JSON. */
export function otlpDescriptor(): protobuf.INamespace {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(ROOT, 'lib/otel/proto', target);
  root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: false });
  root.resolveAll();
  return root.toJSON();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(DESCRIPTOR, `${JSON.stringify(otlpDescriptor())}\n`);
  console.log(`wrote ${path.relative(process.cwd(), DESCRIPTOR)}`);
}
