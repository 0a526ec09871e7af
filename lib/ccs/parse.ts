import { CCS_FIELDS, type CcsInput, type CcsTerms } from './contract';

const FIELD_LINE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$/;
const KNOWN = new Set<string>(CCS_FIELDS);

/** A term names something: a run of punctuation alone (`&`, `:`, `->`, `|`) is a connective or a stray mark. */
const isTerm = (w: string) => /[\p{L}\p{N}]/u.test(w);

/**
 * Splits a run of predicate terms at top-level whitespace, keeping nested parentheses together:
 * `service(nginx) timing(502_spikes after(http2_enable))` → two terms. Connectives such as `&`, and any other run of
 * punctuation alone (a stray `:` of a line the agent meant as a field), are not terms. Free text without any
 * predicate stays one term.
 */
export function splitTerms(text: string): string[] {
  const s = text.trim();
  if (!s) return [];
  if (!s.includes('(')) {
    // Free text ("Mitigate the 502 errors") is one term; a bare list of atoms is split.
    return /[.,;:!?]/.test(s) || s.split(/\s+/).length > 6 ? [s] : s.split(/\s+/).filter(isTerm);
  }
  const terms: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && /\s/.test(ch)) {
      if (isTerm(cur)) terms.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (isTerm(cur)) terms.push(cur);
  return terms;
}

/**
 * Parses the TOON-style text of the ACC paper (Figure 3): a field name and a colon, then terms on
 * the same line and/or the lines below until the next field. Lines before the first known field
 * (such as `ccs_t:`) are ignored. A term the PDF hyphenated across lines (`sig-` + `nal(...)`) is
 * joined back.
 */
export function parseToon(text: string): CcsTerms {
  const out: CcsTerms = {};
  let field: string | null = null;
  let buf: string[] = [];
  const flush = () => {
    if (field) out[field] = splitTerms(buf.join(' ').replace(/-\s+(?=[a-z])/g, ''));
    buf = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const m = FIELD_LINE.exec(line);
    // Every field may carry terms on its own line: a known one anywhere, an agent's own (`reviewer_note: x(y)`, a
    // snake_case name) when it starts the line; an indented `word:` continues the field above.
    if (m && (KNOWN.has(m[1]!) || (/^[a-z][a-z0-9_]*:(?!\/)/.test(line) && /^[a-z][a-z0-9_]*$/.test(m[1]!)))) {
      if (m[1] === 'ccs_t' || m[1] === 'user_query') {
        flush();
        field = null;
        continue;
      }
      flush();
      field = m[1]!;
      if (m[2]) buf.push(m[2]);
    } else if (field) {
      buf.push(line);
    }
  }
  flush();
  return out;
}

/** Normalises either form of CCS into terms per field. */
export function normalizeCcs(input: CcsInput): CcsTerms {
  if (typeof input === 'string') return parseToon(input);
  const out: CcsTerms = {};
  for (const [field, value] of Object.entries(input)) {
    if (value === null) continue;
    out[field] = Array.isArray(value) ? value.map((v) => String(v).trim()).filter(Boolean) : splitTerms(value);
  }
  return out;
}

/** Serialises terms back to the TOON-style text, fields in schema order first. */
export function toToon(ccs: CcsTerms): string {
  const fields = [...CCS_FIELDS.filter((f) => ccs[f]), ...Object.keys(ccs).filter((f) => !KNOWN.has(f))];
  return fields.map((f) => `${f}: ${(ccs[f] ?? []).join(' ')}`).join('\n');
}

/** Rough token count (≈ 4 characters a token), used where an agent did not report a footprint. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
