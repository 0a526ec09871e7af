import { expect } from 'vitest';

/** A session as `GET /api/v1/sessions/{id}/export` gives it: one record a line. */
export async function exportRecords(
  srv: { url: string; key: string },
  session: string,
): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const res = await fetch(`${srv.url}/api/v1/sessions/${encodeURIComponent(session)}/export`, {
    headers: { authorization: `Bearer ${srv.key}` },
  });
  expect(res.status).toBe(200);
  return (await res.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
}

/** The session's turns, as exported. */
export const exportedTurns = async <T = Record<string, unknown>>(srv: { url: string; key: string }, session: string) =>
  (await exportRecords(srv, session)).filter((r) => r.type === 'turn').map((r) => r.data as T);
