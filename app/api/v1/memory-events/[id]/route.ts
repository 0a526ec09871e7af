import { memoryEventGet } from '@/server/http/decisions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/v1/memory-events/{id}?wait= — what became of a memory event: now, or once a pending review is decided. */
export const GET = memoryEventGet;
