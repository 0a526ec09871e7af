import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The HTTP API's keys are project-scoped: the route handlers, called in-process on an in-memory
 * database with the demo, answer a key of another project as if the data did not exist.
 */
const { enterApp, leaveApp } = await import('@/server/test/in-process');
const saved = enterApp();

const { ready } = await import('@/server/bootstrap');
const { createKey } = await import('@/server/services/api-keys');
const { ensureProject } = await import('@/server/services/projects');
const ingestRoute = await import('@/app/api/v1/ingest/route');
const sessionExport = await import('@/app/api/v1/sessions/[id]/export/route');
const ucsExport = await import('@/app/api/v1/agents/[agent]/ucs/export/route');
const projectExport = await import('@/app/api/v1/project/export/route');
const projectImport = await import('@/app/api/v1/project/import/route');
const settingsExport = await import('@/app/api/project/export/route');
const memoryEvent = await import('@/app/api/v1/memory-events/[id]/route');

/** The lines of a gzip NDJSON response. */
const gunzipLines = async (r: Response) =>
  (await new Response(r.body!.pipeThrough(new DecompressionStream('gzip'))).text()).trim().split('\n');

let keyA = '';
let keyB = '';
const req = (url: string, key: string | null, body?: string) =>
  new Request(`http://127.0.0.1${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: key ? { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' } : {},
    body,
  });
const params = <T>(p: T) => ({ params: Promise.resolve(p) });

describe('HTTP routes with API keys of two projects', () => {
  beforeAll(async () => {
    const { db } = await ready();
    await ensureProject(db, 'other', 'Other');
    keyA = (await createKey(db, 'default', 'a', 'test', 'admin')).key;
    keyB = (await createKey(db, 'other', 'b', 'test', 'admin')).key;
    const r = await ingestRoute.POST(
      req(
        '/api/v1/ingest',
        keyB,
        JSON.stringify({
          type: 'turn',
          data: { session_id: 'b-only', agent: 'b', turn: 1, input: 'q', output: 'a', ccs: 'goal_orientation: x' },
        }),
      ),
    );
    expect(r.status).toBe(200);
  }, 120_000);
  afterAll(() => leaveApp(saved));

  it('refuses a request without a key on every keyed route', async () => {
    expect((await ingestRoute.POST(req('/api/v1/ingest', null, '[]'))).status).toBe(401);
    // A header that holds something is not called missing: what is wrong with it is said, the key never echoed.
    const said = async (authorization: string) => {
      const r = await ingestRoute.POST(
        new Request('http://127.0.0.1/api/v1/ingest', { method: 'POST', headers: { authorization }, body: '[]' }),
      );
      expect(r.status).toBe(401);
      return ((await r.json()) as { error: string }).error;
    };
    expect(await said('')).toMatch(/^missing API key: send "Authorization: Bearer <key>"/);
    expect(await said('msk_secret_0123456789')).toMatch(/^the Authorization header must be "Bearer " then the key: /);
    expect(await said('Token msk_secret_0123456789')).toMatch(/^the Authorization scheme must be Bearer, not Token: /);
    // A first word that may be the key (or part of it) is never named.
    expect(await said('msk_AAAABBBBCCCCDDDD ci')).toMatch(/^the Authorization header must be "Bearer " then the key/);
    expect(await said('Bearer=msk_AAAABBBBCCCCDDDD x')).not.toContain('AAAA');
    expect(await said('Bearer')).toMatch(/^no key after "Bearer": /);
    expect(await said('msk_secret_0123456789')).not.toContain('secret');
    expect(
      (await sessionExport.GET(req('/api/v1/sessions/itops-nginx-502/export', null), params({ id: 'itops-nginx-502' })))
        .status,
    ).toBe(401);
    expect(
      (await ucsExport.GET(req('/api/v1/agents/aegis-demo/ucs/export', null), params({ agent: 'aegis-demo' }))).status,
    ).toBe(401);
  });

  it('lets a key read its own project and nothing of another', async () => {
    expect(
      (await sessionExport.GET(req('/api/v1/sessions/itops-nginx-502/export', keyA), params({ id: 'itops-nginx-502' })))
        .status,
    ).toBe(200);
    expect(
      (await sessionExport.GET(req('/api/v1/sessions/itops-nginx-502/export', keyB), params({ id: 'itops-nginx-502' })))
        .status,
    ).toBe(404);
    expect(
      (await sessionExport.GET(req('/api/v1/sessions/b-only/export', keyA), params({ id: 'b-only' }))).status,
    ).toBe(404);
    expect(
      (await sessionExport.GET(req('/api/v1/sessions/b-only/export', keyB), params({ id: 'b-only' }))).status,
    ).toBe(200);
    expect(
      (await ucsExport.GET(req('/api/v1/agents/aegis-demo/ucs/export', keyA), params({ agent: 'aegis-demo' }))).status,
    ).toBe(200);
    expect(
      (await ucsExport.GET(req('/api/v1/agents/aegis-demo/ucs/export', keyB), params({ agent: 'aegis-demo' }))).status,
    ).toBe(404);
  });

  it('writes with a key land in the key’s project only', async () => {
    const r = await ingestRoute.POST(
      req(
        '/api/v1/ingest',
        keyA,
        JSON.stringify({
          type: 'turn',
          data: { session_id: 'b-only', agent: 'a', turn: 2, input: 'q', output: 'a', ccs: 'goal_orientation: y' },
        }),
      ),
    );
    expect(r.status).toBe(200);
    const b = await (
      await sessionExport.GET(req('/api/v1/sessions/b-only/export', keyB), params({ id: 'b-only' }))
    ).text();
    expect(b.split('\n').filter((l) => l.includes('"type":"turn"'))).toHaveLength(1);
  });

  it('exports a key’s whole project and nothing of another, and imports it into an empty project only', async () => {
    expect((await projectExport.GET(req('/api/v1/project/export', null))).status).toBe(401);
    // An agent's key sends and reads sessions, but the whole project is for admin keys.
    const { db: base } = await ready();
    const agentKey = (await createKey(base, 'other', 'agent', 'test')).key;
    const denied = await projectExport.GET(req('/api/v1/project/export', agentKey));
    expect(denied.status).toBe(403);
    expect((await denied.json()).error).toMatch(/needs an API key with the admin role; this key's role is agent/);
    expect((await projectImport.POST(req('/api/v1/project/import', agentKey, '{}'))).status).toBe(403);
    const res = await projectExport.GET(req('/api/v1/project/export', keyB));
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="mnemoscope-other-\d{4}-\d\d-\d\d\.ndjson\.gz"/,
    );
    const lines = await gunzipLines(res);
    const header = JSON.parse(lines[0]!);
    expect(header.project.id).toBe('other');
    expect(JSON.parse(lines.at(-1)!).tables.sessions).toBe(1);
    expect(lines.some((l) => l.includes('itops-nginx-502'))).toBe(false);

    // Into a new, empty project: the same rows under its id.
    const { db } = await ready();
    await ensureProject(db, 'moved', 'Moved');
    const keyC = (await createKey(db, 'moved', 'c', 'test', 'admin')).key;
    const gz = new Response(new Blob([lines.join('\n') + '\n']).stream().pipeThrough(new CompressionStream('gzip')));
    const up = await projectImport.POST(
      new Request('http://127.0.0.1/api/v1/project/import', {
        method: 'POST',
        headers: { authorization: `Bearer ${keyC}` },
        body: await gz.arrayBuffer(),
      }),
    );
    expect(up.status, await up.clone().text()).toBe(200);
    expect(await up.json()).toMatchObject({ project: 'moved', rows: lines.length - 2 });
    const again = await gunzipLines(await projectExport.GET(req('/api/v1/project/export', keyC)));
    expect(again.slice(1)).toEqual(
      lines.slice(1).map((l) => l.replaceAll('"project_id": "other"', '"project_id": "moved"')),
    );

    // A project with data refuses, naming why; a damaged file names its line.
    const full = await projectImport.POST(req('/api/v1/project/import', keyA, lines.join('\n')));
    expect(full.status).toBe(400);
    expect((await full.json()).error).toMatch(/project "default" already holds data/);
    await ensureProject(db, 'empty', 'Empty');
    const keyE = (await createKey(db, 'empty', 'e', 'test', 'admin')).key;
    const bad = await projectImport.POST(
      req('/api/v1/project/import', keyE, [lines[0], '{"t":"turns","r":', ...lines.slice(1)].join('\n')),
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/^line 2: not a JSON object/);
  });

  it('tells an agent what became of its memory event, in its own project only; 401s say how to sign', async () => {
    const id = 'memevt_route_decision_1';
    const sent = await ingestRoute.POST(
      req(
        '/api/v1/ingest',
        keyB,
        JSON.stringify({
          type: 'memory_event',
          data: {
            event_id: id,
            content: 'The search team owns the nightly reindex job.',
            memory_kind: 'fact',
            suggested_scope: 'team_memory',
            source_agent: 'b',
            task_id: 'T-9',
            confidence: 'high',
            sensitivity: 'internal',
            ttl: 'durable',
            evidence_refs: ['commit:abc1234'],
            timestamp: '2026-11-25T10:00:00Z',
          },
        }),
      ),
    );
    expect(sent.status).toBe(200);
    const url = `/api/v1/memory-events/${id}`;
    const mine = await memoryEvent.GET(req(url, keyB), params({ id }));
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ event_id: id, disposition: 'proposed', final: false });
    expect((await memoryEvent.GET(req(url, keyA), params({ id }))).status).toBe(404);
    // A long poll that nobody answers ends at its limit with the open decision.
    const t0 = Date.now();
    const waited = await memoryEvent.GET(req(`${url}?wait=1`, keyB), params({ id }));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(await waited.json()).toMatchObject({ final: false });
    const bad = await memoryEvent.GET(req(`${url}?wait=600`, keyB), params({ id }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^wait: "600" is not a number of seconds/);
    const none = await memoryEvent.GET(req(url, null), params({ id }));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="mnemoscope"');
    const wrong = await memoryEvent.GET(req(url, 'msk_not_a_key'), params({ id }));
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer realm="mnemoscope", error="invalid_token"/);
  });

  it('gives Settings the current project as a download for its admin', async () => {
    const r = await settingsExport.GET(new Request('http://127.0.0.1/api/project/export'));
    expect(r.status).toBe(200);
    const lines = await gunzipLines(r);
    expect(JSON.parse(lines[0]!).project.id).toBe('default');
    expect(lines.some((l) => l.includes('itops-nginx-502'))).toBe(true);
  });
});
