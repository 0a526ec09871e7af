import { sessionStateGet } from '@/server/http/exports';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** GET /api/v1/sessions/{id}/state?turn= — the latest CCS of a session (or at a turn): what an agent resumes from. */
export const GET = sessionStateGet;
