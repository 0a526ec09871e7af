import type { CcsTerms } from './contract';
import { inReviewOrder } from './contract';
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
 * A CCS a reviewer edited (`editableCcs`: each field at the margin, its terms one a line below it; `field: t t(…)` on
 * one line works too), read line by line: every `name:` at the margin starts a field (the nine and any other, kept as
 * sent), so a field the reviewer adds is never folded into the one above. Each term is checked with the parser that
 * reads agents' CCSs; every term that does not parse is named with its field and the parser's reason.
 */
export function checkEditedCcs(text: string): { ccs: CcsTerms; problems: string[] } {
  const ccs: CcsTerms = {};
  const problems: string[] = [];
  let field: string | null = null;
  const flush = () => {
    if (field) ccs[field] ??= [];
  };
  text.split(/\r?\n/).forEach((line, k) => {
    // A field starts at the margin; the terms after its colon are split as agents' are, and every indented line
    // below it is one term as written (so free text with spaces stays one term).
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*:(?!:)\s*(.*)$/.exec(line);
    if (m) {
      flush();
      field = m[1]!;
      ccs[field] = [...(ccs[field] ?? []), ...splitTerms(m[2]!)];
    } else if (/^(?=\S)[^(]*:/.test(line)) {
      // At the margin with a colon before any term's parenthesis: meant as a field, but not a name one can be.
      problems.push(
        `line ${k + 1}: \`${line.trim().slice(0, 60)}\` is not a field: a field is a name (letters, digits, _; not ` +
          'starting with a digit) then a colon; indent a term that holds a colon',
      );
    } else if (field) {
      if (line.trim()) ccs[field] = [...(ccs[field] ?? []), line.trim()];
    } else if (line.trim()) problems.push(`line ${k + 1}: terms before any field (start with \`field: …\`)`);
  });
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

/** A CCS as the fork editor shows it: the nine fields first, each at the margin, its terms one a line below it. */
export function editableCcs(ccs: CcsTerms): string {
  return inReviewOrder(Object.keys(ccs).filter((f) => ccs[f]))
    .map((f) => [`${f}:`, ...(ccs[f] ?? []).map((t) => `  ${t.replace(/\s*\n\s*/g, ' ')}`)].join('\n'))
    .join('\n');
}
