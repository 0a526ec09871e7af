/**
 * Predicate terms of a CCS, parsed for display: `timing(502_spikes after(http2_enable))` becomes
 * a tree { name: 'timing', args: ['502_spikes', { name: 'after', args: ['http2_enable'] }] }.
 * Malformed terms (unbalanced parentheses) are kept raw and flagged, never dropped.
 */

export interface Predicate {
  name: string;
  args: TermNode[];
}
export type TermNode = string | Predicate;

export type ParsedTerm = { ok: true; node: TermNode } | { ok: false; raw: string; error: string };

const NAME = /^[A-Za-z_][\w.:-]*$/;

export function parseTerm(raw: string): ParsedTerm {
  const s = raw.trim();
  if (!s.includes('(') && !s.includes(')')) return { ok: true, node: s };
  let i = 0;
  const fail = (error: string): ParsedTerm => ({ ok: false, raw, error });

  function parseArgs(): TermNode[] | string {
    const args: TermNode[] = [];
    let atom = '';
    const flush = () => {
      if (atom) args.push(atom);
      atom = '';
    };
    while (i < s.length) {
      const ch = s[i]!;
      if (ch === ')') {
        flush();
        return args;
      }
      if (ch === '(') {
        if (!atom || !NAME.test(atom)) return `unexpected "(" at ${i + 1}`;
        const name = atom;
        atom = '';
        i++;
        const inner = parseArgs();
        if (typeof inner === 'string') return inner;
        if (s[i] !== ')') return `missing ")" for ${name}(`;
        args.push({ name, args: inner });
        i++;
        continue;
      }
      if (/\s/.test(ch)) flush();
      else atom += ch;
      i++;
    }
    flush();
    return args;
  }

  const top = parseArgs();
  if (typeof top === 'string') return fail(top);
  if (i < s.length) return fail(`unexpected ")" at ${i + 1}`);
  if (top.length !== 1) return { ok: true, node: s };
  return { ok: true, node: top[0]! };
}

/** The predicate name of a term (`service` for `service(nginx)`), or null for a bare atom or text. */
export function termName(raw: string): string | null {
  // Hot in the differ: a scan, not a regular expression.
  const open = raw.indexOf('(');
  if (open <= 0) return null;
  let start = 0;
  while (start < open && raw.charCodeAt(start) === 32) start++;
  for (let i = start; i < open; i++) {
    const c = raw.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    const other = (c >= 48 && c <= 57) || c === 46 || c === 58 || c === 45;
    if (!(letter || (i > start && other))) return null;
  }
  return raw.slice(start, open);
}

/** First argument of a predicate term (`nginx` for `service(nginx)`), used to name typed entities. */
export function firstArg(raw: string): string | null {
  const m = /^\s*[A-Za-z_][\w.:-]*\(\s*([^\s()]+)/.exec(raw);
  return m ? m[1]! : null;
}

/** A stable colour slot (0–7) for an entity type, so `service(...)` is the same colour everywhere. */
export function typeSlot(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return h % 8;
}
