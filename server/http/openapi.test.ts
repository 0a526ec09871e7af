import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '@/server/db';

/**
 * The OpenAPI document is valid (a maintained validator), covers every /api/v1 route file, and says what the server
 * does: each call below gets a status the document lists for its route and method, with a body its schema takes.
 */
const { enterApp, leaveApp } = await import('@/server/test/in-process');
const saved = enterApp();

const { ready } = await import('@/server/bootstrap');
const { createKey } = await import('@/server/services/api-keys');
const { openApiDocument } = await import('@/lib/api/openapi');
const routes = {
  ingest: await import('@/app/api/v1/ingest/route'),
  annotations: await import('@/app/api/v1/annotations/route'),
  memoryEvent: await import('@/app/api/v1/memory-events/[id]/route'),
  state: await import('@/app/api/v1/sessions/[id]/state/route'),
  sessionExport: await import('@/app/api/v1/sessions/[id]/export/route'),
  projectExport: await import('@/app/api/v1/project/export/route'),
  mcp: await import('@/app/api/v1/mcp/route'),
  schema: await import('@/app/api/v1/schema/route'),
  openapi: await import('@/app/api/v1/openapi.json/route'),
};

type Doc = ReturnType<typeof openApiDocument>;
type Content = Record<string, { schema?: object }>;
const doc: Doc = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'doc', components: doc.components });
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

let key = '';
let agentKey = '';
const params = <T>(p: T) => ({ params: Promise.resolve(p) });
const req = (url: string, init: RequestInit & { key?: string | null } = {}) =>
  new Request(`http://127.0.0.1${url}`, {
    ...init,
    headers: {
      ...(init.key === null ? {} : { authorization: `Bearer ${init.key ?? key}` }),
      ...(init.headers as Record<string, string> | undefined),
    },
  });

/** Checks one answer against the document: its status is listed for the route, its body fits that status's schema. */
async function conforms(route: string, method: 'get' | 'post' | 'delete', res: Response) {
  const op = (doc.paths?.[route] as Record<string, { responses: Record<string, { content?: Content }> }>)?.[method];
  expect(op, `${method} ${route} in the document`).toBeDefined();
  const documented = op!.responses[String(res.status)];
  expect(documented, `${method} ${route} ${res.status} in the document (${await res.clone().text()})`).toBeDefined();
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!;
  const media = documented!.content?.[type];
  expect(media, `${method} ${route} ${res.status} answers ${type}, which the document lists`).toBeDefined();
  if (type !== 'application/json') return;
  const k = `${method} ${route} ${res.status}`;
  if (!compiled.has(k))
    compiled.set(
      k,
      ajv.compile(JSON.parse(JSON.stringify(media!.schema).replaceAll('"#/components/', '"doc#/components/'))),
    );
  const check = compiled.get(k)!;
  const body: unknown = await res.json();
  expect(check(body), `${k}: ${JSON.stringify(check.errors)} in ${JSON.stringify(body).slice(0, 500)}`).toBe(true);
}

const turn = (n: number) =>
  JSON.stringify({
    type: 'turn',
    data: { session_id: 'oa', agent: 'oa-bot', turn: n, input: 'q', output: 'a', ccs: { goal_orientation: ['x'] } },
  });

