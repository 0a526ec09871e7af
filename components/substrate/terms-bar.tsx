import type { ScoredEdge } from '@/lib/ucs/routing';

type Parts = ScoredEdge['parts'];

/** A score's terms in the order the bars draw them, with their symbols and colours. */
export const PARTS = [
  ['utility', 'α·u', 'var(--series-1)'],
  ['novelty', 'γ·n', 'var(--series-3)'],
  ['weight', 'w', 'var(--series-2)'],
  ['bias', 'b', 'var(--series-4)'],
  ['context', 'δ·E_ctx', 'var(--ok)'],
  ['cost', '−β·c', 'var(--danger)'],
  // Striped: a penalty is not a property of the edge but of the dead ends the context hit.
  ['penalty', '−ε·penalty', 'repeating-linear-gradient(135deg, var(--warn) 0 3px, var(--danger) 3px 5px)'],
] as const satisfies readonly (readonly [keyof Parts, string, string])[];

const sign = (v: number) => (v < 0 ? '−' : '+');

/** The terms as words, for the bar's accessible name and tooltip. */
export const termsText = (parts: Parts) =>
  PARTS.filter(([k]) => parts[k] !== 0)
    .map(([k, label]) => `${label} ${sign(parts[k])}${Math.abs(parts[k]).toFixed(3)}`)
    .join(', ');

/** How far the bars of a set of scores reach below and above zero: one scale for the rows of one table. */
export function termsDomain(rows: readonly Parts[]): [number, number] {
  let neg = 0;
  let pos = 0;
  for (const p of rows) {
    const vals = Object.values(p);
    neg = Math.max(neg, -vals.filter((v) => v < 0).reduce((a, v) => a + v, 0));
    pos = Math.max(
      pos,
      vals.filter((v) => v > 0).reduce((a, v) => a + v, 0),
    );
  }
  return [neg, Math.max(pos, 1e-9)];
}

/**
 * A score's terms as one diverging bar: the negative terms (cost, penalty) stacked left of zero, the positive ones
 * right of it, on the table's common scale, so bars of different rows compare.
 */
export function TermsBar({ parts, domain }: { parts: Parts; domain: [number, number] }) {
  const [neg, pos] = domain;
  const total = neg + pos;
  const text = termsText(parts);
  const seg = (k: keyof Parts, c: string, of: number) =>
    parts[k] ? <span key={k} style={{ width: `${(100 * Math.abs(parts[k])) / of}%`, background: c }} /> : null;
  return (
    <div className="terms-bar" role="img" aria-label={text} title={text}>
      <div className="terms-neg" style={{ width: `${(100 * neg) / total}%` }}>
        {neg ? PARTS.filter(([k]) => parts[k] < 0).map(([k, , c]) => seg(k, c, neg)) : null}
      </div>
      <div className="terms-pos" style={{ width: `${(100 * pos) / total}%` }}>
        {PARTS.filter(([k]) => parts[k] > 0).map(([k, , c]) => seg(k, c, pos))}
      </div>
    </div>
  );
}

export function PartsLegend() {
  return (
    <span className="legend" aria-hidden="true">
      {PARTS.map(([k, label, c]) => (
        <span key={k}>
          <i style={{ background: c, height: 8 }} />
          {label}
        </span>
      ))}
    </span>
  );
}
