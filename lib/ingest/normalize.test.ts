import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evidenceRef, normalizeEnvelope } from './normalize';

const demo = path.join(import.meta.dirname, '../../server/demo');
const json = (p: string) => JSON.parse(readFileSync(path.join(demo, p), 'utf8'));

const turn = (over: Record<string, unknown> = {}) => ({
  type: 'turn',
  data: {
    session_id: 's1',
    agent: 'a',
    turn: 1,
    input: 'in',
    output: 'out',
    ccs: { constraints: ['no_restart(nginx)'] },
    ...over,
  },
});

describe('normalizeEnvelope: turns', () => {
  it('accepts a turn and names it session/turn', () => {
    const r = normalizeEnvelope(
      turn({
        footprint: { ccs: 120, transcript: 900 },
        judge: { relevance: 9 },
        hallucination: 0.1,
        drift: null,
        extra_field: 1,
      }),
    );
    expect(r).toMatchObject({
      ok: true,
      id: 's1/1',
      record: { type: 'turn', ccs: { constraints: ['no_restart(nginx)'] }, extra: { extra_field: 1 } },
    });
  });

  it('names the field and the reason for each bad value', () => {
    const r = normalizeEnvelope(turn({ turn: 'x', hallucination: 2, footprint: { ccs: -1 }, timestamp: 'yesterday' }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual(
      expect.arrayContaining([
        { path: 'data.turn', message: 'must be a number (got string)' },
        { path: 'data.hallucination', message: 'must be within [0, 1]' },
        { path: 'data.footprint.ccs', message: 'must be ≥ 0' },
        { path: 'data.timestamp', message: 'must be an ISO-8601 date-time' },
      ]),
    );
  });

  it('names a refused turn by its session and number when it has them', () => {
    expect(normalizeEnvelope(turn({ hallucination: 2 }))).toMatchObject({ ok: false, id: 's1/1' });
    expect(normalizeEnvelope(turn({ turn: 'x' }))).toMatchObject({ ok: false, id: undefined });
  });

  it('reports missing fields as required', () => {
    const r = normalizeEnvelope({ type: 'turn', data: { session_id: 's1' } });
    expect(!r.ok && r.errors.map((e) => `${e.path}: ${e.message}`)).toEqual(
      expect.arrayContaining(['data.agent: required', 'data.turn: required', 'data.input: required']),
    );
  });

  it('says what a missing CCS is and what an agent that keeps none sends', () => {
    const r = normalizeEnvelope({
      type: 'turn',
      data: { session_id: 's1', agent: 'a', turn: 1, input: 'i', output: 'o' },
    });
    expect(!r.ok && r.errors.map((e) => e.path)).toEqual(['data.ccs']);
    expect(!r.ok && r.errors[0]!.message).toMatch(
      /^required: the agent's Compressed Cognitive State at this turn.*\{\}/,
    );
    expect(!r.ok && r.errors[0]!.message).toContain('data.state');
  });

  it('rejects unknown record types and a missing data', () => {
    expect(normalizeEnvelope({ type: 'bogus', data: {} })).toMatchObject({ ok: false, errors: [{ path: 'type' }] });
    expect(normalizeEnvelope({ type: 'turn' })).toMatchObject({
      ok: false,
      errors: [{ path: 'data', message: 'required' }],
    });
    expect(normalizeEnvelope('nope')).toMatchObject({ ok: false });
  });

  it('refuses NUL characters, which Postgres cannot store, naming where', () => {
    expect(normalizeEnvelope(turn({ output: 'a\u0000b' }))).toMatchObject({
      ok: false,
      errors: [{ path: 'data.output', message: expect.stringContaining('NUL') }],
    });
    expect(normalizeEnvelope(turn({ ccs: { constraints: ['ok', 'bad \ud800'] } }))).toMatchObject({
      ok: false,
      errors: [{ path: 'data.ccs.constraints[1]', message: expect.stringContaining('surrogate') }],
    });
    expect(normalizeEnvelope(turn({ input: 'emoji 😀 is fine' }))).toMatchObject({ ok: true });
  });

  it('redacts secrets and records where, keeping HTML as text', () => {
    const r = normalizeEnvelope(
      turn({ input: '<script>alert(1)</script> password=hunter22', ccs: 'constraints: notify(ops@example.com)' }),
    );
    if (!r.ok || r.record.type !== 'turn') throw new Error('expected a turn');
    expect(r.record.input).toBe('<script>alert(1)</script> password=[REDACTED:password]');
    expect(r.record.ccs.constraints).toEqual(['notify([REDACTED:email])']);
    expect(r.record.redactions).toEqual([
      { path: 'input', type: 'password', count: 1 },
      { path: 'ccs', type: 'email', count: 1 },
    ]);
  });
});

describe('normalizeEnvelope: memory events', () => {
  it('accepts both Agentlas fixture events as they are', () => {
    for (const f of ['curator/memory-event.example.json', 'curator/memory-event.example.v1-legacy-agent_team.json']) {
      const r = normalizeEnvelope({ type: 'memory_event', data: json(f) });
      expect(r).toMatchObject({
        ok: true,
        id: 'memevt_example_0001',
        record: { shape: 'agentlas', kind: 'procedure' },
      });
    }
  });

  it("accepts the Memory Curator paper's older shape and never stores the redact hints", () => {
    const r = normalizeEnvelope({
      type: 'memory_event',
      data: {
        event_id: 'e1',
        source_agent: 'w',
        content: 'token is abc123secretvalue ok',
        kind: 'fact',
        suggested_scope: 'project',
        confidence: 'high',
        evidence_refs: [{ type: 'commit', ref: 'a3f9c2e' }],
        redact_hints: ['abc123secretvalue'],
        timestamp: '2026-01-01T00:00:00Z',
      },
    });
    if (!r.ok || r.record.type !== 'memory_event') throw new Error('expected an event');
    expect(r.record.shape).toBe('legacy');
    expect(JSON.stringify(r.record)).not.toContain('abc123secretvalue');
    expect(r.record.content).toBe('token is [REDACTED:hint] ok');
  });

  it('takes an older-shape event with no evidence as one with none (it was refused by the database)', () => {
    const r = normalizeEnvelope({
      type: 'memory_event',
      data: {
        event_id: 'memevt_no_evidence_1',
        source_agent: 'w',
        content: 'The checkout service retries three times.',
        kind: 'fact',
        suggested_scope: 'team_memory',
        confidence: 'high',
        timestamp: '2026-01-01T00:00:00Z',
      },
    });
    if (!r.ok || r.record.type !== 'memory_event') throw new Error('expected an event');
    expect(r.record.evidenceRefs).toEqual([]);
  });

  it('holds Agentlas events to their published schema', () => {
    const e = { ...json('curator/memory-event.example.json'), surprise: 1, event_id: 'bad id' };
    const r = normalizeEnvelope({ type: 'memory_event', data: e });
    expect(!r.ok && r.errors.map((x) => x.path)).toEqual(expect.arrayContaining(['data', 'data.event_id']));
  });

  it("takes Mnemoscope's user_id on both shapes, as an opaque id kept trimmed; never an email", () => {
    const agentlas = { ...json('curator/memory-event.example.json'), user_id: ' u-mara ' };
    const legacy = {
      event_id: 'e1',
      source_agent: 'w',
      content: 'prefers short answers',
      kind: 'preference',
      suggested_scope: 'user_identity',
      confidence: 'high',
      timestamp: '2026-01-01T00:00:00Z',
      user_id: ' u-mara ',
    };
    for (const data of [agentlas, legacy]) {
      const r = normalizeEnvelope({ type: 'memory_event', data });
      if (!r.ok || r.record.type !== 'memory_event') throw new Error('expected an event');
      expect(r.record.raw.user_id).toBe('u-mara');
      for (const bad of ['mara@example.com', '', 'a\u0000b', 'x'.repeat(257), 42, '[REDACTED:email]']) {
        const refused = normalizeEnvelope({ type: 'memory_event', data: { ...data, user_id: bad } });
        expect(!refused.ok && refused.errors.map((e) => e.path), String(bad)).toEqual(['data.user_id']);
      }
    }
  });

  it("takes Mnemoscope's session_id and turn on both shapes: the turn it was emitted at, in its session", () => {
    const agentlas = json('curator/memory-event.example.json');
    const legacy = {
      event_id: 'e1',
      source_agent: 'w',
      content: 'The billing service retries three times.',
      kind: 'fact',
      suggested_scope: 'project',
      confidence: 'high',
      timestamp: '2026-01-01T00:00:00Z',
    };
    for (const data of [agentlas, legacy]) {
      const at = normalizeEnvelope({ type: 'memory_event', data: { ...data, session_id: 'inc-42', turn: 3 } });
      if (!at.ok || at.record.type !== 'memory_event') throw new Error('expected an event');
      expect([at.record.sessionId, at.record.turn, at.record.raw.turn]).toEqual(['inc-42', 3, 3]);
      const none = normalizeEnvelope({ type: 'memory_event', data });
      expect(none.ok && none.record.type === 'memory_event' && [none.record.sessionId, none.record.turn]).toEqual([
        null,
        null,
      ]);
      const errors = (extra: object) => {
        const r = normalizeEnvelope({ type: 'memory_event', data: { ...data, ...extra } });
        return !r.ok && r.errors.map((e) => `${e.path}: ${e.message}`);
      };
      // A session alone, as older emitters send it (it owns session memory of an event without a task).
      const session = normalizeEnvelope({ type: 'memory_event', data: { ...data, session_id: 'inc-42' } });
      expect(
        session.ok && session.record.type === 'memory_event' && [session.record.sessionId, session.record.turn],
      ).toEqual(['inc-42', null]);
      if (data === agentlas) {
        expect(errors({ turn: 3 })).toEqual([
          'data.session_id: required with turn: the turn at which the event was emitted is named by both',
        ]);
        expect(errors({ session_id: 'inc-42', turn: 2.5 })).toEqual(['data.turn: must be an integer']);
      } else {
        // The older shape took any value in these fields before Mnemoscope read them, and still does: what does not
        // fit names no turn.
        for (const [extra, at] of [
          [{ session_id: null }, [null, null]],
          [{ session_id: 42, turn: 3 }, [null, null]],
          [{ session_id: '' }, [null, null]],
          [{ turn: 3 }, [null, null]],
          [{ session_id: 'inc-42', turn: '3' }, ['inc-42', null]],
        ] as const) {
          const r = normalizeEnvelope({ type: 'memory_event', data: { ...data, ...extra } });
          expect(
            r.ok && r.record.type === 'memory_event' && [r.record.sessionId, r.record.turn],
            JSON.stringify(extra),
          ).toEqual(at);
        }
      }
    }
  });

  it('names every offending field of a refused event, not only the missing kind', () => {
    const e = { ...json('curator/memory-event.example.json'), content: 42, confidence: 'sure' };
    delete (e as Record<string, unknown>).memory_kind;
    const r = normalizeEnvelope({ type: 'memory_event', data: e });
    expect(!r.ok && r.errors.map((x) => x.path)).toEqual(['data.memory_kind', 'data.content', 'data.confidence']);
    expect(!r.ok && r.errors[0]!.message).toMatch(/^required \(or data.kind/);
  });

  it("names the missing kind by the shape the event is closer to, with only that shape's other problems", () => {
    const older = {
      event_id: 'e1',
      source_agent: 'w',
      content: 'The billing service retries three times.',
      suggested_scope: 'project',
      confidence: 'sure',
      timestamp: '2026-01-01T00:00:00Z',
    };
    const r = normalizeEnvelope({ type: 'memory_event', data: older });
    expect(!r.ok && r.errors.map((x) => `${x.path}: ${x.message}`)).toEqual([
      'data.kind: required (or data.memory_kind, for the Agentlas event shape)',
      'data.confidence: must be one of: high, medium, low',
    ]);
  });

  it('says "required" for a missing choice or date, and names a bad one by its options', () => {
    const r = normalizeEnvelope({
      type: 'memory_event',
      data: { event_id: 'memevt_0123456789abcdef', memory_kind: 'fact', content: 'c', source_agent: 'a', ttl: 'x' },
    });
    if (r.ok) throw new Error('expected a refusal');
    const by = Object.fromEntries(r.errors.map((e) => [e.path, e.message]));
    for (const f of ['timestamp', 'suggested_scope', 'sensitivity', 'confidence', 'task_id'])
      expect(by[`data.${f}`], f).toBe('required');
    expect(by['data.ttl']).toBe('must be one of: durable, until_milestone, session, discard');
    const empty = normalizeEnvelope({
      type: 'memory_event',
      data: { event_id: 'memevt_0123456789abcdef', content: '' },
    });
    expect(!empty.ok && empty.errors.find((e) => e.path === 'data.content')?.message).toBe('must not be empty');
  });
});

describe('normalizeEnvelope: UCS', () => {
  const state = json('ucs-workspace/ucs/state/torusfield_state.json');

  it('needs the agent for a state file, which does not name it', () => {
    expect(normalizeEnvelope({ type: 'ucs_state', data: state })).toMatchObject({
      ok: false,
      errors: [{ path: 'agent' }],
    });
    expect(normalizeEnvelope({ type: 'ucs_state', agent: 'aegis-demo', data: state })).toMatchObject({
      ok: true,
      id: 'aegis-demo@t600',
    });
  });

  it('checks each field holds theta_bins × phi_bins values', () => {
    const bad = structuredClone(state);
    bad.state.fields.energy.pop();
    expect(normalizeEnvelope({ type: 'ucs_state', agent: 'x', data: bad })).toMatchObject({
      ok: false,
      errors: [
        { path: 'data.state.fields.energy', message: 'must hold theta_bins × phi_bins = 24×32 = 768 values, has 767' },
      ],
    });
  });

  it('takes the export package with its own agent id', () => {
    expect(normalizeEnvelope({ type: 'ucs_export', data: json('ucs-workspace/export.json') })).toMatchObject({
      ok: true,
      record: { agentId: 'aegis-demo', kind: 'export' },
    });
  });
});

describe('normalizeEnvelope: CCS storage', () => {
  it('keeps the CCS as sent only when it differs from its parsed form', () => {
    const asTerms = normalizeEnvelope(turn({ ccs: { constraints: ['a(b)', 'c(d)'] } }));
    const asText = normalizeEnvelope(turn({ ccs: 'constraints: a(b) c(d)' }));
    const asString = normalizeEnvelope(turn({ ccs: { constraints: 'a(b) c(d)', goal_orientation: null } }));
    const terms = { constraints: ['a(b)', 'c(d)'] };
    expect(asTerms).toMatchObject({ ok: true, record: { ccs: terms, ccsRaw: null } });
    expect(asText).toMatchObject({ ok: true, record: { ccs: terms, ccsRaw: 'constraints: a(b) c(d)' } });
    expect(asString).toMatchObject({
      ok: true,
      record: { ccs: terms, ccsRaw: { constraints: 'a(b) c(d)', goal_orientation: null } },
    });
  });

  it('refuses a CCS over the size limit, naming it', () => {
    expect(normalizeEnvelope(turn({ ccs: `constraints: ${'x'.repeat(64_001)}` }))).toMatchObject({
      ok: false,
      errors: [{ path: 'data.ccs', message: 'must be at most 64000 characters' }],
    });
  });
});

describe('normalizeEnvelope: secrets in every stored text field', () => {
  const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
  const stored = (envelope: unknown) => {
    const r = normalizeEnvelope(envelope);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return JSON.stringify(r.record);
  };

  it('masks them in a turn wherever they stand: input, output, each CCS form, extra fields', () => {
    for (const over of [
      { input: `use ${SECRET}` },
      { output: `use ${SECRET}` },
      { ccs: { constraints: [`token(${SECRET})`] } },
      { ccs: `constraints: token(${SECRET})` },
      { extra_field: { nested: [`use ${SECRET}`] } },
    ]) {
      const text = stored(turn(over));
      expect(text, JSON.stringify(over)).not.toContain(SECRET);
      expect(text).toContain('[REDACTED:github_token]');
    }
  });

  it('masks them in sessions (title, domain, extras), provenance, evidence refs, UCS documents and actions', () => {
    const records = [
      { type: 'session', data: { id: 's', agent: 'a', title: `deploy with ${SECRET}`, domain: `ops ${SECRET}` } },
      { type: 'session', data: { id: 's', agent: 'a', runbook: { step: `export GH=${SECRET}` } } },
      { type: 'artifact', data: { id: 'x', content: 'c', provenance: { source: `git clone ${SECRET}` } } },
      {
        type: 'memory_event',
        data: {
          event_id: 'memevt_0123456789abcdef',
          timestamp: '2026-11-24T00:00:00Z',
          source_agent: 'a',
          task_id: 't',
          memory_kind: 'fact',
          content: 'the build uses a token',
          suggested_scope: 'project',
          sensitivity: 'internal',
          confidence: 'high',
          evidence_refs: [`https://ci.example/log?token=${SECRET}`],
          ttl: 'durable',
        },
      },
      { type: 'ucs_action', agent: 'a', data: { t: 3, action: 'consult', note: `used ${SECRET}` } },
      { type: 'ucs_knowledge', agent: 'a', data: { name: 'reflections', markdown: `# Notes\nkey ${SECRET}` } },
    ];
    for (const r of records) {
      const out = stored(r);
      expect(out, r.type).not.toContain(SECRET);
      expect(out, r.type).toContain('[REDACTED:');
    }
  });
});

describe('normalizeEnvelope: values that cannot be stored as sent', () => {
  it('refuses a number beyond float range, a control character in an id, and deep nesting, naming the field', () => {
    const big = normalizeEnvelope(
      JSON.parse(
        '{"type":"turn","data":{"session_id":"s","agent":"a","turn":1,' +
          '"input":"i","output":"o","ccs":"a: b(c)","extra":{"x":[1e400]}}}',
      ),
    );
    expect(big).toMatchObject({
      ok: false,
      // The answer names the record, as every other refusal does.
      id: 's/1',
      errors: [{ path: 'data.extra.x[0]', message: expect.stringMatching(/too large/) }],
    });
    expect(
      normalizeEnvelope(JSON.parse('{"type":"annotation","data":{"id":"w-a9","name":"faithfulness","value":1e400}}')),
    ).toMatchObject({ ok: false, id: 'w-a9', errors: [{ path: 'data.value' }] });
    const nul = normalizeEnvelope({ ...turn(), agent: 'a\u0000b' });
    expect(nul).toMatchObject({
      ok: false,
      errors: [{ path: 'agent', message: 'must not contain control characters' }],
    });
    const deep = normalizeEnvelope(turn({ extra: JSON.parse('['.repeat(5000) + ']'.repeat(5000)) }));
    expect(normalizeEnvelope(turn({ meta: { a: [{ b: '\u0000' }] } }))).toMatchObject({
      ok: false,
      errors: [{ path: 'data.meta.a[0].b', message: expect.stringContaining('NUL') }],
    });
    expect(normalizeEnvelope(turn({ meta: { 'a\u0000': 1 } }))).toMatchObject({
      ok: false,
      errors: [{ path: 'data.meta.a\u0000', message: expect.stringMatching(/^field name contains a NUL/) }],
    });
    expect(normalizeEnvelope(turn({ ccs: { ['k'.repeat(65)]: ['x'] } }))).toMatchObject({
      ok: false,
      errors: [{ path: `data.ccs.${'k'.repeat(65)}`, message: 'field name must be at most 64 characters' }],
    });
    expect(normalizeEnvelope(turn({ ccs: { '': ['y'] } }))).toMatchObject({
      ok: false,
      errors: [{ path: 'data.ccs.', message: 'field name must be at least 1 character' }],
    });
    expect(normalizeEnvelope(turn({ judge: { ['j'.repeat(65)]: 1 } }))).toMatchObject({
      ok: false,
      errors: [{ path: `data.judge.${'j'.repeat(65)}`, message: 'field name must be at most 64 characters' }],
    });
    expect(deep).toMatchObject({ ok: false, errors: [{ message: 'nested deeper than 64 levels' }] });
  });
});

describe('evidence refs sent as strings', () => {
  it('take the type a ref names, its name left off; otherwise the type its shape says', () => {
    expect(
      ['commit:4e5f6a7', 'FILE:docs/x.md', 'url:https://ci.example/1', 'message:thread 42'].map(evidenceRef),
    ).toEqual([
      { type: 'commit', ref: '4e5f6a7' },
      { type: 'file', ref: 'docs/x.md' },
      { type: 'url', ref: 'https://ci.example/1' },
      { type: 'message', ref: 'thread 42' },
    ]);
    expect(['https://ci.example/2', '4e5f6a7', 'docs/x.md', 'see the standup', 'file:'].map(evidenceRef)).toEqual([
      { type: 'url', ref: 'https://ci.example/2' },
      { type: 'commit', ref: '4e5f6a7' },
      { type: 'file', ref: 'docs/x.md' },
      { type: 'message', ref: 'see the standup' },
      { type: 'message', ref: 'file:' },
    ]);
  });
});
