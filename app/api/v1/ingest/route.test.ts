import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The route as the server runs it: the process-wide database (in-memory PGlite here), the key from
// MNEMOSCOPE_API_KEY, and a rate limit of 3 requests a minute.
const KEY = 'route-test-key-0123456789';
let POST: (req: Request) => Promise<Response>;

beforeAll(async () => {
  Object.assign(process.env, {
    MNEMOSCOPE_DATA_DIR: 'memory',
    MNEMOSCOPE_DEMO: '0',
    MNEMOSCOPE_API_KEY: KEY,
    MNEMOSCOPE_RATE_LIMIT: '3',
    DATABASE_URL: '',
  });
  ({ POST } = await import('./route'));
});
afterAll(async () => {
  const { getDbHandle } = await import('@/server/db');
  await (await getDbHandle()).close();
});

const req = (body: string, key = KEY) =>
  new Request('http://localhost/api/v1/ingest', { method: 'POST', headers: { authorization: `Bearer ${key}` }, body });
const turn = (n: number) =>
  JSON.stringify({
    type: 'turn',
    data: { session_id: 'rl', agent: 'a', turn: n, input: 'i', output: 'o', ccs: 'constraints: a(b)' },
  });

describe('POST /api/v1/ingest', () => {
  it('answers 401 for an unknown key and 429 with Retry-After past the per-key rate', async () => {
    expect((await POST(req(turn(0), 'nope'))).status).toBe(401);
    const statuses = [];
    for (let n = 1; n <= 4; n++) statuses.push((await POST(req(turn(n)))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await POST(req(turn(9)));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await limited.json()).error).toMatch(/rate limit of 3 requests a minute/);
  });
});
