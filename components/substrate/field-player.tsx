'use client';

import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { LinkProblems } from '@/components/ui/link-problems';
import { useAddressSync } from '@/components/ui/use-address-sync';
import { redactText } from '@/lib/redact/redact';
import { Panel } from '@/components/ui/panel';
import { EmptyState, ErrorBox, QueryError } from '@/components/ui/states';
import { useWidth } from '@/components/ui/use-width';
import { fieldDiff, fieldExtent, nodePositions } from '@/lib/ucs/field';
import { FIELD_DEFAULTS } from '@/lib/ucs/dynamics';
import { REFERENCE_RULES } from '@/lib/ucs/reference';
import { simulateTicks, type SimulatedRun } from '@/lib/ucs/substrate-sim';
import { fmtInt, plural } from '@/lib/format';
import { RoutingPanel } from './routing-panel';
import { ConsultSamples } from './consult-samples';
import { CapabilityGraph } from './capability-graph';
import { ArtifactsPanel, type ArtifactRow } from './artifacts-panel';
import { useSubstrate } from './store';
import { SubstrateCrumbs, SubstrateTabs } from './tabs';
import { TorusHeatmap } from './torus-heatmap';
import { stateLabel, useSubstrateState } from './use-substrate';

/** Edge indexes of the artifacts of one kind (wormholes and resonances sit on edges). */
function edgesOf(artifacts: ArtifactRow[], kind: string): Set<number> {
  return new Set(
    artifacts
      .filter((a) => a.kind === kind && typeof a.payload.edge_index === 'number')
      .map((a) => a.payload.edge_index as number),
  );
}

const OUTCOMES = ['neutral', 'success', 'partial', 'failure'] as const;
const MAX_TICKS = 500;
const fmtField = (v: number) =>
  (Math.abs(v) >= 1000 ? fmtInt(v) : v.toFixed(Math.abs(v) >= 100 ? 1 : 3)).replace(/^-/, '−');

/** What one simulated tick is, in the words of the reference's operations (the button's tooltip and the note). */
export function tickText(outcome: string) {
  const R = REFERENCE_RULES;
  return (
    `One tick is one bridge consult then one report, as the reference runs them. Consult with no context: the ` +
    `context-energy field is zeroed, then ${R.consultWarmupSteps} rounds of energy diffusion (α_θ ` +
    `${FIELD_DEFAULTS.thetaMix}, α_φ ${FIELD_DEFAULTS.phiMix}), decay ×${FIELD_DEFAULTS.decay} of every field but ` +
    `context energy, and the injection schedule. Report of the consult's first suggested path as “${outcome}”: its ` +
    `edge reinforced (w ← clamp(w + ${R.reinforceLr}·(r − c − 0.5), ±${R.weightClamp})), ` +
    `${R.reportEnergyMagnitude} injected at it, one more round, the cursor moves there, t + 1; every ` +
    `${R.phiReportInterval}th report a φ-cycle harvests artifacts, updates the policy bias and adds artifact mass to ` +
    `memory.`
  );
}

/**
 * The field of one agent over its snapshots: a heatmap with a slider and player, the difference of two snapshots, or
 * the shown snapshot run forward by the reference's bridge ticks; below, the capability graph, the artifacts and what
 * the bridge would advise for a context.
 */
