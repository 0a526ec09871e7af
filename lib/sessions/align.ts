/**
 * Two runs of the same task side by side (Compare runs): which turn of run B stands beside a turn of run A. By
 * position, shifted by a number of turns (B's k-th turn beside A's (k − shift)-th), or stretched so both runs span
 * the same width when their lengths differ. Positions are turn indexes (0-based, in turn order), not turn numbers, so
 * gaps in numbering do not misalign the rest.
 */
export type Alignment = { mode: 'shift'; shift: number } | { mode: 'stretch' };

export const ALIGN_MODES = ['shift', 'stretch'] as const;

/** B's index beside A's index `i`, or null when B has no turn there. */
export function alignedIndex(i: number, nA: number, nB: number, al: Alignment): number | null {
  if (nB <= 0) return null;
  const j = al.mode === 'shift' ? i + al.shift : nA <= 1 ? 0 : Math.round((i * (nB - 1)) / (nA - 1));
  return j >= 0 && j < nB ? j : null;
}

/** How many of A's turns have a partner in B: none when a shift moves B wholly past A's ends. */
export function pairedCount(nA: number, nB: number, al: Alignment): number {
  if (nA <= 0 || nB <= 0) return 0;
  if (al.mode === 'stretch') return nA;
  return Math.max(0, Math.min(nA, nB - al.shift) - Math.max(0, -al.shift));
}

/** Where B's index `j` lies on A's index scale (a fraction in stretch mode): to draw B's figures over A's. */
export function placeOnA(j: number, nA: number, nB: number, al: Alignment): number {
  return al.mode === 'shift' ? j - al.shift : nB <= 1 ? 0 : (j * (nA - 1)) / (nB - 1);
}

export interface CompareQuery {
  a: string | null;
  b: string | null;
  /** A's turn number to open at. */
  turn: number | null;
  align: Alignment;
  /** What in the query could not be read, each naming its parameter; the rest is used. */
  problems: string[];
}

/** Reads `?a=&b=&turn=&align=shift|stretch&shift=` as a link or the form gives it; bad values are named. */
export function parseCompareQuery(q: Record<string, string | undefined>): CompareQuery {
  const problems: string[] = [];
  const id = (k: 'a' | 'b') => {
    const v = q[k]?.trim();
    if (!v) return null;
    if (v.length > 256) {
      problems.push(`${k}: a session id is at most 256 characters`);
      return null;
    }
    return v;
  };
  const int = (k: string, v: string | undefined, min: number) => {
    if (v === undefined || v.trim() === '') return null;
    const x = Number(v);
    if (!Number.isInteger(x) || x < min || Math.abs(x) > 1e9) {
      problems.push(`${k}: ${JSON.stringify(v)} is not a whole number${min > -Infinity ? ` ≥ ${min}` : ''}`);
      return null;
    }
    return x;
  };
  const a = id('a');
  const b = id('b');
  const turn = int('turn', q.turn, 0);
  const mode = q.align?.trim() || 'shift';
  if (!(ALIGN_MODES as readonly string[]).includes(mode))
    problems.push(`align: ${JSON.stringify(q.align)} is not one of ${ALIGN_MODES.join(', ')}`);
  const shift = int('shift', q.shift, -Infinity) ?? 0;
  if (mode === 'stretch' && shift) problems.push('shift: only the shift alignment takes a shift');
  return {
    a,
    b,
    turn,
    align: mode === 'stretch' ? { mode: 'stretch' } : { mode: 'shift', shift },
    problems,
  };
}

/** The query string of a compare state (the inverse of parseCompareQuery). */
export function compareQueryString(s: { a: string; b: string; turn: number | null; align: Alignment }): string {
  const p = new URLSearchParams({ a: s.a, b: s.b });
  if (s.turn !== null) p.set('turn', String(s.turn));
  if (s.align.mode === 'stretch') p.set('align', 'stretch');
  else if (s.align.shift) p.set('shift', String(s.align.shift));
  return p.toString();
}
