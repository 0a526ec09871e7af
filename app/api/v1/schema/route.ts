import { NextResponse } from 'next/server';
import { ingestJsonSchemas } from '@/lib/ingest/json-schema';

export const dynamic = 'force-static';

/** GET /api/v1/schema — JSON Schemas of the envelope and of `data` for every record type, from the zod contracts. */
export function GET() {
  return NextResponse.json(ingestJsonSchemas());
}