export function FieldPlayer({ agent }: { agent: string }) {
  const trpc = useTRPC();
  const meta = useQuery(trpc.substrate.snapshots.queryOptions({ agent }));
  const snaps = meta.data?.snapshots ?? [];
  const fields = snaps.at(-1)?.fields ?? [];
  // What the page shows is in its address (a reload or a shared link shows the same): the field, the snapshot and
  // the one subtracted by their step t, the scale, and the consult's context. Read once: the snapshots are in the
  // server's HTML, so a step is found at once; one no snapshot has is said, and the latest shown.
  const params = useSearchParams();
  const [fromLink] = useState(() => readFieldLink(params, snaps, fields));
  const [field, setField] = useState(fromLink.field);
  const [index, setIndex] = useState<number | null>(fromLink.index);
  const [playing, setPlaying] = useState(false);
  const [diffFrom, setDiffFrom] = useState<number | null>(fromLink.diff);
  const [sqrt, setSqrt] = useState(fromLink.sqrt);
  const { consult, setConsult } = useSubstrate();
  useEffect(() => {
    if (fromLink.context !== null) setConsult({ agent, context: fromLink.context, sample: fromLink.sample });
  }, [fromLink, agent, setConsult]);
  const context = consult.agent === agent ? consult : null;
  // Bridge ticks simulated from the shown snapshot (not shown once another snapshot is), extended click by click.
  const [sim, setSim] = useState<{ t: number; run: SimulatedRun } | null>(null);
  const [ticksAsked, setTicksAsked] = useState(5);
  const [outcome, setOutcome] = useState<(typeof OUTCOMES)[number]>('neutral');
  const series = useQuery(trpc.substrate.fieldSeries.queryOptions({ agent, field }));
  const [ref, width] = useWidth<HTMLDivElement>(900);
  const n = series.data?.length ?? 0;
  const i = index === null ? Math.max(0, n - 1) : Math.min(index, n - 1);

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(
      () =>
        setIndex((k) => {
          const cur = k === null ? 0 : k;
          if (cur >= n - 1) {
            setPlaying(false);
            return cur;
          }
          return cur + 1;
        }),
      250,
    );
    return () => clearInterval(timer);
  }, [playing, n]);

  const frame = series.data?.[i];
  useAddressSync(
    {
      field: field === 'energy' ? null : field,
      t: index === null ? null : String(snaps[i]?.t ?? ''),
      diff: diffFrom === null ? null : String(snaps[diffFrom]?.t ?? ''),
      scale: sqrt ? 'sqrt' : null,
      // A context that holds a secret is not put in an address (history, sync, a link sent on).
      context: context?.context.trim() && !redactText(context.context).findings.length ? context.context : null,
      sample: context?.sample === null || context?.sample === undefined ? null : String(context.sample),
    },
    params.toString(),
    // While playing the snapshot moves 4 times a second, and a context is typed a key at a time: written once still.
    250,
  );
  // Not fetched frame by frame while playing: the consult and the graph catch up when it stops.
  const state = useSubstrateState(agent, frame?.t, !!frame && !playing);
  const substrate = state.stale ? null : state.substrate;
  const run = sim && substrate && sim.t === frame?.t ? sim.run : null;
  const ticks = run?.ticks.length ?? 0;
  const simulated = run?.state ?? null;
  const simValues = simulated ? (simulated.fields[field] ?? null) : null;
  const base = diffFrom !== null ? series.data?.[diffFrom] : undefined;
  const shown = simulated ? simValues : (frame?.values ?? null);
  const values = useMemo(() => (shown ? (base?.values ? fieldDiff(base.values, shown) : shown) : null), [shown, base]);
  // One colour scale for the whole series, so frames are comparable while playing; a simulation may go beyond it.
  const domain = useMemo<[number, number]>(() => {
    if (diffFrom !== null && values) return fieldExtent(values);
    let [lo, hi] = values ? fieldExtent(values) : [Infinity, -Infinity];
    for (const s of series.data ?? []) {
      if (!s.values) continue;
      const [a, b] = fieldExtent(s.values);
      lo = Math.min(lo, a);
      hi = Math.max(hi, b);
    }
    return lo === Infinity ? [0, 1] : [lo, hi];
  }, [series.data, diffFrom, values]);
  const stats = useMemo(() => {
    if (!values) return null;
    const [lo, hi] = fieldExtent(values);
    return { lo, hi, sum: values.reduce((a, v) => a + v, 0) };
  }, [values]);
  const nodes = useMemo(
    () =>
      frame ? nodePositions(meta.data?.nodes ?? [], meta.data?.schedule ?? null, frame.thetaBins, frame.phiBins) : [],
    [frame, meta.data],
  );
  const snap = snaps[i];
  const artifactsQ = useQuery(trpc.substrate.fieldArtifacts.queryOptions({ agent }));
  // The graph follows a simulation too: its edges' bias and cursor move with the ticks.
  const shownState = simulated ?? state.substrate;
  const graphNodes = useMemo(() => shownState?.nodes ?? [], [shownState]);
  const graphEdges = useMemo(() => shownState?.edges ?? [], [shownState]);
  const artifacts = useMemo(() => (artifactsQ.data ?? []) as ArtifactRow[], [artifactsQ.data]);
  const { wormholes, resonances } = useMemo(
    () => ({ wormholes: edgesOf(artifacts, 'wormhole'), resonances: edgesOf(artifacts, 'resonance') }),
    [artifacts],
  );
  const attractors = useMemo(
    () => new Set(artifacts.filter((a) => typeof a.payload.node === 'string').map((a) => a.payload.node as string)),
    [artifacts],
  );
  const { edgeIndex: selEdge, node: selNode } = useSubstrate();
  const highlight =
    selEdge !== null && graphEdges[selEdge]
      ? [graphEdges[selEdge]!.src, graphEdges[selEdge]!.dst]
      : selNode
        ? [selNode]
        : [];
  const cursor = simulated
    ? simulated.cursor
    : snap?.cursor && typeof snap.cursor.theta === 'number' && typeof snap.cursor.phi === 'number'
      ? { theta: snap.cursor.theta, phi: snap.cursor.phi, node: snap.cursor.node }
      : null;
  // The ticks asked are a whole number that fits what the run may still add; otherwise the form says why not.
  const room = MAX_TICKS - ticks;
  const ticksValid = Number.isInteger(ticksAsked) && ticksAsked >= 1 && ticksAsked <= room;
  const ticksProblem = ticksValid
    ? null
    : room < 1
      ? `A run holds at most ${MAX_TICKS} ticks: go back to stored to start again.`
      : `Ticks: a whole number from 1 to ${room}.`;
  // Only the ticks added are computed (about 1 ms a tick).
  const simulate = () => {
    if (!frame || !substrate) return;
    if (!ticksValid) return;
    const more = simulateTicks(run?.state ?? substrate, ticksAsked, { step: { success: outcome } });
    setSim({ t: frame.t, run: { state: more.state, ticks: [...(run?.ticks ?? []), ...more.ticks] } });
  };

  if (meta.error) return <QueryError query={meta} />;
  return (
    <>
      <SubstrateCrumbs agent={agent} />
      <LinkProblems testId="field-link-problems" problems={fromLink.problems} />
      <div className="page-head">
        <div>
          <h1>Torus field of {agent}</h1>
          <div className="sub">
            {snaps.length
              ? `${fmtInt(snaps.length)} snapshots, steps t ${fmtInt(snaps[0]!.t)}–${fmtInt(snaps.at(-1)!.t)} · ` +
                `${snaps.at(-1)!.thetaBins}×${snaps.at(-1)!.phiBins} bins · ` +
                `${fmtInt(meta.data?.nodes.length ?? 0)} capabilities`
              : meta.error
                ? 'Not loaded'
                : meta.data
                  ? 'No field snapshots'
                  : 'Loading…'}
          </div>
        </div>
        <div className="toolbar">
          <select className="select" aria-label="Field" value={field} onChange={(e) => setField(e.target.value)}>
            {(fields.length ? fields : ['energy']).map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
          <label className="muted nowrap">
            <input type="checkbox" checked={sqrt} onChange={(e) => setSqrt(e.target.checked)} /> √ scale
          </label>
          <label className="muted nowrap toolbar">
            Difference from
            <select
              className="select"
              aria-label="Difference from"
              value={diffFrom ?? ''}
              onChange={(e) => setDiffFrom(e.target.value === '' ? null : Number(e.target.value))}
            >
              <option value="">— (show the field)</option>
              {snaps.map((s, k) => (
                <option key={s.t} value={k}>
                  t {s.t}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <SubstrateTabs agent={agent} />
      <Panel as="div" body={false} className="player" testId="field-player">
        <div className="player-controls">
          <button
            type="button"
            className="btn"
            onClick={() => (playing ? setPlaying(false) : (setIndex(i >= n - 1 ? 0 : i), setPlaying(true)))}
            aria-label={playing ? 'Pause' : 'Play'}
          >
            {playing ? 'Pause' : 'Play'}
          </button>
          <input
            type="range"
            min={0}
            max={Math.max(0, n - 1)}
            value={i}
            onChange={(e) => {
              setPlaying(false);
              setIndex(Number(e.target.value));
            }}
            aria-label="Snapshot"
            aria-valuetext={frame ? `step ${frame.t}, ${i + 1} of ${n}` : undefined}
            style={{ flex: 1 }}
          />
          <span className="turn-readout" data-testid="snapshot-readout">
            {simulated ? (
              <>
                t <b>{simulated.t}</b> <span className="badge warn">simulated</span>{' '}
                <span className="faint">
                  from step {frame?.t} ({i + 1} of {n})
                </span>
              </>
            ) : (
              <>
                step <b>{frame?.t ?? '—'}</b>{' '}
                <span className="faint">
                  ({i + 1} of {n})
                </span>
              </>
            )}
          </span>
          {cursor?.node ? (
            <span className={simulated ? 'badge warn' : 'badge accent'}>
              {simulated ? 'simulated cursor' : 'cursor'}: {cursor.node}
            </span>
          ) : null}
        </div>
        <div className="sim-controls" role="group" aria-label="Simulate bridge ticks">
          <label className="muted nowrap">
            Ticks{' '}
            <input
              className="input num-input"
              type="number"
              min={1}
              max={Math.max(1, room)}
              step={1}
              value={Number.isNaN(ticksAsked) ? '' : ticksAsked}
              onChange={(e) => setTicksAsked(e.target.value === '' ? NaN : Number(e.target.value))}
              aria-label="Ticks to simulate"
              aria-invalid={!ticksValid}
              aria-describedby={ticksProblem ? 'ticks-problem' : undefined}
            />
          </label>
          <label className="muted nowrap">
            reported as{' '}
            <select
              className="select"
              aria-label="Outcome the simulated ticks report"
              value={outcome}
              onChange={(e) => {
                setOutcome(e.target.value as (typeof OUTCOMES)[number]);
                setSim(null);
              }}
            >
              {OUTCOMES.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn"
            onClick={simulate}
            disabled={!substrate || !ticksValid}
            title={tickText(outcome)}
            data-testid="simulate"
          >
            {ticksValid ? `Simulate +${ticksAsked}` : 'Simulate'}
          </button>
          {ticksProblem ? (
            <span className="field-error" id="ticks-problem" role="status" data-testid="ticks-problem">
              {ticksProblem}
            </span>
          ) : null}
          {ticks ? (
            <button type="button" className="link-btn" onClick={() => setSim(null)}>
              back to stored
            </button>
          ) : null}
          {stats ? (
            <span className="muted nowrap field-stats" data-testid="field-stats">
              {diffFrom !== null ? `Δ ${field}` : field}: min {fmtField(stats.lo)} · max {fmtField(stats.hi)} · Σ{' '}
              {fmtField(stats.sum)}
            </span>
          ) : null}
        </div>
        {run && state.meta ? (
          <p className="sim-note" data-testid="simulated">
            <span className="badge warn">simulated</span> {`+${plural(run.ticks.length, 'bridge tick')} from `}
            {`${stateLabel(state.meta)} → t ${run.state.t}`}, cursor{' '}
            <span className="mono">{run.state.cursor.node}</span>
            {' · '}
            {plural(run.ticks.filter((x) => x.routed).length, 'report')} along an edge,{' '}
            {plural(run.ticks.filter((x) => x.action !== null && !x.routed).length, 'jump')},{' '}
            {plural(run.ticks.filter((x) => x.phi).length, 'φ-cycle')}.{' '}
            <span className="faint">{tickText(outcome)}</span>
          </p>
        ) : (
          <p className="sim-note faint">
            Simulate runs the shown snapshot forward by the reference bridge’s ticks (one consult and one report each),
            with the dead ends and methodology of the stored index; the graph below stays as stored.
          </p>
        )}
      </Panel>
      <Panel as="div" padded ref={ref}>
        <QueryError query={series} />
        {state.error ? <ErrorBox error={state.error} /> : null}
        {frame && !shown ? (
          <EmptyState
            title={
              simulated ? `The bridge does not simulate a “${field}” field` : `This snapshot has no “${field}” field`
            }
          />
        ) : null}
        {frame && values ? (
          <TorusHeatmap
            thetaBins={frame.thetaBins}
            phiBins={frame.phiBins}
            values={values}
            domain={domain}
            difference={
              base?.values
                ? `${field}(t ${simulated ? `${simulated.t}, simulated` : frame.t}) − ${field}(t ${base.t})`
                : null
            }
            scaleOver={
              diffFrom !== null
                ? undefined
                : `all ${plural(series.data?.length ?? 0, 'snapshot')}${simulated ? ' and this simulation' : ''}`
            }
            fieldName={field}
            nodes={nodes}
            cursor={cursor}
            highlight={highlight}
            sqrt={sqrt}
            width={Math.min(width, 1100)}
          />
        ) : !series.error && !(frame && !shown) ? (
          <div className="skeleton" style={{ height: 300 }} />
        ) : null}
      </Panel>
      {/* On the state shown: the simulated one while a simulation is shown. */}
      <RoutingPanel
        agent={agent}
        substrate={simulated ?? state.substrate}
        meta={state.meta}
        simulatedTicks={run ? ticks : null}
        indexFrom={state.index?.from ?? null}
      />
      <div className="substrate-row">
        <Panel
          as="div"
          title={
            <>
              Capability graph{' '}
              <span className="faint">
                {graphNodes.length} capabilities · {graphEdges.length} edges ·{' '}
                {simulated ? `at simulated step ${simulated.t}` : `at step ${state.meta?.t ?? '—'}`}
              </span>
            </>
          }
        >
          {graphNodes.length ? (
            <CapabilityGraph
              nodes={graphNodes}
              edges={graphEdges}
              cursor={simulated?.cursor.node ?? snap?.cursor?.node ?? null}
              bias={shownState?.edgeBias ?? {}}
              wormholes={wormholes}
              resonances={resonances}
              attractors={attractors}
            />
          ) : (
            <div className="skeleton" style={{ height: 300 }} />
          )}
        </Panel>
        <ArtifactsPanel artifacts={artifacts} edges={graphEdges} latestT={state.meta?.latestT ?? null} />
      </div>
      <ConsultSamples agent={agent} />
    </>
  );
}

/** The field page's settings from its address: known values, and what was named but is not there. */
function readFieldLink(params: URLSearchParams, snaps: readonly { t: number }[], fields: readonly string[]) {
  const problems: string[] = [];
  const step = (name: string) => {
    const v = params.get(name);
    if (v === null) return null;
    const k = snaps.findIndex((s) => String(s.t) === v);
    if (k < 0)
      problems.push(
        `${name}=${v}: no snapshot at that step` +
          (snaps.length ? ` (the steps are ${snaps.map((s) => s.t).join(', ')})` : ''),
      );
    return k < 0 ? null : k;
  };
  const asked = params.get('field');
  if (asked !== null && !fields.includes(asked))
    problems.push(`field=${asked}: not a field of these snapshots (${fields.join(', ') || 'none'})`);
  const sample = Number(params.get('sample'));
  return {
    field: asked !== null && fields.includes(asked) ? asked : 'energy',
    index: step('t'),
    diff: step('diff'),
    sqrt: params.get('scale') === 'sqrt',
    context: params.get('context'),
    sample: params.get('sample') !== null && Number.isInteger(sample) ? sample : null,
    problems,
  };
}
