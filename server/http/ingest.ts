import { NextResponse } from 'next/server';
import { otlpToEnvelopes } from '@/lib/otel/otlp';
import { shapeProblem } from '@/lib/ingest/depth';
import { env } from '@/server/env';
import { ingest, storePrepared } from '@/server/services/ingest';
import { prepareBody } from '@/server/services/ingest-prepare';
import { annotate } from '@/server/log';
import { authedBody, jsonError } from './respond';

const counts = (s: { accepted: number; duplicates: number; rejected: number }) => ({
  accepted: s.accepted,
  duplicates: s.duplicates,
  rejected: s.rejected,
});

/** POST /api/v1/ingest — a JSON array or NDJSON of {"type", "data"} envelopes; one result per record, in order. */
export async function ingestPost(req: Request) {
  const { MNEMOSCOPE_MAX_BODY_BYTES, MNEMOSCOPE_MAX_BATCH } = env();
  const got = await authedBody(req, MNEMOSCOPE_MAX_BODY_BYTES);
  if (got instanceof NextResponse) return got;
  const { auth, body } = got;
  const prepared = prepareBody(body, MNEMOSCOPE_MAX_BATCH);
  if (!prepared.ok) return jsonError(prepared.status, prepared.error, prepared.extra);
  const summary = await storePrepared(auth.db, auth.projectId, prepared.prepared, auth.actor);
  annotate({ records: counts(summary) });
  return NextResponse.json(summary, { status: summary.rejected ? 207 : 200 });
}

/**
 * POST /api/v1/otel/v1/traces — OTLP/HTTP JSON traces (set OTEL_EXPORTER_OTLP_ENDPOINT to
 * `<mnemoscope>/api/v1/otel` and OTEL_EXPORTER_OTLP_HEADERS to `Authorization=Bearer <key>`). Spans
 * carrying Mnemoscope attributes become turns, memory events and artifacts (lib/otel/otlp.ts); the
 * answer is the OTLP ExportTraceServiceResponse, with partialSuccess naming what was refused.
 */
export async function otlpTracesPost(req: Request) {
  const got = await authedBody(req, env().MNEMOSCOPE_MAX_BODY_BYTES);
  if (got instanceof NextResponse) return got;
  const { auth, body: raw } = got;
  if (/protobuf/i.test(req.headers.get('content-type') ?? ''))
    return jsonError(
      415,
      'OTLP protobuf is not accepted: export OTLP/HTTP JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)',
    );
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch (e) {
    return jsonError(400, `body could not be read: ${(e as Error).message}`);
  }
  let mapped: ReturnType<typeof otlpToEnvelopes>;
  try {
    const traces: unknown = JSON.parse(text);
    const shape = shapeProblem(traces, 256);
    if (shape) return jsonError(400, `body: ${shape.path.slice(0, 200)} ${shape.message}`);
    mapped = otlpToEnvelopes(traces);
  } catch (e) {
    return jsonError(400, e instanceof SyntaxError ? `body is not JSON: ${e.message}` : (e as Error).message);
  }
  const summary = mapped.envelopes.length
    ? await ingest(
        auth.db,
        auth.projectId,
        mapped.envelopes.map((e) => ({
          ok: true as const,
          value: { type: e.type, data: e.data, source: `otlp:${e.source}` },
        })),
        auth.actor,
      )
    : { results: [], accepted: 0, duplicates: 0, rejected: 0 };
  annotate({ records: { ...counts(summary), refused: mapped.errors.length } });
  const refused = [
    ...mapped.errors.map((e) => `${e.source}: ${e.message}`),
    ...summary.results.flatMap((r) =>
      r.status === 'rejected'
        ? [
            `${mapped.envelopes[r.index]!.source} (${mapped.envelopes[r.index]!.type}): ` +
              r.errors.map((x) => `${x.path || 'record'} ${x.message}`).join('; '),
          ]
        : [],
    ),
  ];
  const detail = {
    spans: mapped.spans,
    skipped: mapped.skipped,
    accepted: summary.accepted,
    duplicates: summary.duplicates,
    rejected: refused.length,
  };
  return NextResponse.json(
    refused.length
      ? {
          partialSuccess: { rejectedSpans: refused.length, errorMessage: refused.slice(0, 20).join('\n') },
          mnemoscope: detail,
        }
      : { mnemoscope: detail },
  );
}
