import {
  forceCenter,
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from 'd3';

export interface GraphNode extends SimulationNodeDatum {
  id: string;
  degree: number;
}

export interface GraphLink extends SimulationLinkDatum<GraphNode> {
  index: number;
  w: number;
}

/**
 * A force layout of the capability graph, run to rest synchronously (d3-force's own seeded random
 * source, so the same graph always lands the same way) and fitted to width × height.
 */
export function layoutGraph(
  nodes: readonly string[],
  edges: readonly { src: string; dst: string; w: number }[],
  width: number,
  height: number,
  pad = 24,
) {
  const known = new Set(nodes);
  const degree = new Map<string, number>();
  for (const e of edges) {
    degree.set(e.src, (degree.get(e.src) ?? 0) + 1);
    degree.set(e.dst, (degree.get(e.dst) ?? 0) + 1);
  }
  const simNodes: GraphNode[] = nodes.map((id) => ({ id, degree: degree.get(id) ?? 0 }));
  const links: GraphLink[] = [];
  const unknown: { index: number; src: string; dst: string }[] = [];
  edges.forEach((e, index) => {
    if (known.has(e.src) && known.has(e.dst)) links.push({ source: e.src, target: e.dst, index, w: e.w });
    else unknown.push({ index, src: e.src, dst: e.dst });
  });
  const sim = forceSimulation(simNodes)
    .force(
      'link',
      forceLink<GraphNode, GraphLink>(links)
        .id((d) => d.id)
        .distance(60)
        .strength(0.08),
    )
    .force('charge', forceManyBody().strength(-160))
    .force('center', forceCenter(0, 0))
    .force('collide', forceCollide(14))
    .stop();
  for (let i = 0; i < 300; i++) sim.tick();
  const xs = simNodes.map((n) => n.x ?? 0);
  const ys = simNodes.map((n) => n.y ?? 0);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const k = Math.min((width - 2 * pad) / Math.max(1, x1 - x0), (height - 2 * pad) / Math.max(1, y1 - y0));
  const pos = new Map(
    simNodes.map((n) => [n.id, { x: pad + ((n.x ?? 0) - x0) * k, y: pad + ((n.y ?? 0) - y0) * k, degree: n.degree }]),
  );
  return {
    pos,
    links: links.map((l) => ({
      index: l.index,
      src: (l.source as GraphNode).id,
      dst: (l.target as GraphNode).id,
      w: l.w,
    })),
    unknown,
  };
}

export interface LabelSpot {
  x: number;
  y: number;
  anchor: 'start' | 'end' | 'middle';
}

/**
 * Where each node's label goes without covering another label or node, in screen space (after zoom): nodes in the
 * order given (the caller puts the most connected first) try right, left, above and below; a label that fits nowhere,
 * or only outside `bounds`, is left out (null) and shown on hover, focus, selection or a closer zoom. Widths are
 * estimated from the character count (`charW` px a character, `lineH` px tall), so the layout is the same on the
 * server and in any browser.
 */
export function placeLabels(
  nodes: readonly { id: string; x: number; y: number; r: number }[],
  opts: {
    charW?: number;
    lineH?: number;
    always?: ReadonlySet<string>;
    bounds?: { width: number; height: number };
  } = {},
): Map<string, LabelSpot | null> {
  const charW = opts.charW ?? 6.2;
  const lineH = opts.lineH ?? 12;
  type Box = [number, number, number, number];
  const taken: Box[] = nodes.map((n) => [n.x - n.r, n.y - n.r, n.x + n.r, n.y + n.r]);
  const out_ = opts.bounds;
  // A label that would leave the drawing (and be cut off) counts as covering something.
  const outside = (b: Box) => !!out_ && (b[0] < 0 || b[1] < 0 || b[2] > out_.width || b[3] > out_.height);
  const hits = (b: Box) => outside(b) || taken.some((t) => b[0] < t[2] && b[2] > t[0] && b[1] < t[3] && b[3] > t[1]);
  const out = new Map<string, LabelSpot | null>();
  const order = [...nodes].sort((a, b) => Number(opts.always?.has(b.id) ?? 0) - Number(opts.always?.has(a.id) ?? 0));
  for (const n of order) {
    const w = n.id.length * charW;
    const g = n.r + 3;
    const tries: [LabelSpot, Box][] = [
      [{ x: n.x + g, y: n.y + 4, anchor: 'start' }, [n.x + g, n.y - lineH / 2, n.x + g + w, n.y + lineH / 2]],
      [{ x: n.x - g, y: n.y + 4, anchor: 'end' }, [n.x - g - w, n.y - lineH / 2, n.x - g, n.y + lineH / 2]],
      [{ x: n.x, y: n.y - g - 2, anchor: 'middle' }, [n.x - w / 2, n.y - g - lineH, n.x + w / 2, n.y - g]],
      [{ x: n.x, y: n.y + g + lineH - 2, anchor: 'middle' }, [n.x - w / 2, n.y + g, n.x + w / 2, n.y + g + lineH]],
    ];
    const free = tries.find(([, b]) => !hits(b));
    // A label that must show (the cursor, the selection) may cover another, but never leaves the drawing.
    const pick = free ?? (opts.always?.has(n.id) ? tries.find(([, b]) => !outside(b)) : undefined);
    if (pick) taken.push(pick[1]);
    out.set(n.id, pick ? pick[0] : null);
  }
  return out;
}
