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
  Array.from({ length: n }, (_, k) =>
    JSON.stringify({
      type: 'turn',
      data: {
        session_id: sid,
        agent: 'a',
        turn: k,
        input: 'x'.repeat(400),
        output: 'y',
        ccs: { constraints: ['a(b)', `t(${k})`] },
      },
    }),
  ).join('\n');

describe.each(['pglite', 'postgres'] as const)('a crash of the server on %s', (driver) => {
  it('loses no acknowledged batch and leaves no half-written one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-crash-'));
    const env: Record<string, string> = {
      MNEMOSCOPE_API_KEY: KEY,
      ...(driver === 'pglite' ? { MNEMOSCOPE_DATA_DIR: dir, DATABASE_URL: '' } : { DATABASE_URL: pg.url }),
    };
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const post = (body: string) =>
      fetch(`${url}/api/v1/ingest`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body });
    const count = async (sid: string) => {
      const r = await fetch(`${url}/api/v1/sessions/${sid}/export`, { headers: { authorization: `Bearer ${KEY}` } });
      return r.ok ? (await r.text()).split('\n').filter((l) => l.startsWith('{"type":"turn"')).length : 0;
    };
    let server = await startNextServer(env, port);
    try {
      expect((await post(batch(`${driver}-a`, 200))).status).toBe(200);
      // 20 rounds: a stream of 300-turn batches, one after another, and a SIGKILL at a different
      // moment each round (before, during and after commits). Every acknowledged batch must come
      // back whole after the restart; the one in flight, all or nothing.
      let acknowledged = 0;
      for (let round = 0; round < 20; round++) {
        const killAt = 120 + ((round * 137) % 700);
        const acked: string[] = [];
        let inFlight: string | null = null;
        let stop = false;
        const stream = (async () => {
          for (let i = 0; !stop; i++) {
            const sid = `${driver}-r${round}-${i}`;
            inFlight = sid;
            const status = await post(batch(sid, 300)).then(
              (r) => r.status,
              () => 0,
            );
            if (status === 200) acked.push(sid);
            if (status !== 200) return;
          }
        })();
        await new Promise((r) => setTimeout(r, killAt));
        server.kill('SIGKILL');
        stop = true;
        await stream;
        server = await startNextServer(env, port);
        for (const sid of acked) expect(await count(sid), sid).toBe(300);
        if (inFlight && !acked.includes(inFlight)) expect([0, 300]).toContain(await count(inFlight));
        acknowledged += acked.length;
      }
      expect(await count(`${driver}-a`)).toBe(200);
      console.log(`[crash] ${driver}: 20 kills, ${acknowledged} acknowledged batches all whole`);
    } finally {
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
