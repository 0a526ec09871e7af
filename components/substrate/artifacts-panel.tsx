'use client';

import type { EdgeParams } from '@/lib/ucs/routing';
import { useCallback, useEffect } from 'react';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { useFocus } from '@/components/ui/use-focus';
import type { RouterOutputs } from '@/components/trpc/outputs';
import { artifactStaleness, REFERENCE_RULES } from '@/lib/ucs/reference';
import { useSubstrate } from './store';

/** A wormhole, attractor or resonance with its annotation. */
export type ArtifactRow = RouterOutputs['substrate']['fieldArtifacts'][number];

const KNOWN = new Set(['wormhole', 'attractor', 'resonance']);

/** Where an artifact lives in the graph: a wormhole's edge, an attractor's node. */
export function artifactTarget(
  a: ArtifactRow,
  edges: EdgeParams[],
): { edgeIndex?: number; node?: string; label: string } {
  const ei = typeof a.payload.edge_index === 'number' ? a.payload.edge_index : undefined;
  if (ei !== undefined) {
    const e = edges[ei];
    return { edgeIndex: ei, label: e ? `${e.src} → ${e.dst}` : `edge ${ei} (not in this graph)` };
  }
  if (typeof a.payload.node === 'string') return { node: a.payload.node, label: a.payload.node };
  return { label: JSON.stringify(a.payload) };
}

/**
 * Wormholes, attractors and resonances with their payloads, scores and annotations; click one to locate it on the graph
 * and the field.
 */
export function ArtifactsPanel({
  artifacts,
  edges,
  latestT,
}: {
  artifacts: ArtifactRow[];
  edges: EdgeParams[];
  /** The latest stored step: staleness is measured from it, as the bridge's status does. */
  latestT: number | null;
}) {
  const { artifactId, select } = useSubstrate();
  const show = useCallback(
    (a: ArtifactRow) => {
      const t = artifactTarget(a, edges);
      select({ artifactId: a.id, edgeIndex: t.edgeIndex ?? null, node: t.node ?? null });
    },
    [edges, select],
  );
  const toggle = (a: ArtifactRow) => (artifactId === a.id ? select({}) : show(a));
  // A link to one artifact (recall's reflections) selects it, as a click would.
  const focus = useFocus(artifacts.length > 0);
  useEffect(() => {
    const a = focus ? artifacts.find((x) => x.id === focus) : undefined;
    if (a) show(a);
  }, [focus, artifacts, show]);
  const unannotated = artifacts.filter((a) => !a.annotation).length;
  const staleness = (a: ArtifactRow) => (latestT === null ? null : artifactStaleness(a, latestT));
  const stale = artifacts.filter((a) => staleness(a)?.stale).length;
  return (
    <Panel
      as="div"
      testId="artifacts"
      body={false}
      title="Artifacts"
      actions={
        <span className="muted" data-testid="artifacts-counts">
          {artifacts.length} · {unannotated} unannotated · {stale} stale
        </span>
      }
    >
      <DataTable
        compact
        headless
        rows={artifacts}
        rowKey={(a) => a.id}
        rowProps={(a) => ({
          // A click anywhere on the row; by keyboard (and to a screen reader) its artifact is a toggle button.
          className: `clickable ${artifactId === a.id ? 'row-on' : ''}`,
          onClick: () => toggle(a),
          'data-artifact': a.id,
          'data-focus-id': a.id,
        })}
        columns={[
          {
            id: 'kind',
            header: 'Kind',
            width: 1,
            cell: (a) => (
              <>
                <span className={`badge ${a.kind === 'wormhole' ? 'warn' : a.kind === 'attractor' ? 'accent' : ''}`}>
                  {a.kind}
                </span>
                {!KNOWN.has(a.kind) ? <div className="faint">unknown kind</div> : null}
              </>
            ),
          },
          {
            id: 'artifact',
            header: 'Artifact',
            cell: (a) => (
              <>
                <button
                  type="button"
                  className="link-btn mono"
                  aria-pressed={artifactId === a.id}
                  title="Show it on the graph and the field"
                  onClick={(e) => {
                    // The row's click would toggle it back.
                    e.stopPropagation();
                    toggle(a);
                  }}
                >
                  {artifactTarget(a, edges).label}
                </button>
                <div className="cell-sub">
                  {a.id} · score {a.score?.toFixed(3) ?? '—'} · since t {a.createdT ?? '—'}
                  {staleLine(staleness(a))}
                  {typeof a.payload.hits === 'number'
                    ? ` · ${a.payload.hits} hits, mean net ${Number(a.payload.mean_net).toFixed(3)}`
                    : ''}
                  {typeof a.payload.visits === 'number'
                    ? ` · ${a.payload.visits} visits (${(100 * Number(a.payload.frequency)).toFixed(1)}%)`
                    : ''}
                </div>
                {a.annotation ? (
                  <div className="annotation">
                    <MemoryText text={String(a.annotation.text ?? '')} />
                    {a.annotation.failure_condition ? (
                      <div className="faint">
                        <Labelled label="fails when" text={String(a.annotation.failure_condition)} />
                      </div>
                    ) : null}
                    {a.annotation.generalized_pattern ? (
                      <div className="faint">
                        <Labelled label="pattern" text={String(a.annotation.generalized_pattern)} />
                      </div>
                    ) : null}
                  </div>
                ) : (
                  <span className="badge danger">unannotated</span>
                )}
              </>
            ),
          },
        ]}
      />
    </Panel>
  );
}

const STALE_MEANS = "the bridge's status counts it stale, a candidate for pruning";

/**
 * When it was last detected, and "stale" as the bridge's status counts it. Without a stored later detection the
 * bridge counts from creation (its saved state keeps none, even for an artifact it detected again): said so.
 */
function staleLine(s: ReturnType<typeof artifactStaleness>) {
  if (!s) return null;
  return (
    <>
      {s.recorded ? ` · last detected t ${s.lastDetectedT}` : ' · no later detection stored'}
      {s.stale ? (
        <>
          {' '}
          <span
            className="badge warn"
            data-testid="stale"
            title={
              `${s.recorded ? 'Not detected' : 'No detection stored since creation'} for ${s.age} steps ` +
              `(over ${REFERENCE_RULES.staleAfterSteps}): ${STALE_MEANS}`
            }
          >
            stale · {s.age} steps
          </span>
        </>
      ) : null}
    </>
  );
}

/** "label: text", unless the agent's text already begins with the label ("fails when upstream data is stale"). */
function Labelled({ label, text }: { label: string; text: string }) {
  if (text.trim().toLowerCase().startsWith(label)) return <MemoryText text={text} />;
  return (
    <>
      {label}: <MemoryText text={text} />
    </>
  );
}
