import type { CcsTerms } from './contract';
import { splitTerms } from './parse';
import { parseTerm } from './terms';

/** What a fork records of where it came from, in its session's `metadata.forked_from`. */
export interface ForkOrigin {
  session: string;
  turn: number;
  by: string;
  at: string;
}

/** The fork origin in a session's metadata, if it has one that reads as such. */
export function forkOrigin(metadata: Record<string, unknown> | null | undefined): ForkOrigin | null {
  const f = metadata?.forked_from as Partial<ForkOrigin> | undefined;
  return f && typeof f.session === 'string' && typeof f.turn === 'number'
    ? { session: f.session, turn: f.turn, by: String(f.by ?? ''), at: String(f.at ?? '') }
    : null;
}

/**
 * A CCS a reviewer edited, as the TOON-style text the replay shows (`field: term term(...)`, terms may go on below),
 * read line by line: every `name:` at the start of a line starts a field (the nine and any other, kept as sent), so
 * a field the reviewer adds is never folded into the one above. Each term is checked with the parser that reads
 * agents' CCSs; every term that does not parse is named with its field and the parser's reason.
 */
export function checkEditedCcs(text: string): { ccs: CcsTerms; problems: string[] } {
  const ccs: CcsTerms = {};
  const problems: string[] = [];
  let field: string | null = null;
  let buf: string[] = [];
  const flush = () => {
    if (field) ccs[field] = [...(ccs[field] ?? []), ...splitTerms(buf.join(' '))];
    buf = [];
  };
  text.split(/\r?\n/).forEach((line, k) => {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:(?!:)\s*(.*)$/.exec(line);
    if (m) {
      flush();
      field = m[1]!;
      if (m[2]) buf.push(m[2]);
    } else if (field) buf.push(line);
    else if (line.trim()) problems.push(`line ${k + 1}: terms before any field (start with \`field: …\`)`);
  });
  flush();
  let terms = 0;
  for (const [f, list] of Object.entries(ccs))
    for (const t of list ?? []) {
      terms++;
      const p = parseTerm(t);
      if (!p.ok) problems.push(`${f}: ${t} — ${p.error}`);
    }
  if (!terms) problems.push('the CCS has no terms (write `field: term term(...)`, one field a line)');
  return { ccs, problems };
}
