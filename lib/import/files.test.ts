import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertFiles, memoryEventsFromMarkdown, type SourceFile } from './files';

const demo = path.join(import.meta.dirname, '../../server/demo');
const shared = path.join(import.meta.dirname, '../../../shared/fixtures');

function read(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (d: string) =>
    readdirSync(d).forEach((n) => {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push({ path: path.relative(root, p), text: readFileSync(p, 'utf8') });
    });
  walk(root);
  return out;
}

describe('convertFiles on the reference fixtures', () => {
  it('converts the whole UCS workspace with the agent it names', () => {
    const r = convertFiles(read(path.join(demo, 'ucs-workspace')));
    expect(r.errors).toEqual([]);
    expect(r.skipped).toEqual([]);
    const types = r.files.flatMap((f) => f.envelopes.map((e) => e.type));
    expect(types.filter((t) => t === 'ucs_state')).toHaveLength(22);
    expect(types.filter((t) => t === 'ucs_action')).toHaveLength(400);
    for (const t of ['ucs_index', 'ucs_export', 'ucs_pp_history', 'ucs_status', 'ucs_consult_samples'])
      expect(types).toContain(t);
    expect(types.filter((t) => t === 'ucs_knowledge')).toHaveLength(3);
    expect(
      r.files
        .flatMap((f) => f.envelopes)
        .every((e) => e.type === 'ucs_export' || e.type === 'ucs_status' || e.agent === 'aegis-demo'),
    ).toBe(true);
  });

  it('converts the curator events and says why it skips the schema, report template and results table', () => {
    const r = convertFiles(read(path.join(demo, 'curator')));
    expect(r.errors).toEqual([]);
    expect(r.files.map((f) => f.kind)).toEqual(['memory event', 'memory event']);
    expect(r.skipped.map((s) => s.path).sort()).toEqual(
      [
        'SOURCE.md',
        'mc_results.json',
        'memory-curation-report.template.md',
        'memory-event.schema.json',
        'memory-event.schema.v1-legacy.json',
      ].sort(),
    );
  });

  it('keeps its demo copies identical to shared/fixtures', () => {
    if (!existsSync(shared)) return; // outside the workspace there is nothing to compare against
    for (const sub of ['curator', 'ucs-workspace'])
      for (const f of read(path.join(shared, sub)))
        expect(readFileSync(path.join(demo, sub, f.path), 'utf8')).toBe(f.text);
  });
});

describe('other inputs', () => {
  it('reads memory events fenced under "## Memory Events" in Markdown', () => {
    const md = '# Report\n\n## Memory Events\n\n```json\n[{"event_id":"e1"}]\n```\n\n## Audit Notes\n';
    expect(memoryEventsFromMarkdown(md)).toEqual([{ event_id: 'e1' }]);
    expect(memoryEventsFromMarkdown('## Memory Events\n```json\n{"not":"array"}\n```')).toBe('bad');
    const r = convertFiles([
      { path: 'report.md', text: md.replace('{"event_id":"e1"}', '{"event_id":"e1","kind":"fact","content":"x"}') },
    ]);
    expect(r.files[0]?.envelopes).toEqual([
      { type: 'memory_event', data: { event_id: 'e1', kind: 'fact', content: 'x' }, source: 'report.md' },
    ]);
  });

  it('reads sessions as NDJSON of turns and as {session, turns}', () => {
    const ndjson = '{"session_id":"s","turn":1,"agent":"a"}\n{"session_id":"s","turn":2,"agent":"a"}\n';
    expect(convertFiles([{ path: 't.jsonl', text: ndjson }]).files[0]?.envelopes.map((e) => e.type)).toEqual([
      'turn',
      'turn',
    ]);
    const obj = JSON.stringify({ session: { id: 's', agent: 'a' }, turns: [{ turn: 1 }] });
    expect(convertFiles([{ path: 's.json', text: obj }]).files[0]?.envelopes[1]).toMatchObject({
      type: 'turn',
      data: { session_id: 's', turn: 1 },
    });
  });

  it('marks the files that need the agent, converts them once it is given, the workspace’s own first', () => {
    const all = read(path.join(demo, 'ucs-workspace'));
    const alone = all.filter((f) => f.path === 'ucs/state/action_log.jsonl' || f.path === 'consult_samples.json');
    const none = convertFiles(alone, { askAgent: 'name it in the field' });
    expect(none.files).toEqual([]);
    expect(none.errors).toEqual([
      {
        path: 'consult_samples.json',
        message: 'UCS consult samples: the file does not name its agent; name it in the field',
        needsAgent: 'UCS consult samples: the file does not name its agent',
      },
      {
        path: 'ucs/state/action_log.jsonl',
        message: 'a UCS action log needs the agent; name it in the field',
        needsAgent: 'a UCS action log needs the agent',
      },
    ]);
    // A file that is wrong for another reason is not one that an agent would mend.
    expect(convertFiles([{ path: 'x.json', text: '{"hello": 1}' }]).errors[0]?.needsAgent).toBeUndefined();
    const given = convertFiles(alone, { agent: 'typed', workspaceFirst: true });
    expect(given.errors).toEqual([]);
    expect(new Set(given.files.flatMap((f) => f.envelopes.map((e) => e.agent)))).toEqual(new Set(['typed']));
    // With the whole workspace, the agent it names wins over the page's field; the CLI's flag wins over the files.
    const agents = (r: ReturnType<typeof convertFiles>) =>
      new Set(r.files.flatMap((f) => f.envelopes.filter((e) => e.type === 'ucs_action').map((e) => e.agent)));
    expect(agents(convertFiles(all, { agent: 'typed', workspaceFirst: true }))).toEqual(new Set(['aegis-demo']));
    expect(agents(convertFiles(all, { agent: 'flag' }))).toEqual(new Set(['flag']));
  });

  it('says what is wrong with a file it cannot read', () => {
    expect(convertFiles([{ path: 'x.json', text: '{oops' }]).errors[0]?.message).toMatch(/not valid JSON/);
    expect(convertFiles([{ path: 'x.json', text: '{"hello": 1}' }]).errors[0]?.message).toMatch(
      /not a file Mnemoscope knows/,
    );
    expect(
      convertFiles([{ path: 'torusfield_state.json', text: JSON.stringify({ state: { theta_bins: 1 } }) }]).errors[0]
        ?.message,
    ).toMatch(/--agent/);
  });
});