describe('the OpenAPI document', () => {
  beforeAll(async () => {
    const { db } = await ready();
    key = (await createKey(db, 'default', 'oa-admin', 'test', 'admin')).key;
    agentKey = (await createKey(db, 'default', 'oa-agent', 'test', 'agent')).key;
  }, 120_000);
  afterAll(() => leaveApp(saved));

  it('is valid OpenAPI 3.1', async () => {
    const r = await validate(structuredClone(doc) as never);
    expect(r).toMatchObject({ valid: true, warnings: [] });
    expect(doc.openapi).toBe('3.1.0');
    // Served as generated.
    expect(await (await routes.openapi.GET()).json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('lists every /api/v1 route file, and nothing else', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = path.join(dir, n);
        return statSync(p).isDirectory() ? files(p) : n === 'route.ts' ? [path.dirname(p)] : [];
      });
    const app = path.join(process.cwd(), 'app');
    const fromFiles = files(path.join(app, 'api/v1')).map(
      (d) =>
        '/' +
        path
          .relative(app, d)
          .split(path.sep)
          .join('/')
          .replace(/\[(\w+)\]/g, '{$1}'),
    );
    expect(Object.keys(doc.paths ?? {}).sort()).toEqual(fromFiles.sort());
  });

  it('says what the server answers: ingest, annotations, decisions, state, exports, MCP, schemas', async () => {
    const post = (url: string, body: string, init: RequestInit & { key?: string | null } = {}) =>
      req(url, { method: 'POST', body, ...init, headers: { 'content-type': 'application/json', ...init.headers } });
    await conforms('/api/v1/ingest', 'post', await routes.ingest.POST(post('/api/v1/ingest', `[${turn(1)}]`)));
    await conforms(
      '/api/v1/ingest',
      'post',
      await routes.ingest.POST(post('/api/v1/ingest', `[${turn(2)}, {"type":"turn","data":{"turn":-1}}]`)),
    );
    await conforms('/api/v1/ingest', 'post', await routes.ingest.POST(post('/api/v1/ingest', '[{')));
    await conforms('/api/v1/ingest', 'post', await routes.ingest.POST(post('/api/v1/ingest', '[]', { key: null })));
    await conforms(
      '/api/v1/ingest',
      'post',
      await routes.ingest.POST(post('/api/v1/ingest', '[]', { headers: { 'content-encoding': 'br' } })),
    );

    // A correction: the same turn with another output is a conflict, then superseded when asked; a bad flag is named.
    const changed = turn(1).replace('"output":"a"', '"output":"corrected"');
    const conflict = await routes.ingest.POST(post('/api/v1/ingest', `[${changed}]`));
    expect(conflict.status).toBe(207);
    expect((await conflict.clone().json()).results[0]).toMatchObject({ status: 'conflict', fields: ['output'] });
    await conforms('/api/v1/ingest', 'post', conflict);
    const superseded = await routes.ingest.POST(post('/api/v1/ingest?supersede=true', `[${changed}]`));
    expect((await superseded.clone().json()).results[0]).toMatchObject({ status: 'superseded', fields: ['output'] });
    await conforms('/api/v1/ingest', 'post', superseded);
    const flag = await routes.ingest.POST(post('/api/v1/ingest?supersede=maybe', `[${changed}]`));
    expect((await flag.clone().json()).error).toMatch(/^supersede: "maybe" is not true or false/);
    await conforms('/api/v1/ingest', 'post', flag);

    const note = JSON.stringify({ id: 'oa-note', target: 'turn', session_id: 'oa', turn: 1, comment: 'fine' });
    await conforms('/api/v1/annotations', 'post', await routes.annotations.POST(post('/api/v1/annotations', note)));
    await conforms(
      '/api/v1/annotations',
      'get',
      await routes.annotations.GET(req('/api/v1/annotations?session_id=oa')),
    );
    await conforms('/api/v1/annotations', 'get', await routes.annotations.GET(req('/api/v1/annotations?bogus=1')));

    const { db } = await ready();
    const [{ eventId }] = rowsOf<{ eventId: string }>(
      await db.execute(sql`select event_id as "eventId" from memory_events order by received_at limit 1`),
    ) as [{ eventId: string }];
    const decision = (id: string, q = '') =>
      routes.memoryEvent.GET(req(`/api/v1/memory-events/${id}${q}`), params({ id }));
    await conforms('/api/v1/memory-events/{id}', 'get', await decision(eventId!));
    await conforms('/api/v1/memory-events/{id}', 'get', await decision('memevt_not_here_at_all'));
    await conforms('/api/v1/memory-events/{id}', 'get', await decision(eventId!, '?wait=x'));

    const state = (id: string, q = '') => routes.state.GET(req(`/api/v1/sessions/${id}/state${q}`), params({ id }));
    await conforms('/api/v1/sessions/{id}/state', 'get', await state('itops-nginx-502'));
    await conforms('/api/v1/sessions/{id}/state', 'get', await state('itops-nginx-502', '?turn=-1'));
    await conforms('/api/v1/sessions/{id}/state', 'get', await state('nope'));
    await conforms(
      '/api/v1/sessions/{id}/export',
      'get',
      await routes.sessionExport.GET(req('/api/v1/sessions/oa/export'), params({ id: 'oa' })),
    );
    await conforms(
      '/api/v1/project/export',
      'get',
      await routes.projectExport.GET(req('/api/v1/project/export', { key: agentKey })),
    );

    await conforms('/api/v1/mcp', 'post', await routes.mcp.POST(post('/api/v1/mcp', '{')));
    await conforms('/api/v1/mcp', 'post', await routes.mcp.POST(post('/api/v1/mcp', '{}', { key: null })));
    await conforms('/api/v1/mcp', 'get', await routes.mcp.GET());
    await conforms('/api/v1/mcp', 'delete', await routes.mcp.DELETE());
    await conforms('/api/v1/schema', 'get', await routes.schema.GET());
  });
});
