import { NextResponse } from 'next/server';
import { otlpToEnvelopes, spanPath } from '@/lib/otel/otlp';
import { decodeTraceRequest, encodeStatus, encodeTraceResponse } from '@/lib/otel/otlp-proto';
import { shapeProblem } from '@/lib/ingest/depth';
import { env } from '@/server/env';
import { storePrepared } from '@/server/services/ingest';
import { ingestTraces } from '@/server/services/otel-pending';
import { prepareBody } from '@/server/services/ingest-prepare';
import { annotate } from '@/server/log';
import { authedBody, jsonError, withDomainErrors } from './respond';

const counts = (s: { accepted: number; duplicates: number; rejected: number; conflicts: number }) => ({
  accepted: s.accepted,
  duplicates: s.duplicates,
  rejected: s.rejected,
  conflicts: s.conflicts,
});

/**
 * POST /api/v1/ingest[?supersede=true] — a JSON array or NDJSON of {"type", "data"} envelopes; one result per record,
 * in order. A record whose id holds another version is answered `conflict` (the stored one kept), or with
 * `supersede=true` replaces it (`superseded`; the old version kept in record_versions). 207 when any record was not
 * stored as sent.
 */
export async function ingestPost(req: Request) {
  const supersede = new URL(req.url).searchParams.get('supersede');
  if (supersede !== null && supersede !== 'true' && supersede !== 'false')
    return jsonError(400, `supersede: ${JSON.stringify(supersede)} is not true or false`);
  const { MNEMOSCOPE_MAX_BODY_BYTES, MNEMOSCOPE_MAX_BATCH } = env();
  const got = await authedBody(req, MNEMOSCOPE_MAX_BODY_BYTES);
  if (got instanceof NextResponse) return got;
  const { auth, body } = got;
  const prepared = prepareBody(body, MNEMOSCOPE_MAX_BATCH);
  if (!prepared.ok) return jsonError(prepared.status, prepared.error, prepared.extra);
  const summary = await storePrepared(auth.db, auth.projectId, prepared.prepared, auth.actor, {
    supersede: supersede === 'true',
  });
  annotate({ records: counts(summary) });
  return NextResponse.json(summary, { status: summary.rejected || summary.conflicts ? 207 : 200 });
}

/**
 * POST /api/v1/otel/v1/traces — OTLP/HTTP traces, binary protobuf (the exporters' default) or JSON, each also
 * gzip-compressed (set OTEL_EXPORTER_OTLP_ENDPOINT to `<mnemoscope>/api/v1/otel` and OTEL_EXPORTER_OTLP_HEADERS to
 * `Authorization=Bearer <key>`). Spans carrying Mnemoscope attributes become turns, memory events and artifacts
 * (lib/otel/otlp.ts); the answer is the OTLP ExportTraceServiceResponse in the request's encoding, with
 * partialSuccess naming what was refused; errors in protobuf are a google.rpc.Status.
 */
export async function otlpTracesPost(req: Request): Promise<Response> {
  const proto = /protobuf/i.test(req.headers.get('content-type') ?? '');
  let res = await withDomainErrors(() => otlpTraces(req, proto));
  if (proto && res.status === 500) {
    // Anything else (logged): a Status the exporter retries, as exporters drop spans on a 500.
    res = jsonError(503, 'the server could not take these spans now; retry later');
    res.headers.set('Retry-After', '5');
  }
  // Every error (sign-in, rate limit, body size, a database that cannot write) in the encoding the exporter reads.
  return proto && res.headers.get('content-type') !== PROTOBUF ? await asOtlpStatus(res) : res;
}

const PROTOBUF = 'application/x-protobuf';

async function otlpTraces(req: Request, proto: boolean): Promise<Response> {
  const got = await authedBody(req, env().MNEMOSCOPE_MAX_BODY_BYTES);
  if (got instanceof NextResponse) return got;
  const { auth, body: raw } = got;
  const fail = (message: string) => jsonError(400, message);
  let traces: unknown;
  if (proto) {
    try {
      traces = decodeTraceRequest(raw);
    } catch (e) {
      return fail(`body is not an OTLP protobuf ExportTraceServiceRequest: ${(e as Error).message}`);
    }
  } else {
    try {
      traces = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch (e) {
      return fail(`body is not JSON: ${e instanceof SyntaxError ? e.message : 'it is not valid UTF-8'}`);
    }
  }
  let mapped: ReturnType<typeof otlpToEnvelopes>;
  try {
    const shape = shapeProblem(traces, 256);
    if (shape) return fail(`body: ${shape.path.slice(0, 200)} ${shape.message}`);
    mapped = otlpToEnvelopes(traces);
  } catch (e) {
    return fail((e as Error).message);
  }
  // With the spans of its traces that came earlier and waited; calls whose turn is still to come wait in turn.
  const received = mapped.spans;
  const done = await ingestTraces(auth.db, auth.projectId, traces, mapped, auth.actor);
  ({ mapped } = done);
  const { summary, warning } = done;
  annotate({ records: { ...counts(summary), refused: mapped.errors.length, pending: mapped.pending.length } });
  const refused = [
    ...mapped.errors.map((e) => `${e.source}: ${e.message}`),
    ...summary.results.flatMap((r) =>
      r.status === 'rejected' || r.status === 'conflict'
        ? [
            `${mapped.envelopes[r.index]!.source} (${mapped.envelopes[r.index]!.type}): ` +
              (r.status === 'conflict'
                ? r.message
                : r.errors.map((x) => `${spanPath(mapped.envelopes[r.index]!, x.path)} ${x.message}`).join('; ')),
          ]
        : [],
    ),
  ];
  // Stored, with something left out or looking wrong (a figure that is not one, a field that looks like a slip).
  const noted = [
    ...mapped.envelopes.flatMap((e) => (e.warnings ?? []).map((w) => `${e.source} (${e.type}): ${w}`)),
    ...summary.results.flatMap((r) =>
      'warnings' in r && r.warnings
        ? r.warnings.map((w) => {
            const e = mapped.envelopes[r.index]!;
            return `${e.source} (${e.type}): ${spanPath(e, w.path)} ${w.message}`;
          })
        : [],
    ),
  ];
  const detail = {
    spans: received,
    skipped: mapped.skipped,
    pending: mapped.pending.length,
    accepted: summary.accepted,
    duplicates: summary.duplicates,
    rejected: refused.length,
    ...(warning ? { warning } : {}),
    ...(noted.length ? { warnings: noted.length } : {}),
  };
  // OTLP's partial success: rejected spans with why, or none rejected and warnings.
  const partial =
    refused.length || warning || noted.length
      ? {
          rejectedSpans: refused.length,
          errorMessage: [...refused.slice(0, 20), ...noted.slice(0, 20), ...(warning ? [warning] : [])].join('\n'),
        }
      : null;
  if (proto)
    return new NextResponse(encodeTraceResponse(partial) as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': PROTOBUF },
    });
  return NextResponse.json(partial ? { partialSuccess: partial, mnemoscope: detail } : { mnemoscope: detail });
}

/** google.rpc.Code for an HTTP status, as OTLP/HTTP answers errors. */
const RPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 413: 8, 415: 3, 429: 8, 503: 14 };

/** A JSON error answer as the protobuf google.rpc.Status a protobuf exporter expects (its headers kept). */
async function asOtlpStatus(res: Response) {
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  const status = new NextResponse(
    encodeStatus(RPC_CODE[res.status] ?? 13, body.error ?? res.statusText) as Uint8Array<ArrayBuffer>,
    { status: res.status, headers: res.headers },
  );
  status.headers.set('content-type', PROTOBUF);
  return status;
}
