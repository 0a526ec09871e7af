'use client';

import { interpolateRdBu, select, zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import { useEffect, useMemo, useRef, useState } from 'react';
import { layoutGraph, placeLabels } from '@/lib/charts/prepare-graph';
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

/** Edges listed a direction for a chosen capability, the heaviest first, until the reviewer asks for all. */
const EDGES_SHOWN = 12;

/** A capability named in an edge's detail: goes to it. */
function NodeButton({ id, go }: { id: string; go: (c: { node: string }) => void }) {
  return (
    <button type="button" className="btn btn-small mono" onClick={() => go({ node: id })}>
      {id}
    </button>
  );
}

/**
 * The capability graph: edge colour and width by the learned weight w, wormholes and attractors highlighted, the cursor
 * ringed. Click for details.
 */
export function CapabilityGraph({ nodes, edges, cursor, bias, wormholes, resonances, attractors }: Props) {
  const [ref, width] = useWidth<HTMLDivElement>(560);
  const { edgeIndex, node, select: choose } = useSubstrate();
  const layout = useMemo(() => layoutGraph(nodes, edges, width, H), [nodes, edges, width]);
  const maxW = Math.max(0.01, ...edges.map((e) => Math.abs(e.w)));
  const sel = edgeIndex !== null ? edges[edgeIndex] : null;
  // Chosen by keyboard: focus goes on to the detail's first button (the edges of a capability, the ends of an edge),
  // which sits after the whole graph in the tab order.
  const detailRef = useRef<HTMLDivElement>(null);
  const focusDetail = useRef(false);
  const chooseByKey = (c: { node: string } | { edgeIndex: number }) => {
    focusDetail.current = true;
    choose(c);
  };
  useEffect(() => {
    if (!focusDetail.current) return;
    focusDetail.current = false;
    detailRef.current?.querySelector<HTMLElement>('button')?.focus();
  }, [node, edgeIndex]);
  const [allEdges, setAllEdges] = useState(false);
  // Zoom and pan (Ctrl + wheel, drag, the buttons): positions scale, node sizes and labels do not.
  const svgRef = useRef<SVGSVGElement>(null);
  const zoomRef = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const [t, setT] = useState<ZoomTransform>(zoomIdentity);
  useEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const z = zoom<SVGSVGElement, unknown>()
      .scaleExtent([0.5, 8])
      // The wheel scrolls the page unless Ctrl or ⌘ is held (a trackpad pinch sends Ctrl): the graph does not take
      // the page's scrolling. Drag pans with the primary button, as d3's default.
      .filter((e: MouseEvent | WheelEvent) =>
        e.type === 'wheel' ? e.ctrlKey || e.metaKey : !e.ctrlKey && !(e as MouseEvent).button,
      )
      .on('zoom', (e: { transform: ZoomTransform }) => setT(e.transform));
    zoomRef.current = z;
    select(el).call(z).on('dblclick.zoom', null);
    return () => void select(el).on('.zoom', null);
  }, []);
  // Another agent's graph starts unzoomed.
  useEffect(() => {
    if (svgRef.current && zoomRef.current) zoomRef.current.transform(select(svgRef.current), zoomIdentity);
  }, [nodes, edges]);
  const zoomBy = (k: number | null) => {
    if (!svgRef.current || !zoomRef.current) return;
    const s = select(svgRef.current);
    if (k === null) zoomRef.current.transform(s, zoomIdentity);
    else zoomRef.current.scaleBy(s, k);
  };
  const at = (id: string) => {
    const p = layout.pos.get(id)!;
    return { x: t.applyX(p.x), y: t.applyY(p.y), degree: p.degree };
  };
  const radius = (degree: number) => 4 + Math.sqrt(degree);
  // Labels that fit without covering one another, the most connected first; the cursor, the selection and the
  // neighbours of a selected capability always; the rest on hover or focus, or when zoomed in.
  const [hover, setHover] = useState<string | null>(null);
  // One tab stop for the whole graph (the capability focused last, else the chosen one, else the first): arrow keys
  // move between capabilities in the list's order, Home and End to its ends; Enter or Space chooses.
  const [roving, setRoving] = useState<string | null>(null);
  const tabStop =
    roving !== null && nodes.includes(roving) ? roving : node !== null && nodes.includes(node) ? node : nodes[0];
  const nodeEls = useRef(new Map<string, SVGGElement>());
  const moveFocus = (from: string, key: string) => {
    const at = nodes.indexOf(from);
    const to =
      key === 'Home'
        ? 0
        : key === 'End'
          ? nodes.length - 1
          : key === 'ArrowRight' || key === 'ArrowDown'
            ? Math.min(nodes.length - 1, at + 1)
            : Math.max(0, at - 1);
    const next = nodes[to]!;
    setRoving(next);
    nodeEls.current.get(next)?.focus();
  };
  const labels = useMemo(() => {
    const must = new Set([cursor, node, hover, sel?.src, sel?.dst].filter((x): x is string => !!x));
    if (node) for (const e of edges) if (e.src === node || e.dst === node) must.add(e.src === node ? e.dst : e.src);
    const placed = [...nodes]
      .sort((a, b) => (layout.pos.get(b)?.degree ?? 0) - (layout.pos.get(a)?.degree ?? 0))
      .map((id) => {
        const p = layout.pos.get(id)!;
        return { id, x: t.applyX(p.x), y: t.applyY(p.y), r: radius(p.degree) };
      });
    return placeLabels(placed, { charW: 5.8, lineH: 11, always: must, bounds: { width, height: H } });
  }, [nodes, edges, layout, t, cursor, node, hover, sel, width]);
  const hidden = [...labels.values()].filter((v) => v === null).length;
  return (
    <div ref={ref} data-testid="graph">
      <div className="toolbar" style={{ marginBottom: 6 }}>
        <button type="button" className="btn btn-small" onClick={() => zoomBy(1.5)} aria-label="Zoom in">
          +
        </button>
        <button type="button" className="btn btn-small" onClick={() => zoomBy(1 / 1.5)} aria-label="Zoom out">
          −
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => zoomBy(null)}
          disabled={t.k === 1 && !t.x && !t.y}
        >
          Reset
        </button>
        <span className="faint" data-testid="graph-zoom">
          {Math.round(t.k * 100)}% · Ctrl + wheel (or pinch) to zoom, drag to pan
          {hidden ? ` · ${hidden} labels hidden to avoid overlap (hover, focus or zoom in)` : ''}
        </span>
      </div>
      <svg
        ref={svgRef}
        width={width}
        height={H}
        className="graph"
        aria-label="Capability graph: arrow keys move between capabilities, Enter chooses one"
        role="group"
      >
        {layout.links.map((l) => {
          const a = at(l.src);
          const b = at(l.dst);
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
              onClick={() => choose({ edgeIndex: l.index })}
            />
          );
        })}
        {nodes.map((n) => {
          const p = at(n);
          const r = radius(p.degree);
          const label = labels.get(n);
          return (
            <g
              key={n}
              transform={`translate(${p.x},${p.y})`}
              onClick={() => choose({ node: n })}
              onMouseEnter={() => setHover(n)}
              onMouseLeave={() => setHover((h) => (h === n ? null : h))}
              onFocus={() => {
                setHover(n);
                setRoving(n);
              }}
              onBlur={() => setHover((h) => (h === n ? null : h))}
              onKeyDown={(e) => {
                if (['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp', 'Home', 'End'].includes(e.key)) {
                  e.preventDefault();
                  moveFocus(n, e.key);
                  return;
                }
                if (e.key !== 'Enter' && e.key !== ' ') return;
                e.preventDefault();
                chooseByKey({ node: n });
              }}
              ref={(el) => {
                if (el) nodeEls.current.set(n, el);
                else nodeEls.current.delete(n);
              }}
              className="graph-node"
              data-node={n}
              tabIndex={n === tabStop ? 0 : -1}
              role="button"
              aria-label={`capability ${n}`}
              aria-pressed={node === n}
            >
              {cursor === n ? <circle r={r + 5} className="cursor-ring" /> : null}
              {attractors.has(n) ? <circle r={r + 3} className="attractor-ring" /> : null}
              <circle r={r} className={node === n || sel?.src === n || sel?.dst === n ? 'node-on' : 'node-off'} />
              {label ? (
                <text x={label.x - p.x} y={label.y - p.y} textAnchor={label.anchor} className="graph-label">
                  {n}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {sel && edgeIndex !== null ? (
        <div className="graph-detail" data-testid="edge-detail" ref={detailRef}>
          <b className="mono">
            <NodeButton id={sel.src} go={chooseByKey} /> → <NodeButton id={sel.dst} go={chooseByKey} />
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
        <div className="graph-detail" data-testid="node-detail" ref={detailRef}>
          <b className="mono">{node}</b> {cursor === node ? <span className="badge accent">cursor</span> : null}{' '}
          {attractors.has(node) ? <span className="badge warn">attractor</span> : null}
          {(['out', 'in'] as const).map((dir) => {
            const list = edges
              .map((e, k) => ({ e, k }))
              .filter(({ e }) => (dir === 'out' ? e.src : e.dst) === node)
              .sort((a, b) => b.e.w - a.e.w);
            const shown = allEdges ? list : list.slice(0, EDGES_SHOWN);
            return (
              <div
                key={dir}
                className="toolbar"
                style={{ flexWrap: 'wrap', marginTop: 4 }}
                data-testid={dir === 'out' ? 'node-edges' : 'node-edges-in'}
                role="group"
                aria-label={`${dir === 'out' ? 'Outgoing' : 'Incoming'} edges of ${node}, by weight`}
              >
                <span className="faint">
                  {list.length} {dir === 'out' ? 'outgoing' : 'incoming'}
                  {shown.length < list.length ? ` (${shown.length} heaviest shown)` : ''}
                </span>
                {shown.map(({ e, k }) => (
                  <button
                    key={k}
                    type="button"
                    className="btn btn-small mono"
                    onClick={() => choose({ edgeIndex: k })}
                    onKeyDown={(ev) => {
                      // Enter on a button clicks it; by keyboard, focus follows into the edge's detail.
                      if (ev.key === 'Enter' || ev.key === ' ') focusDetail.current = true;
                    }}
                  >
                    {dir === 'out' ? `→ ${e.dst}` : `${e.src} →`} <span className="faint">w {e.w.toFixed(2)}</span>
                  </button>
                ))}
              </div>
            );
          })}
          {!allEdges &&
          (edges.filter((e) => e.src === node).length > EDGES_SHOWN ||
            edges.filter((e) => e.dst === node).length > EDGES_SHOWN) ? (
            <button type="button" className="btn btn-small" onClick={() => setAllEdges(true)}>
              Show every edge
            </button>
          ) : null}
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
