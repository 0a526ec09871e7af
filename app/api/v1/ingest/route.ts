import { NextResponse } from 'next/server';
import { parseIngestBody } from '@/lib/ingest/body';
import { env } from '@/server/env';
import { authedBody, jsonError } from '@/server/http/respond';
import { ingest } from '@/server/services/ingest';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** POST /api/v1/ingest — a JSON array or NDJSON of {"type", "data"} envelopes; one result per record, in order. */
export async function POST(req: Request) {
  const { MNEMOSCOPE_MAX_BODY_BYTES, MNEMOSCOPE_MAX_BATCH } = env();
  const got = await authedBody(req, MNEMOSCOPE_MAX_BODY_BYTES);
  if (got instanceof NextResponse) return got;
  const { auth, body } = got;
  const parsed = parseIngestBody(body);
  if (!parsed.ok) return jsonError(400, parsed.error);
  if (parsed.items.length > MNEMOSCOPE_MAX_BATCH)
    return jsonError(413, `batch has ${parsed.items.length} records; at most ${MNEMOSCOPE_MAX_BATCH} per request`, { limitRecords: MNEMOSCOPE_MAX_BATCH });
  const summary = await ingest(auth.db, auth.projectId, parsed.items, auth.actor);
  return NextResponse.json(summary, { status: summary.rejected ? 207 : 200 });
}
