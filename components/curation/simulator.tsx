'use client';

import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useDeferredValue, useMemo, useState } from 'react';
import { prepareBands } from '@/lib/charts/prepare-band';
import {
  FIGURE3,
  PAPER_SETTINGS,
  readSimSettings,
  SIM_FIELDS,
  simSettingsParams,
  simulate,
  sweepRow,
  theorem1,
  type SimSettings,
  type SweepPoint,
} from '@/lib/curation/simulate';
import figure3Reference from '@/lib/curation/fixtures/figure3-reference.json';
import { useTRPC } from '@/components/trpc/provider';
import { fmtInt } from '@/lib/format';
import { LineChart } from '@/components/ui/line-chart';
import { LinkProblems } from '@/components/ui/link-problems';
import { useAddressSync } from '@/components/ui/use-address-sync';
import { Panel } from '@/components/ui/panel';
import { useWidth } from '@/components/ui/use-width';
import { Paper } from '@/components/ui/paper';

const PRESETS = [
  { label: 'Uncurated (B1)', alpha: 1, eta: 0, paper: 0.986 },
  { label: 'Moderate α 0.5 η 0.7', alpha: 0.5, eta: 0.7, paper: 0.696 },
  { label: 'Practical α 0.3 η 0.9', alpha: 0.3, eta: 0.9, paper: 0.307 },
  { label: 'Aggressive α 0.5 η 0.95', alpha: 0.5, eta: 0.95, paper: 0.177 },
];

const HORIZONS = [30, 90, 180, 365];

const SIM_LABELS: Record<keyof SimSettings, string> = {
  lambda: 'events a day λ',
  hallucination: 'hallucinated per event h_e',
  alpha: 'admission rate α',
  eta: 'filter accuracy η',
  r0: 'retrieval size r0 (r = r0·ln N)',
  days: 'days',
  seeds: 'seeded runs',
  seed: 'seed',
};

/**
 * The Memory Curator paper's Monte Carlo model of hallucination compounding, live: P_t (chance a retrieval surfaces
 * at least one hallucinated entry) over a year, mean ± 1σ over seeded runs, against the uncurated
 * baseline and Theorem 1's closed form; the paper's Figure 3 sweep on demand. λ and α can come from this project.
 */
