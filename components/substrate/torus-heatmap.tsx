'use client';

import { format } from 'd3';
import { colourTable, drawField } from './draw-field';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { NodePosition } from '@/lib/ucs/field';

const fmt = format('.4~g');
/** The inspected cell's value: as stored, to float precision, not rounded for a legend. */
const exact = (v: number) => String(Number(v.toPrecision(9)));
const mod = (a: number, n: number) => ((a % n) + n) % n;

interface Props {
  thetaBins: number;
  phiBins: number;
  values: readonly number[];
  domain: [number, number];
  /** Difference mode: which state less which, for the legend ("energy(t 605, simulated) − energy(t 201)"); the scale
   * diverges from 0. Null: the field itself. */
  difference: string | null;
  fieldName: string;
  nodes: NodePosition[];
  cursor: { theta: number; phi: number; node?: string } | null;
  width: number;
  sqrt: boolean;
  /** Capabilities to ring (the selected artifact's). */
  highlight?: string[];
  /** What the colour scale spans, when not this grid alone ("all 21 snapshots"). */
  scaleOver?: string;
}

/**
 * The field over θ (rows) × φ (columns) on a canvas, one pixel a cell scaled up without smoothing.
 * Drag to pan around the torus: the grid wraps, so neighbours across the seam sit side by side; the
 * dashed lines mark where θ = 0 and φ = 0 are.
 */
