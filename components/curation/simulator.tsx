'use client';

import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { prepareBands } from '@/lib/charts/prepare-band';
import { PAPER_SETTINGS, simulate, type SimSettings } from '@/lib/curation/simulate';
import { useTRPC } from '@/components/trpc/provider';
import { useWidth } from '@/components/ui/use-width';

const PRESETS = [
  { label: 'Uncurated (B1)', alpha: 1, eta: 0, paper: 0.986 },
  { label: 'Moderate α 0.5 η 0.7', alpha: 0.5, eta: 0.7, paper: 0.696 },
  { label: 'Practical α 0.3 η 0.9', alpha: 0.3, eta: 0.9, paper: 0.307 },
  { label: 'Aggressive α 0.5 η 0.95', alpha: 0.5, eta: 0.95, paper: 0.177 },
];

const HORIZONS = [30, 90, 180, 365];

/**
 * The Memory Curator paper's Monte Carlo model of hallucination compounding, live: P_t (chance a retrieval surfaces
 * at least one hallucinated entry) over a year, mean ± 1σ over seeded runs, against the uncurated
 * baseline. Settings can come from this project's observed admission and rejection rates.
 */
export function Simulator() {
  const trpc = useTRPC();
  const health = useQuery(trpc.curation.health.queryOptions());
  const [s, setS] = useState<SimSettings>({ ...PAPER_SETTINGS, alpha: 0.3, eta: 0.9, seed: 1 });
  const deferred = useDeferredValue(s);
  const result = useMemo(() => simulate(deferred), [deferred]);
  const baseline = useMemo(
    () => simulate({ ...deferred, alpha: 1, eta: 0, seeds: Math.min(deferred.seeds, 50) }),
    [deferred],
  );
  const [ref, width] = useWidth<HTMLDivElement>();
  const chart = prepareBands(
    [
      { key: 'baseline', mean: baseline.mean },
      { key: 'curated', mean: result.mean, std: result.std },
    ],
    deferred.days,
    Math.max(320, width),
    300,
  );
  const observed = useMemo(() => {
    const rows = health.data ?? [];
    const curated = rows.reduce((n, r) => n + r.curated, 0);
    if (!curated) return null;
    const admitted = rows.reduce((n, r) => n + r.written + r.approved, 0);
    const rejected = rows.reduce((n, r) => n + r.rejected + r.declined + r.duplicates + r.discarded, 0);
    return { curated, alpha: admitted / curated, eta: rejected / curated };
  }, [health.data]);
  const set = (k: keyof SimSettings, v: number) => setS((x) => ({ ...x, [k]: v }));
  const slider = (k: keyof SimSettings, label: string, min: number, max: number, step: number) => (
    <label className="sim-slider">
      <span>
        {label} <b>{Number(s[k]).toFixed(step < 1 ? 2 : 0)}</b>
      </span>
      <input
        type="range"
        aria-label={label}
        min={min}
        max={max}
        step={step}
        value={Number(s[k])}
        onChange={(e) => set(k, Number(e.target.value))}
      />
    </label>
  );
  return (
    <div className="grid-2" style={{ gridTemplateColumns: '320px minmax(0, 1fr)', alignItems: 'start' }}>
      <div className="panel panel-body sim-panel" style={{ display: 'grid', gap: 10 }}>
        {slider('lambda', 'events a day λ', 1, 50, 1)}
        {slider('hallucination', 'hallucinated per event h_e', 0, 0.5, 0.01)}
        {slider('alpha', 'admission rate α', 0.05, 1, 0.05)}
        {slider('eta', 'filter accuracy η', 0, 1, 0.01)}
        {slider('r0', 'retrieval size r0 (r = r0·ln N)', 1, 10, 0.5)}
        {slider('days', 'days', 30, 730, 5)}
        {slider('seeds', 'seeded runs', 10, 400, 10)}
        {slider('seed', 'seed', 1, 100, 1)}
        <div className="toolbar" style={{ flexWrap: 'wrap' }}>
          {PRESETS.map((p) => (
            <button
              key={p.label}
              type="button"
              className="btn"
              onClick={() => setS((x) => ({ ...x, ...PAPER_SETTINGS, alpha: p.alpha, eta: p.eta }))}
            >
              {p.label}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!observed}
          onClick={() =>
            observed &&
            setS((x) => ({ ...x, alpha: Number(observed.alpha.toFixed(2)), eta: Number(observed.eta.toFixed(2)) }))
          }
        >
          {observed
            ? `Use this project's rates: α ${observed.alpha.toFixed(2)}, η ${observed.eta.toFixed(2)} ` +
              `(${observed.curated} events)`
            : 'No curated events yet to take rates from'}
        </button>
        <p className="muted" style={{ fontSize: 11, margin: 0 }}>
          η from this project is the share of curated events that were rejected, discarded or found duplicate — an upper
          bound on filter accuracy, since not every rejected event was a hallucination.
        </p>
      </div>
      <div className="panel panel-body" ref={ref}>
        <svg width={Math.max(320, width)} height={300} role="img" aria-label="P_t over days" data-testid="sim-chart">
          {chart.yTicks.map((t) => (
            <g key={t.label}>
              <line x1={36} x2={Math.max(320, width) - 10} y1={t.y} y2={t.y} stroke="var(--border)" />
              <text x={30} y={t.y + 4} textAnchor="end" fontSize={10} fill="var(--faint)">
                {t.label}
              </text>
            </g>
          ))}
          {chart.xTicks.map((t) => (
            <text key={t.label} x={t.x} y={296} textAnchor="middle" fontSize={10} fill="var(--faint)">
              {t.label}
            </text>
          ))}
          {chart.bands.map((b) =>
            b.key === 'curated' ? (
              <g key={b.key}>
                <path d={b.band ?? ''} fill="var(--accent)" opacity={0.18} />
                <path d={b.line} fill="none" stroke="var(--accent)" strokeWidth={2} />
              </g>
            ) : (
              <path key={b.key} d={b.line} fill="none" stroke="var(--danger)" strokeWidth={1.5} strokeDasharray="4 3" />
            ),
          )}
        </svg>
        <div className="toolbar muted" style={{ fontSize: 12, gap: 16 }}>
          <span style={{ color: 'var(--accent)' }}>━ curated mean ± 1σ</span>
          <span style={{ color: 'var(--danger)' }}>┅ uncurated baseline</span>
        </div>
        <table className="data compact" data-testid="sim-table" style={{ marginTop: 10 }}>
          <thead>
            <tr>
              <th>day</th>
              {HORIZONS.filter((d) => d <= deferred.days).map((d) => (
                <th key={d} className="num">
                  P_{d}
                </th>
              ))}
              <th className="num">memory N</th>
              <th className="num">hallucinated</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>these settings</td>
              {HORIZONS.filter((d) => d <= deferred.days).map((d) => (
                <td key={d} className="num">
                  {result.mean[d - 1]!.toFixed(3)}
                  {d === 365 ? ` ± ${result.std[d - 1]!.toFixed(3)}` : ''}
                </td>
              ))}
              <td className="num">{Math.round(result.entries[deferred.days - 1]!)}</td>
              <td className="num">{result.hallucinated[deferred.days - 1]!.toFixed(1)}</td>
            </tr>
            <tr className="muted">
              <td>uncurated</td>
              {HORIZONS.filter((d) => d <= deferred.days).map((d) => (
                <td key={d} className="num">
                  {baseline.mean[d - 1]!.toFixed(3)}
                </td>
              ))}
              <td className="num">{Math.round(baseline.entries[deferred.days - 1]!)}</td>
              <td className="num">{baseline.hallucinated[deferred.days - 1]!.toFixed(1)}</td>
            </tr>
          </tbody>
        </table>
        <p className="muted" style={{ fontSize: 11 }}>
          The Memory Curator paper&apos;s Table A (P_365): {PRESETS.map((p) => `${p.label} ${p.paper}`).join(' · ')}. A
          unit test checks this simulator reproduces all four within 2σ.
        </p>
      </div>
    </div>
  );
}
