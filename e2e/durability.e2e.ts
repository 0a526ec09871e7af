import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPostgres } from '../server/test/postgres';
import { startNextServer } from '../server/test/next-server';

const KEY = 'crash-key-0123456789abcdef';

let pg: Awaited<ReturnType<typeof startPostgres>>;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.stop());

const batch = (sid: string, n: number) =>
  Array.from({ length: n }, (_, k) => JSON.stringify({ type: 'turn', data: { session_id: sid, agent: 'a', turn: k, input: 'x'.repeat(400), output: 'y', ccs: { constraints: ['a(b)', `t(${k})`] } } })).join('\n');

describe.each(['pglite', 'postgres'] as const)('a crash of the server on %s', (driver) => {
  it('loses no acknowledged batch and leaves no half-written one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-crash-'));
    const env: Record<string, string> = { MNEMOSCOPE_API_KEY: KEY, ...(driver === 'pglite' ? { MNEMOSCOPE_DATA_DIR: dir, DATABASE_URL: '' } : { DATABASE_URL: pg.url }) };
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const post = (body: string) => fetch(`${url}/api/v1/ingest`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body });
    const count = async (sid: string) => {
      const r = await fetch(`${url}/api/v1/sessions/${sid}/export`, { headers: { authorization: `Bearer ${KEY}` } });
      return r.ok ? (await r.text()).split('\n').filter((l) => l.startsWith('{"type":"turn"')).length : 0;
    };
    let server = await startNextServer(env, port);
    try {
      expect((await post(batch(`${driver}-a`, 200))).status).toBe(200);
      // Kill the server at several moments into a 3,000-turn batch: before, during and after its commit.
      for (const [k, delay] of [80, 200, 320, 450, 700].entries()) {
        const sid = `${driver}-b${k}`;
        const answered = post(batch(sid, 3000)).then(
          (r) => r.status,
          () => 'killed' as const,
        );
        await new Promise((r) => setTimeout(r, delay));
        server.kill('SIGKILL');
        const status = await answered;
        server = await startNextServer(env, port);
        const stored = await count(sid);
        if (status === 200) expect(stored).toBe(3000); // acknowledged: on disk
        else expect([0, 3000]).toContain(stored); // not acknowledged: all or nothing
        expect(await count(`${driver}-a`)).toBe(200);
      }
    } finally {
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
