/**
 * A curation report for one ingest batch, in the layout of the curator's template
 * (fixtures/curator/memory-curation-report.template.md): summary counts with percentages, then one
 * table a section. Cells are escaped so memory text cannot break the Markdown table.
 */
export interface CurationReport {
  batchId: string;
  receivedAt: string;
  actor: string;
  received: number;
  written: { eventId: string; scope: string; kind: string; action: string; target: string }[];
  proposed: { eventId: string; scope: string; kind: string; because: string; status: string }[];
  rejected: { eventId: string; disposition: string; reason: string }[];
  redactions: { eventId: string; redaction: string }[];
  conflicts: { eventId: string; conflictsWith: string; resolution: string }[];
  deprecations: { eventId: string; target: string }[];
  notes: string[];
}

/**
 * Sender text as inert Markdown: no table breaks, no links, images, autolinks, code spans, emphasis or raw HTML
 * (`<`, `>` and `&` become entities; the rest a backslash escape).
 */
export const inert = (s: string) =>
  s
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*[\]|!]/g, (c) => `\\${c}`)
    .replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));
const cell = inert;

export function pct(n: number, of: number): string {
  return of ? `${((n / of) * 100).toFixed(1)}%` : '0.0%';
}

export function reportMarkdown(r: CurationReport): string {
  const count = (n: number) => `${n} (${pct(n, r.received)})`;
  const table = (head: string[], rows: string[][]) =>
    [
      `| ${head.join(' | ')} |`,
      `|${head.map(() => '---').join('|')}|`,
      ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    ].join('\n');
  return [
    '# Memory Curation Report',
    '',
    `Batch ${inert(r.batchId)}, received ${inert(r.receivedAt)} from ${inert(r.actor)}.`,
    '',
    '## Summary',
    '',
    `- Events received: ${r.received}`,
    `- Accepted writes: ${count(r.written.length)}`,
    `- Proposed writes: ${count(r.proposed.length)}`,
    `- Rejected: ${count(r.rejected.length)}`,
    `- Events redacted: ${count(new Set(r.redactions.map((x) => x.eventId)).size)}`,
    `- Conflicts: ${count(r.conflicts.length)}`,
    `- Deprecations: ${count(r.deprecations.length)}`,
    '',
    '## Accepted Writes',
    '',
    table(
      ['Event ID', 'Scope', 'Kind', 'Action', 'Target'],
      r.written.map((w) => [w.eventId, w.scope, w.kind, w.action, w.target]),
    ),
    '',
    '## Proposed Writes',
    '',
    table(
      ['Event ID', 'Scope', 'Kind', 'Needs Review Because', 'Decision'],
      r.proposed.map((p) => [p.eventId, p.scope, p.kind, p.because, p.status]),
    ),
    '',
    '## Rejected Events',
    '',
    table(
      ['Event ID', 'Reason'],
      r.rejected.map((x) => [x.eventId, x.disposition === 'rejected' ? x.reason : `${x.disposition}: ${x.reason}`]),
    ),
    '',
    '## Redactions',
    '',
    table(
      ['Event ID', 'Redaction'],
      r.redactions.map((x) => [x.eventId, x.redaction]),
    ),
    '',
    '## Conflicts',
    '',
    table(
      ['Event ID', 'Conflicts With', 'Resolution Needed'],
      r.conflicts.map((c) => [c.eventId, c.conflictsWith, c.resolution]),
    ),
    '',
    '## Deprecations',
    '',
    table(
      ['Event ID', 'Target'],
      r.deprecations.map((d) => [d.eventId, d.target]),
    ),
    '',
    '## Audit Notes',
    '',
    ...(r.notes.length ? r.notes.map((n) => `- ${inert(n)}`) : ['- No reviewer decisions yet.']),
    '',
  ].join('\n');
}
