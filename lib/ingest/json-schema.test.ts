import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ingestJsonSchemas } from './json-schema';
import { normalizeEnvelope } from './normalize';

/**
 * The published JSON Schemas (`GET /api/v1/schema`) and the server's validation agree: a record of every type (the
 * hand-written kinds, and the UCS engine's files as the reference implementation writes them; not the consult samples,
 * an array) is valid under both; without any one of its fields, both refuse it or both take it, so the schema's
 * `required` list is what the server requires.
 */
const demo = path.join(import.meta.dirname, '../../server/demo');
const ucs = (f: string) => JSON.parse(readFileSync(path.join(demo, 'ucs-workspace', f), 'utf8'));
const schemas = ingestJsonSchemas();
const schemaOf = (type: string) => schemas.data[type] as object;
const ajv = new Ajv2020({ strict: false, allErrors: true });

const EXAMPLES: Record<string, Record<string, unknown>> = {
  session: { id: 's1', agent: 'ops-bot', title: 'Disk alarms', domain: 'it_ops', metadata: { team: 'sre' } },
  turn: {
    session_id: 's1',
    agent: 'ops-bot',
    turn: 1,
    input: 'Disk 91% on db-2',
    output: 'Looking at WAL retention.',
    ccs: { goal_orientation: ['free(disk)'] },
    recalled: ['rb1'],
    qualified: ['rb1'],
    hallucination: 0,
    timestamp: '2026-11-25T10:00:00Z',
  },
  artifact: { id: 'rb1', session_id: 's1', agent: 'ops-bot', content: 'Runbook: WAL retention', kind: 'runbook' },
  memory_event: JSON.parse(readFileSync(path.join(demo, 'curator/memory-event.example.json'), 'utf8')),
  annotation: { id: 'a1', target: 'turn', session_id: 's1', turn: 1, name: 'faithfulness', value: 0.9 },
  // The UCS engine's own files, as the reference implementation writes them.
  ucs_state: ucs('ucs/state/torusfield_state.json'),
  ucs_index: ucs('ucs/state/ucs_index.json'),
  ucs_action: JSON.parse(
    readFileSync(path.join(demo, 'ucs-workspace/ucs/state/action_log.jsonl'), 'utf8').split('\n')[0]!,
  ),
  ucs_status: ucs('status.json'),
  ucs_export: ucs('export.json'),
  ucs_pp_history: ucs('ucs/state/pp_history.json'),
  ucs_knowledge: { name: 'dead-ends', markdown: '# Dead ends' },
};

describe('JSON Schemas and the server agree', () => {
  it.each(Object.keys(EXAMPLES))('%s: the example is valid under both', (type) => {
    const valid = ajv.validate(schemaOf(type), EXAMPLES[type]);
    expect(valid, JSON.stringify(ajv.errors)).toBe(true);
    expect(normalizeEnvelope({ type, data: EXAMPLES[type], agent: 'ucs-agent' }).ok).toBe(true);
  });

  it.each(Object.keys(EXAMPLES))('%s: without any one field, both refuse it or both take it', (type) => {
    const schema = schemaOf(type);
    const disagree: string[] = [];
    const refused: string[] = [];
    for (const field of Object.keys(EXAMPLES[type]!)) {
      const { [field]: _, ...without } = EXAMPLES[type]!;
      const bySchema = ajv.validate(schema, without);
      const byServer = normalizeEnvelope({
        type,
        data: without,
        ...(type.startsWith('ucs_') ? { agent: 'ucs-agent' } : {}),
      }).ok;
      if (bySchema !== byServer) disagree.push(`${field} (schema ${bySchema}, server ${byServer})`);
      if (!byServer) refused.push(field);
    }
    expect(disagree).toEqual([]);
    // Each field the schema lists as required is one the server refuses to go without.
    const required = ((schema as { required?: string[] }).required ?? []).filter((f) => f in EXAMPLES[type]!);
    expect(refused).toEqual(expect.arrayContaining(required));
  });
});

describe('JSON Schemas and the server agree on field names', () => {
  it.each([
    ['a CCS field named by 65 characters', { ccs: { ['k'.repeat(65)]: ['x'] } }, false],
    ['a CCS field with an empty name', { ccs: { '': ['x'] } }, false],
    ['a CCS field named by 64 characters', { ccs: { ['k'.repeat(64)]: ['x'] } }, true],
    ['a judge score named by 65 characters', { judge: { ['j'.repeat(65)]: 1 } }, false],
    ['a judge score with an empty name', { judge: { '': 1 } }, true],
    ['a footprint named by 65 characters', { footprint: { ['f'.repeat(65)]: 1 } }, false],
  ])('%s', (_, over, ok) => {
    const data = { ...EXAMPLES.turn, ...over };
    expect(ajv.validate(schemaOf('turn'), data)).toBe(ok);
    expect(normalizeEnvelope({ type: 'turn', data }).ok).toBe(ok);
  });
});
