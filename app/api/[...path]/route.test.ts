import { describe, expect, it } from 'vitest';
import { GET as ingestGet } from '../v1/ingest/route';
import { GET, POST } from './route';

describe('an /api path no route serves', () => {
  it('answers a JSON 404 that names it, and says OpenTelemetry metrics and logs are not taken', async () => {
    const nope = await GET(new Request('http://localhost/api/v1/sesions'));
    expect(nope.status).toBe(404);
    expect(nope.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await nope.json()).error).toBe('no such API path: GET /api/v1/sesions (the API: GET /api/v1/openapi.json)');
    for (const path of ['/api/v1/otel/v1/metrics', '/api/v1/otel/v1/logs', '/api/v1/otel']) {
      const r = await POST(new Request(`http://localhost${path}`, { method: 'POST', body: '{}' }));
      expect(r.status).toBe(404);
      expect((await r.json()).error).toMatch(
        new RegExp(`^POST ${path}: Mnemoscope takes OpenTelemetry traces only, at POST /api/v1/otel/v1/traces`),
      );
    }
  });

  it('a method a route does not take is a JSON 405 with the methods it does take', async () => {
    const r = ingestGet(new Request('http://localhost/api/v1/ingest'));
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect((await r.json()).error).toBe('GET is not taken here: POST only');
  });
});
