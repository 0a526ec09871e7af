import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The route as the server runs it: the process-wide database (in-memory PGlite here) and the key from
// MNEMOSCOPE_API_KEY: an automated judge posting scores and reading them back.
const KEY = 'annotations-route-key-0123456789';
let GET: (req: Request) => Promise<Response>;
let POST: (req: Request) => Promise<Response>;

beforeAll(async () => {
  Object.assign(process.env, {
    MNEMOSCOPE_DATA_DIR: 'memory',
    MNEMOSCOPE_DEMO: '0',
    MNEMOSCOPE_API_KEY: KEY,
    MNEMOSCOPE_RATE_LIMIT: '100',
    DATABASE_URL: '',
  });
  ({ GET, POST } = await import('./route'));
});
afterAll(async () => {
  const { getDbHandle } = await import('@/server/db');
  await (await getDbHandle()).close();
});

const url = 'http://localhost/api/v1/annotations';
const auth = { authorization: `Bearer ${KEY}` };

describe('/api/v1/annotations', () => {
  it('takes a judge’s scores (207 naming the bad one) and lists them newest first, page by page', async () => {
    const scores = Array.from({ length: 3 }, (_, i) => ({
      id: `judge-${i}`,
      target: 'turn',
      session_id: 'run-1',
      turn: i + 1,
      name: 'faithfulness',
      value: i / 2,
      author: 'llm-judge',
    }));
    const res = await POST(
      new Request(url, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify([...scores, { id: 'bad', target: 'proposal', comment: 'x' }]),
      }),
    );
    expect(res.status).toBe(207);
    const body = await res.json();
    expect(body.accepted).toBe(3);
    expect(body.results[3].errors).toEqual([
      { path: 'data.proposal_id', message: 'required for a proposal annotation' },
    ]);

    const page1 = await (await GET(new Request(`${url}?session_id=run-1&limit=2`, { headers: auth }))).json();
    expect(page1.matching).toBe(3);
    expect(page1.annotations.map((a: { id: string }) => a.id)).toEqual(['judge-2', 'judge-1']);
    expect(page1.annotations[0]).toMatchObject({ author: 'llm-judge', value: 1, turn: 3, session_id: 'run-1' });
    expect(page1.annotations[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const page2 = await (
      await GET(new Request(`${url}?session_id=run-1&limit=2&cursor=${page1.next}`, { headers: auth }))
    ).json();
    expect(page2.annotations.map((a: { id: string }) => a.id)).toEqual(['judge-0']);
    expect(page2.next).toBeNull();
  });

  it('refuses what it cannot read, naming the parameter; 401 without a key', async () => {
    const bad = async (q: string) => {
      const r = await GET(new Request(`${url}?${q}`, { headers: auth }));
      return [r.status, (await r.json()).error];
    };
    expect(await bad('target=session')).toEqual([400, expect.stringMatching(/^target: /)]);
    expect(await bad('sessionid=x')).toEqual([400, 'query: unknown parameter(s) sessionid']);
    expect(await bad('cursor=abc')).toEqual([400, expect.stringMatching(/^cursor: not a cursor/)]);
    expect((await GET(new Request(url))).status).toBe(401);
    const notJson = await POST(new Request(url, { method: 'POST', headers: auth, body: '{' }));
    expect([notJson.status, (await notJson.json()).error]).toEqual([400, expect.stringMatching(/^body is not JSON/)]);
  });
});
