'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { EmptyState, ErrorBox } from '@/components/ui/states';
import { useWidth } from '@/components/ui/use-width';
import { fieldDiff, fieldExtent, nodePositions } from '@/lib/ucs/field';
import { FIELD_DEFAULTS, stepField } from '@/lib/ucs/dynamics';
import { fmtInt } from '@/lib/format';
import { RoutingPanel } from './routing-panel';
import { ConsultSamples } from './consult-samples';
import { CapabilityGraph } from './capability-graph';
import { ArtifactsPanel, type ArtifactRow } from './artifacts-panel';
import { useSubstrate } from './store';
import type { EdgeParams } from '@/lib/ucs/routing';
import { TorusHeatmap } from './torus-heatmap';

/** Edge indexes of the artifacts of one kind (wormholes and resonances sit on edges). */
function edgesOf(artifacts: ArtifactRow[], kind: string): Set<number> {
  return new Set(
    artifacts
      .filter((a) => a.kind === kind && typeof a.payload.edge_index === 'number')
      .map((a) => a.payload.edge_index as number),
  );
}

/**
 * The field of one agent over its snapshots: a heatmap with a slider and player, or the difference of two snapshots.
 */
export function FieldPlayer({ agent }: { agent: string }) {
  const trpc = useTRPC();
  const meta = useQuery(trpc.substrate.snapshots.queryOptions({ agent }));
  const snaps = meta.data?.snapshots ?? [];
  const fields = snaps.at(-1)?.fields ?? [];
  const [field, setField] = useState('energy');
  const [index, setIndex] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [diffFrom, setDiffFrom] = useState<number | null>(null);
  const [sqrt, setSqrt] = useState(false);
  // Simulated steps forward from the shown snapshot (reset when the snapshot or field changes).
  const [sim, setSim] = useState<{ key: string; steps: number }>({ key: '', steps: 0 });
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
  const base = diffFrom !== null ? series.data?.[diffFrom] : undefined;
  const simKey = `${field}@${frame?.t}`;
  const simSteps = sim.key === simKey ? sim.steps : 0;
  const stepped = useMemo(
    () =>
      frame?.values && simSteps
        ? stepField(field, frame.values, frame.thetaBins, frame.phiBins, simSteps)
        : (frame?.values ?? null),
    [frame, field, simSteps],
  );
  const values = useMemo(
    () => (stepped ? (base?.values ? fieldDiff(base.values, stepped) : stepped) : null),
    [stepped, base],
  );
  // One colour scale for the whole series, so frames are comparable while playing.
  const domain = useMemo<[number, number]>(() => {
    if (diffFrom !== null && values) return fieldExtent(values);
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of series.data ?? []) {
      if (!s.values) continue;
      const [a, b] = fieldExtent(s.values);
      lo = Math.min(lo, a);
      hi = Math.max(hi, b);
    }
    return lo === Infinity ? [0, 1] : [lo, hi];
  }, [series.data, diffFrom, values]);
  const nodes = useMemo(
    () =>
      frame ? nodePositions(meta.data?.nodes ?? [], meta.data?.schedule ?? null, frame.thetaBins, frame.phiBins) : [],
    [frame, meta.data],
  );
  const snap = snaps[i];
  const routing = useQuery({
    ...trpc.substrate.routing.queryOptions({ agent, t: frame?.t ?? -1 }),
    enabled: !!frame,
    placeholderData: keepPreviousData,
  });
  const artifactsQ = useQuery(trpc.substrate.fieldArtifacts.queryOptions({ agent }));
  const graph = routing.data?.graph as { nodes?: string[]; edges?: EdgeParams[] } | null | undefined;
  const graphNodes = useMemo(() => graph?.nodes ?? [], [graph]);
  const graphEdges = useMemo(() => graph?.edges ?? [], [graph]);
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
  const cursor =
    snap?.cursor && typeof snap.cursor.theta === 'number' && typeof snap.cursor.phi === 'number'
      ? { theta: snap.cursor.theta, phi: snap.cursor.phi, node: snap.cursor.node }
      : null;

  if (meta.error) return <ErrorBox error={meta.error} />;
  return (
    <>
      <div className="crumbs">
        <Link href="/substrate">Substrate</Link> / <span className="mono">{agent}</span>
      </div>
      <div className="page-head">
        <div>
          <h1>Torus field of {agent}</h1>
          <div className="sub">
            {snaps.length
              ? `${fmtInt(snaps.length)} snapshots, steps t ${fmtInt(snaps[0]!.t)}–${fmtInt(snaps.at(-1)!.t)} · ` +
                `${snaps.at(-1)!.thetaBins}×${snaps.at(-1)!.phiBins} bins · ` +
                `${fmtInt(meta.data?.nodes.length ?? 0)} capabilities`
              : 'Loading…'}
          </div>
        </div>
        <div className="toolbar">
          <Link className="btn" href={`/substrate/${encodeURIComponent(agent)}/judgment`}>
            Judgment
          </Link>
          <Link className="btn" href={`/substrate/${encodeURIComponent(agent)}/dead-ends`}>
            Dead ends
          </Link>
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
      <div className="panel player" data-testid="field-player">
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
            style={{ flex: 1 }}
          />
          <span className="turn-readout" data-testid="snapshot-readout">
            step <b>{frame?.t ?? '—'}</b>{' '}
            <span className="faint">
              ({i + 1} of {n})
            </span>
          </span>
          {cursor?.node ? <span className="badge accent">cursor: {cursor.node}</span> : null}
          <span
            className="toolbar"
            title={
              `Diffusion α_θ ${FIELD_DEFAULTS.thetaMix}, α_φ ${FIELD_DEFAULTS.phiMix}; ` +
              `decay λ ${FIELD_DEFAULTS.decay}; context energy is not decayed`
            }
          >
            <button
              type="button"
              className="btn"
              onClick={() => setSim({ key: simKey, steps: simSteps + 1 })}
              data-testid="simulate-1"
            >
              step +1
            </button>
            <button type="button" className="btn" onClick={() => setSim({ key: simKey, steps: simSteps + 25 })}>
              +25
            </button>
            {simSteps ? (
              <>
                <span className="badge warn" data-testid="simulated">
                  simulated +{simSteps} from t {frame?.t}
                </span>
                <button type="button" className="link-btn" onClick={() => setSim({ key: '', steps: 0 })}>
                  back to stored
                </button>
              </>
            ) : null}
          </span>
        </div>
      </div>
      <div className="panel panel-body" ref={ref}>
        {series.error ? <ErrorBox error={series.error} /> : null}
        {frame && !frame.values ? <EmptyState title={`This snapshot has no “${field}” field`} /> : null}
        {frame && values ? (
          <TorusHeatmap
            thetaBins={frame.thetaBins}
            phiBins={frame.phiBins}
            values={values}
            domain={domain}
            diverging={diffFrom !== null}
            fieldName={field}
            nodes={nodes}
            cursor={cursor}
            highlight={highlight}
            sqrt={sqrt}
            width={Math.min(width, 1100)}
          />
        ) : !series.error ? (
          <div className="skeleton" style={{ height: 300 }} />
        ) : null}
      </div>
      <div className="substrate-row">
        <div className="panel">
          <div className="panel-head">
            Capability graph{' '}
            <span className="faint">
              {graphNodes.length} capabilities · {graphEdges.length} edges · at step {frame?.t ?? '—'}
            </span>
          </div>
          <div className="panel-body">
            {graphNodes.length ? (
              <CapabilityGraph
                nodes={graphNodes}
                edges={graphEdges}
                cursor={cursor?.node ?? null}
                bias={
                  ((routing.data?.policy as { edge_bias?: Record<string, number> } | null)?.edge_bias ?? {}) as Record<
                    string,
                    number
                  >
                }
                wormholes={wormholes}
                resonances={resonances}
                attractors={attractors}
              />
            ) : (
              <div className="skeleton" style={{ height: 300 }} />
            )}
          </div>
        </div>
        <ArtifactsPanel artifacts={artifacts} edges={graphEdges} />
      </div>
      {frame ? <RoutingPanel agent={agent} t={frame.t} /> : null}
      <ConsultSamples agent={agent} />
    </>
  );
}
