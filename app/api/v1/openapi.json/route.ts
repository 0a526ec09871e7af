import { NextResponse } from 'next/server';
import { openApiDocument } from '@/lib/api/openapi';

export const dynamic = 'force-static';

/** GET /api/v1/openapi.json — the OpenAPI 3.1 document of every /api/v1 route, generated from the zod contracts. */
export function GET() {
  return NextResponse.json(openApiDocument());
}
