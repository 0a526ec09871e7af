/**
 * A file of OTLP/JSON trace exports, as an OpenTelemetry Collector's file exporter writes them (one
 * `ExportTraceServiceRequest` a line) or as one export saved whole: the requests in it, each to be sent to
 * `POST /api/v1/otel/v1/traces` as an exporter would have sent it. Null when the file is something else.
 */
export function otlpRequests(text: string): object[] | null {
  const isRequest = (v: unknown): v is object =>
    !!v && typeof v === 'object' && Array.isArray((v as { resourceSpans?: unknown }).resourceSpans);
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const whole: unknown = JSON.parse(trimmed);
    return isRequest(whole) ? [whole] : null;
  } catch {
    // Not one JSON value: JSON lines, each a request.
  }
  const out: object[] = [];
  for (const line of trimmed.split(/\r?\n/)) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return null;
    }
    if (!isRequest(v)) return null;
    out.push(v);
  }
  return out.length ? out : null;
}
