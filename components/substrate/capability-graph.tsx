'use client';

import { interpolateRdBu } from 'd3';
import { useMemo } from 'react';
import { layoutGraph } from '@/lib/charts/prepare-graph';
import type { EdgeParams } from '@/lib/ucs/routing';
import { useSubstrate } from './store';
import { useWidth } from '@/components/ui/use-width';

const H = 460;

interface Props {
  nodes: string[];
  edges: EdgeParams[];
  cursor: string | null;
  bias: Record<string, number>;
  /** Edge indexes of wormholes and resonances, nodes of attractors. */
  wormholes: Set<number>;
  resonances: Set<number>;
  attractors: Set<string>;
}

/**
 * The capability graph: edge colour and width by the learned weight w, wormholes and attractors highlighted, the cursor
 * ringed. Click for details.
 */
export function CapabilityGraph({ nodes, edges, cursor, bias, wormholes, resonances, attractors }: Props) {
  const [ref, width] = useWidth<HTMLDivElement>(560);
  const { edgeIndex, node, select } = useSubstrate();
  const layout = useMemo(() => layoutGraph(nodes, edges, width, H), [nodes, edges, width]);
  const maxW = Math.max(0.01, ...edges.map((e) => Math.abs(e.w)));
  const sel = edgeIndex !== null ? edges[edgeIndex] : null;
  return (
    <div ref={ref} data-testid="graph">
      <svg width={width} height={H} className="graph">
        {layout.links.map((l) => {
          const a = layout.pos.get(l.src)!;
          const b = layout.pos.get(l.dst)!;
          const worm = wormholes.has(l.index);
          const reso = resonances.has(l.index);
          const active = edgeIndex === l.index || (node !== null && (l.src === node || l.dst === node));
          return (
            <line
              key={l.index}
              x1={a.x}
              y1={a.y}
              x2={b.x}
              y2={b.y}
              stroke={worm ? 'var(--warn)' : reso ? 'var(--series-4)' : interpolateRdBu(0.5 - (0.5 * l.w) / maxW)}
              strokeWidth={worm || reso ? 3.5 : 0.6 + (2.4 * Math.abs(l.w)) / maxW}
              strokeDasharray={reso ? '6 3' : undefined}
              strokeOpacity={active ? 1 : edgeIndex !== null || node !== null ? 0.12 : worm ? 0.95 : 0.45}
              className="graph-edge"
              data-edge={l.index}
              data-wormhole={worm ? '1' : undefined}
              onClick={() => select({ edgeIndex: l.index })}
            />
          );
        })}
        {nodes.map((n) => {
          const p = layout.pos.get(n)!;
          const r = 4 + Math.sqrt(p.degree);
          return (
            <g
              key={n}
              transform={`translate(${p.x},${p.y})`}
              onClick={() => select({ node: n })}
              className="graph-node"
              data-node={n}
            >
              {cursor === n ? <circle r={r + 5} className="cursor-ring" /> : null}
              {attractors.has(n) ? <circle r={r + 3} className="attractor-ring" /> : null}
              <circle r={r} className={node === n || sel?.src === n || sel?.dst === n ? 'node-on' : 'node-off'} />
              <text x={r + 3} y={3} className="graph-label">
                {n}
              </text>
            </g>
          );
        })}
      </svg>
      {sel && edgeIndex !== null ? (
        <div className="graph-detail" data-testid="edge-detail">
          <b className="mono">
            {sel.src} → {sel.dst}
          </b>{' '}
          <span className="faint">edge {edgeIndex}</span>
          {wormholes.has(edgeIndex) ? <span className="badge warn">wormhole</span> : null}
          {resonances.has(edgeIndex) ? <span className="badge">resonance</span> : null}
          <div className="mono">
            u {sel.u.toFixed(3)} · c {sel.c.toFixed(3)} · n {sel.n.toFixed(3)} · w {sel.w.toFixed(4)} · bias{' '}
            {(bias[String(edgeIndex)] ?? 0).toFixed(3)}
          </div>
        </div>
      ) : node ? (
        <div className="graph-detail" data-testid="node-detail">
          <b className="mono">{node}</b> {cursor === node ? <span className="badge accent">cursor</span> : null}{' '}
          {attractors.has(node) ? <span className="badge warn">attractor</span> : null}
          <div className="faint">
            {edges.filter((e) => e.src === node).length} outgoing · {edges.filter((e) => e.dst === node).length}{' '}
            incoming edges
          </div>
        </div>
      ) : (
        <div className="graph-detail faint">
          Click an edge or a capability for its parameters. Orange edges are wormholes, dashed pink ones resonances;
          ringed nodes attractors; the cyan ring is the cursor. Edge colour: learned weight w (red positive, blue
          negative).
        </div>
      )}
      {layout.unknown.length ? (
        <div className="error-box" role="alert" style={{ marginTop: 8 }}>
          {layout.unknown.length} edge(s) point at capabilities the graph does not list:{' '}
          {layout.unknown
            .slice(0, 5)
            .map((u) => `${u.src} → ${u.dst}`)
            .join(', ')}
        </div>
      ) : null}
    </div>
  );
}