export function TorusHeatmap({
  thetaBins,
  phiBins,
  values,
  domain,
  difference,
  fieldName,
  nodes,
  cursor,
  scaleOver,
  width,
  sqrt,
  highlight = [],
}: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const keysId = useId();
  const [offset, setOffset] = useState({ theta: 0, phi: 0 });
  const [pointer, setPointer] = useState<{ theta: number; phi: number; x: number; y: number } | null>(null);
  // The cell the keyboard inspects (arrows), while the map has focus: the same tooltip as the pointer's.
  const [keyCell, setKeyCell] = useState<{ theta: number; phi: number } | null>(null);
  const drag = useRef<{ x: number; y: number; theta: number; phi: number } | null>(null);
  // Fits the width, and keeps the whole torus on screen.
  const cell = Math.max(2, Math.min(Math.floor(width / phiBins), Math.floor(620 / thetaBins)));
  const W = cell * phiBins;
  const H = cell * thetaBins;
  const diverging = difference !== null;
  const colours = useMemo(() => colourTable(diverging), [diverging]);

  // Drawing is imperative: one effect, redrawn when the data, scale or pan change.
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    drawField(c, { thetaBins, phiBins, values, domain, diverging, sqrt, colours, offset, width: W, height: H });
  }, [values, colours, domain, diverging, sqrt, thetaBins, phiBins, offset, W, H]);

  const at = (e: React.PointerEvent) => {
    const r = e.currentTarget.getBoundingClientRect();
    const col = Math.floor((e.clientX - r.left) / cell);
    const row = Math.floor((e.clientY - r.top) / cell);
    return {
      theta: mod(row + offset.theta, thetaBins),
      phi: mod(col + offset.phi, phiBins),
      x: e.clientX - r.left,
      y: e.clientY - r.top,
    };
  };
  const place = (theta: number, phi: number) => ({
    x: (mod(phi - offset.phi, phiBins) + 0.5) * cell,
    y: (mod(theta - offset.theta, thetaBins) + 0.5) * cell,
  });
  const nodeAt = (theta: number, phi: number) =>
    nodes.filter((n) => n.theta === theta && n.phi === phi).map((n) => n.name);
  const hover =
    pointer ??
    (keyCell ? { ...keyCell, x: place(keyCell.theta, keyCell.phi).x, y: place(keyCell.theta, keyCell.phi).y } : null);
  const describe = (c: { theta: number; phi: number }) =>
    [
      `θ ${c.theta} · φ ${c.phi}`,
      `${fieldName} ${fmt(values[c.theta * phiBins + c.phi]!)}`,
      ...nodeAt(c.theta, c.phi),
    ].join(', ');
  // Arrows move the inspected cell, Shift+arrows pan the torus a cell, Home recentres, Escape stops inspecting.
  const onKeyDown = (e: React.KeyboardEvent) => {
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (step) {
      e.preventDefault();
      if (e.shiftKey)
        setOffset((o) => ({ theta: mod(o.theta + step[0]!, thetaBins), phi: mod(o.phi + step[1]!, phiBins) }));
      else
        setKeyCell((k) => {
          const from = k ?? { theta: cursor?.theta ?? 0, phi: cursor?.phi ?? 0 };
          return { theta: mod(from.theta + step[0]!, thetaBins), phi: mod(from.phi + step[1]!, phiBins) };
        });
    } else if (e.key === 'Home') {
      e.preventDefault();
      setOffset({ theta: 0, phi: 0 });
    } else if (e.key === 'Escape' && keyCell) {
      e.stopPropagation();
      setKeyCell(null);
    }
  };
  const seamX = mod(-offset.phi, phiBins) * cell;
  const seamY = mod(-offset.theta, thetaBins) * cell;

  return (
    <div className="heatmap" style={{ width: W }} data-testid="heatmap">
      <span id={keysId} className="sr-only">
        Arrow keys move the inspected cell, Shift with an arrow pans the torus by a cell, Home recentres.
      </span>
      <span className="sr-only" aria-live="polite" data-testid="heatmap-announce">
        {keyCell && !pointer ? describe(keyCell) : ''}
      </span>
      <div
        className="heatmap-stage"
        style={{ width: W, height: H }}
        tabIndex={0}
        role="application"
        aria-roledescription="field map"
        aria-label={`${fieldName} over the torus, ${thetaBins} θ by ${phiBins} φ cells`}
        aria-describedby={keysId}
        data-testid="heatmap-stage"
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          // Reached by keyboard (not a click to drag): inspection starts at the cursor's cell.
          if (e.currentTarget.matches(':focus-visible'))
            setKeyCell((k) => k ?? (cursor ? { theta: cursor.theta, phi: cursor.phi } : { theta: 0, phi: 0 }));
        }}
        onBlur={() => setKeyCell(null)}
        onPointerDown={(e) => {
          drag.current = { x: e.clientX, y: e.clientY, ...offset };
          e.currentTarget.setPointerCapture(e.pointerId);
        }}
        onPointerUp={() => (drag.current = null)}
        onPointerLeave={() => setPointer(null)}
        onPointerMove={(e) => {
          if (drag.current) {
            const d = drag.current;
            setOffset({
              theta: mod(d.theta - Math.round((e.clientY - d.y) / cell), thetaBins),
              phi: mod(d.phi - Math.round((e.clientX - d.x) / cell), phiBins),
            });
          }
          setPointer(at(e));
        }}
      >
        <canvas ref={canvas} style={{ width: W, height: H, display: 'block' }} aria-hidden />
        <svg width={W} height={H} className="heatmap-overlay">
          <line x1={seamX} x2={seamX} y1={0} y2={H} className="seam" />
          <line x1={0} x2={W} y1={seamY} y2={seamY} className="seam" />
          {nodes.map((n) => {
            const p = place(n.theta, n.phi);
            return <circle key={n.name} cx={p.x} cy={p.y} r={Math.max(2, cell * 0.22)} className="node-dot" />;
          })}
          {cursor
            ? (() => {
                const p = place(cursor.theta, cursor.phi);
                return <circle cx={p.x} cy={p.y} r={cell * 0.55} className="cursor-ring" data-testid="cursor-ring" />;
              })()
            : null}
          {nodes
            .filter((n) => highlight.includes(n.name))
            .map((n) => {
              const p = place(n.theta, n.phi);
              return (
                <circle
                  key={`h-${n.name}`}
                  cx={p.x}
                  cy={p.y}
                  r={cell * 0.6}
                  className="select-ring"
                  data-testid="heatmap-highlight"
                />
              );
            })}
          {hover ? (
            <rect
              x={place(hover.theta, hover.phi).x - cell / 2}
              y={place(hover.theta, hover.phi).y - cell / 2}
              width={cell}
              height={cell}
              className="hover-cell"
            />
          ) : null}
        </svg>
        {hover ? (
          <div
            className="heatmap-tip"
            style={{ left: Math.min(hover.x + 12, W - 180), top: hover.y + 12 }}
            data-testid="heatmap-tooltip"
          >
            <div className="mono">
              θ {hover.theta} · φ {hover.phi}
            </div>
            <div>
              {fieldName} <b data-testid="cell-value">{exact(values[hover.theta * phiBins + hover.phi]!)}</b>
            </div>
            {nodeAt(hover.theta, hover.phi).map((name) => (
              <div key={name} className="mono faint">
                {name}
                {cursor?.node === name ? ' (cursor)' : ''}
              </div>
            ))}
          </div>
        ) : null}
      </div>
      <div className="heatmap-legend">
        <span className="mono">{fmt(diverging ? -Math.max(Math.abs(domain[0]), Math.abs(domain[1])) : domain[0])}</span>
        <span
          className="legend-bar"
          style={{
            background: diverging
              ? 'linear-gradient(90deg, rgb(5,48,97), rgb(247,247,247), rgb(103,0,31))'
              : 'linear-gradient(90deg, #000004, #57106e, #bc3754, #f98e09, #fcffa4)',
          }}
        />
        <span className="mono">{fmt(diverging ? Math.max(Math.abs(domain[0]), Math.abs(domain[1])) : domain[1])}</span>
        <span className="faint">
          {difference ?? fieldName}
          {sqrt ? ' (square-root scale)' : ''}
          {scaleOver ? <span data-testid="scale-over">, scale over {scaleOver}</span> : null} · drag (or Shift+arrows)
          to pan around the torus
        </span>
        {domain[0] === domain[1] ? (
          // A field with one value everywhere draws one colour: said, so that an empty field is not read as a fault.
          <span className="badge" data-testid="flat-field">
            every cell {fmt(domain[0])}
            {scaleOver ? ` in ${scaleOver}` : ''}
          </span>
        ) : null}
        {offset.theta || offset.phi ? (
          <button type="button" className="link-btn" onClick={() => setOffset({ theta: 0, phi: 0 })}>
            recentre
          </button>
        ) : null}
      </div>
    </div>
  );
}
