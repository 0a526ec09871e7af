import { describe, expect, it } from 'vitest';
import { normalizeEnvelope } from '@/lib/ingest/normalize';
import { demoSessions } from './generate';
import { demoMemoryEvents } from './events';
import { normalizeCcs } from '@/lib/ccs/parse';
import { parseTerm } from '@/lib/ccs/terms';

describe('demo data', () => {
  const envs = demoSessions();
  const turns = envs.filter((e) => e.type === 'turn').map((e) => e.data as Record<string, unknown>);

  it('is three 50-turn sessions that all pass validation, as do the events', () => {
    expect(envs.filter((e) => e.type === 'session')).toHaveLength(3);
    expect(turns).toHaveLength(150);
    for (const e of [...envs, ...demoMemoryEvents()]) expect(normalizeEnvelope(e)).toMatchObject({ ok: true });
  });

  it('has the three stressors in every session, and drift undefined at the first turn', () => {
    for (const sid of new Set(turns.map((t) => t.session_id))) {
      const ts = turns.filter((t) => t.session_id === sid);
      expect(new Set(ts.map((t) => t.stress).filter(Boolean))).toEqual(new Set(['conflict', 'injection', 'poison']));
      expect(ts[0]!.drift).toBeNull();
    }
  });

  it('keeps the CCS bounded while transcript replay grows', () => {
    const fp = turns
      .filter((t) => t.session_id === 'itops-nginx-502')
      .map((t) => t.footprint as Record<string, number>);
    for (let i = 1; i < fp.length; i++) expect(fp[i]!.transcript).toBeGreaterThan(fp[i - 1]!.transcript!);
    expect(Math.max(...fp.map((f) => f.ccs!))).toBeLessThan(400);
    expect(fp.at(-1)!.transcript).toBeGreaterThan(10 * fp.at(-1)!.ccs!);
  });

  it('sends only well-formed predicate terms, in both CCS forms', () => {
    for (const t of turns) {
      const ccs = normalizeCcs(t.ccs as Parameters<typeof normalizeCcs>[0]);
      for (const terms of Object.values(ccs))
        for (const term of terms ?? [])
          expect(parseTerm(term), `${t.session_id}/${t.turn}: ${term}`).toMatchObject({ ok: true });
    }
  });

  it('is the same on every run', () => {
    expect(JSON.stringify(demoSessions())).toBe(JSON.stringify(envs));
  });
});