export function Simulator() {
  const trpc = useTRPC();
  const health = useQuery(trpc.curation.health.queryOptions());
  const sent = useQuery(trpc.curation.eventDays.queryOptions());
  // The settings live in the address (what differs from the start): a reload or a shared link shows the same runs.
  const params = useSearchParams();
  const [fromLink] = useState(() => readSimSettings(new URLSearchParams(params.toString())));
  const [s, setS] = useState<SimSettings>(fromLink.settings);
  const deferred = useDeferredValue(s);
  const inAddress = simSettingsParams(deferred);
  useAddressSync(Object.fromEntries(SIM_FIELDS.map((f) => [f.url, inAddress.get(f.url)])), params.toString(), 250);
  const result = useMemo(() => simulate(deferred), [deferred]);
  const baseline = useMemo(
    () => simulate({ ...deferred, alpha: 1, eta: 0, seeds: Math.min(deferred.seeds, 50) }),
    [deferred],
  );
  const [ref, width] = useWidth<HTMLDivElement>();
  const bound = useMemo(() => {
    const days = Array.from({ length: deferred.days }, (_, d) => theorem1(deferred, d + 1));
    return { curated: days.map((t) => t.curated), uncurated: days.map((t) => t.uncurated), days };
  }, [deferred]);
  const chart = prepareBands(
    [
      { key: 'baseline', mean: baseline.mean },
      { key: 'curated', mean: result.mean, std: result.std },
      { key: 'bound-curated', mean: bound.curated },
      { key: 'bound-uncurated', mean: bound.uncurated },
    ],
    deferred.days,
    Math.max(320, width),
    300,
  );
  // λ: memory events sent per day, on the days any was sent (by each event's own time, not the day it was curated:
  // a backlog curates many days at once); α: the share of the curated events decided so far that were admitted to
  // memory (written by the curator or approved by a reviewer; proposals still waiting are left out). η, the share of
  // hallucinated events the curator catches, is not in the dispositions (a rejection is not a caught hallucination):
  // it needs a labelled audit, so it is left as set.
  const observed = useMemo(() => {
    const rows = health.data ?? [];
    const sum = (k: 'curated' | 'written' | 'approved' | 'declined' | 'proposed') => rows.reduce((n, r) => n + r[k], 0);
    const waiting = Math.max(0, sum('proposed') - sum('approved') - sum('declined'));
    const decided = sum('curated') - waiting;
    const days = sent.data;
    if (!decided || !days?.days) return null;
    return {
      events: days.events,
      days: days.days,
      lambda: days.events / days.days,
      alpha: (sum('written') + sum('approved')) / decided,
      waiting,
    };
  }, [health.data, sent.data]);
  const set = (k: keyof SimSettings, v: number) => setS((x) => ({ ...x, [k]: v }));
  const slider = (k: keyof SimSettings, label: string, min: number, max: number, step: number) => (
    <label className="sim-slider" key={k}>
      <span>
        {label} <b>{Number(s[k]).toFixed(step < 0.1 ? 2 : step < 1 ? 1 : 0)}</b>
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
      <Panel as="div" padded className="sim-panel" style={{ display: 'grid', gap: 10 }}>
        <LinkProblems testId="sim-link-problems" problems={fromLink.problems} />
        {SIM_FIELDS.map((f) => slider(f.key, SIM_LABELS[f.key], f.min, f.max, f.step))}
        <div className="toolbar" style={{ flexWrap: 'wrap' }}>
          {PRESETS.map((p) => (
            <button
              key={p.label}
              type="button"
              className="btn"
              // Pressed while every setting is the preset's (the paper's λ, h_e, r0, days and seeds, its α and η).
              aria-pressed={
                s.alpha === p.alpha &&
                s.eta === p.eta &&
                (Object.keys(PAPER_SETTINGS) as (keyof typeof PAPER_SETTINGS)[]).every(
                  (k) => s[k] === PAPER_SETTINGS[k],
                )
              }
              onClick={() => setS((x) => ({ ...x, ...PAPER_SETTINGS, alpha: p.alpha, eta: p.eta }))}
            >
              {p.label}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="btn btn-primary btn-wrap"
          disabled={!observed}
          onClick={() =>
            observed &&
            setS((x) => ({
              ...x,
              lambda: Math.min(50, Math.max(1, Number(observed.lambda.toFixed(1)))),
              alpha: Math.min(1, Math.max(0.05, Number(observed.alpha.toFixed(2)))),
            }))
          }
        >
          {observed
            ? `Use this project's λ ${Math.min(50, observed.lambda).toFixed(1)}/day` +
              (observed.lambda > 50 ? ` (the model's most; it sends ${observed.lambda.toFixed(1)})` : '') +
              ` and α ${observed.alpha.toFixed(2)} ` +
              `(${observed.events} events sent over ${observed.days} day${observed.days === 1 ? '' : 's'})`
            : 'No curated events yet to take λ and α from'}
        </button>
        <p className="muted" style={{ fontSize: 11, margin: 0 }}>
          λ is events sent per day, on the days any was sent; α the share of curated events written or approved, of
          those decided{observed?.waiting ? ` (${observed.waiting} proposals still waiting are left out)` : ''}. η — the
          share of hallucinated events the curator catches — cannot be read from dispositions (a rejected event need not
          be a hallucination, an approved one need not be true): set it from a labelled audit of the project&apos;s
          events.
        </p>
      </Panel>
      <Panel as="div" padded ref={ref}>
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
            b.key.startsWith('bound') ? (
              <path
                key={b.key}
                d={b.line}
                fill="none"
                stroke={b.key === 'bound-curated' ? 'var(--accent)' : 'var(--danger)'}
                strokeWidth={1}
                strokeDasharray="1 3"
              />
            ) : b.key === 'curated' ? (
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
          <span>⋯ Theorem 1&apos;s closed form, curated and uncurated</span>
          <span className="faint">
            y: P_t, the chance a retrieval surfaces at least one hallucinated entry · x: day t
          </span>
        </div>
        <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="P_t at each horizon">
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
              <tr className="muted" data-testid="theorem1-row">
                <td title="P_t ≈ 1 − (αλt)^(−r0·h_e·(1−η)), uncurated 1 − (λt)^(−r0·h_e)">Theorem 1 (closed form)</td>
                {HORIZONS.filter((d) => d <= deferred.days).map((d) => (
                  <td key={d} className="num">
                    {bound.curated[d - 1]!.toFixed(3)}
                  </td>
                ))}
                <td className="num faint">—</td>
                <td className="num faint">—</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p className="muted" style={{ fontSize: 12 }} data-testid="reduction">
          Reduction P<sup>unc</sup> / P<sup>cur</sup> at day {fmtInt(deferred.days)}, as the paper&apos;s Table A gives
          it (3.21× for the practical setting), from the runs above:{' '}
          <b>
            {result.mean[deferred.days - 1]! > 0
              ? `${(baseline.mean[deferred.days - 1]! / result.mean[deferred.days - 1]!).toFixed(2)}×`
              : '— (no curated retrieval surfaced a hallucinated entry)'}
          </b>
        </p>
        <p className="muted" style={{ fontSize: 12 }} data-testid="theorem1-ratio">
          Theorem 1&apos;s ratio (1 − P<sup>cur</sup>) / (1 − P<sup>unc</sup>) at day {fmtInt(deferred.days)}:{' '}
          <b>{bound.days[deferred.days - 1]!.ratio.toFixed(2)}×</b>
        </p>
        <p className="muted" style={{ fontSize: 11 }}>
          Table A of <Paper id="curator" at="§4.5" /> (P_365): {PRESETS.map((p) => `${p.label} ${p.paper}`).join(' · ')}
          . A unit test checks this simulator reproduces all four within 2σ. Theorem 1 (§4.4) is first order in h_e; the
          paper notes the simulated P_t rises faster than it. Its ratio, (1 − P<sup>cur</sup>) / (1 − P<sup>unc</sup>)
          at the last day, is how many times likelier a curated retrieval is to come back free of hallucinated entries.
        </p>
      </Panel>
      <Figure3 settings={deferred} />
    </div>
  );
}

const REFERENCE = figure3Reference.points as SweepPoint[];
const ALPHA_COLOR = ['var(--series-1)', 'var(--series-2)', 'var(--series-3)', 'var(--series-4)', 'var(--ok)'];

/**
 * The curator paper's Figure 3: P_365 against η at five α, 80 seeds a point, computed here a row at a time (so the
 * page stays responsive), with the figures its own script gives drawn as dots.
 */
function Figure3({ settings }: { settings: SimSettings }) {
  /** What the sweep depends on (η and α are what it sweeps), as of the run drawn. */
  const inputs = (s: SimSettings) => ({ lambda: s.lambda, hallucination: s.hallucination, r0: s.r0, seed: s.seed });
  const [ran, setRan] = useState<{ at: ReturnType<typeof inputs>; rows: SweepPoint[][] } | null>(null);
  const rows = ran?.rows ?? null;
  const [running, setRunning] = useState(false);
  // The caption and the reference dots follow the settings the curves were computed at, not the form's.
  const at = ran?.at ?? inputs(settings);
  const changed = ran !== null && JSON.stringify(at) !== JSON.stringify(inputs(settings));
  const paper = at.lambda === 10 && at.hallucination === 0.1 && at.r0 === 5;
  const run = async () => {
    setRunning(true);
    const from = inputs(settings);
    setRan({ at: from, rows: [] });
    const done: SweepPoint[][] = [];
    for (const alpha of FIGURE3.alphas) {
      await new Promise((r) => setTimeout(r, 0));
      done.push(sweepRow(from, alpha));
      setRan({ at: from, rows: [...done] });
    }
    setRunning(false);
  };
  const series = [
    ...(rows ?? []).map((row, i) => ({
      key: `a${row[0]!.alpha}`,
      label: `α ${row[0]!.alpha}`,
      color: ALPHA_COLOR[i]!,
      values: row.map((p) => ({ x: p.eta, y: p.p })),
    })),
    ...(paper && rows?.length
      ? FIGURE3.alphas.slice(0, rows.length).map((alpha, i) => ({
          key: `ref${alpha}`,
          label: `reference α ${alpha}`,
          color: ALPHA_COLOR[i]!,
          dashed: true,
          dots: true,
          values: REFERENCE.filter((p) => p.alpha === alpha).map((p) => ({ x: p.eta, y: p.p })),
        }))
      : []),
  ];
  return (
    <Panel padded style={{ gridColumn: '1 / -1' }} testId="figure3">
      <div className="toolbar" style={{ justifyContent: 'space-between' }}>
        <span>
          <b>Figure 3: P_365 against filter accuracy η</b>{' '}
          <span className="muted">
            from 0 to 1, at α {FIGURE3.alphas.join(', ')}; {FIGURE3.seeds} seeds a point, λ {at.lambda}, h_e{' '}
            {at.hallucination}, r0 {at.r0}
          </span>
        </span>
        <button type="button" className="btn" disabled={running} onClick={() => void run()}>
          {running
            ? `Running… ${rows?.length ?? 0} of ${FIGURE3.alphas.length}`
            : changed
              ? 'Run the sweep again'
              : 'Run the sweep'}
        </button>
      </div>
      {changed && !running ? (
        <p className="banner warn" role="status" data-testid="figure3-stale" style={{ margin: '8px 0' }}>
          Drawn at λ {at.lambda}, h_e {at.hallucination}, r0 {at.r0}: the settings above have changed since. Run the
          sweep again for them.
        </p>
      ) : null}
      {rows?.length ? (
        <>
          <LineChart
            series={series}
            xLabel="filter accuracy η"
            yLabel="P_365"
            yMax={1}
            height={260}
            testId="figure3-chart"
            showLast={false}
          />
          <p className="muted" style={{ fontSize: 11, margin: 0 }}>
            {paper
              ? 'Dashed with dots: the reference script (scripts/mc_simulation.py of the paper’s repository) at the ' +
                'same settings; a unit test checks every point agrees within 4 standard errors. '
              : 'The reference figures are drawn only at the paper’s λ 10, h_e 0.1, r0 5. '}
            The paper says α barely matters at η 0.9 (&ldquo;less than 10%&rdquo; from α 0.1 to 0.7); its own sweep
            gives 0.246 and 0.332 there.
          </p>
        </>
      ) : (
        <p className="muted" style={{ margin: '8px 0 0' }}>
          55 settings × 80 seeded one-year runs, computed in this browser (a few seconds).
        </p>
      )}
    </Panel>
  );
}
