import { describe, expect, it } from 'vitest';
import { layoutGraph, placeLabels } from './prepare-graph';

describe('layoutGraph', () => {
  const nodes = ['a', 'b', 'c', 'd'];
  const edges = [
    { src: 'a', dst: 'b', w: 0.5 },
    { src: 'b', dst: 'c', w: -0.2 },
    { src: 'c', dst: 'ghost', w: 0 },
  ];
  it('places every node inside the box, the same way every time', () => {
    const a = layoutGraph(nodes, edges, 400, 300);
    const b = layoutGraph(nodes, edges, 400, 300);
    expect([...a.pos.values()].every((p) => p.x >= 0 && p.x <= 400 && p.y >= 0 && p.y <= 300)).toBe(true);
    expect([...a.pos.entries()]).toEqual([...b.pos.entries()]);
  });
  it('keeps edge indexes and sets aside edges to unknown nodes', () => {
    const l = layoutGraph(nodes, edges, 400, 300);
    expect(l.links.map((x) => x.index)).toEqual([0, 1]);
    expect(l.unknown).toEqual([{ index: 2, src: 'c', dst: 'ghost' }]);
  });
});

const boxOf = (id: string, s: { x: number; y: number; anchor: string }) => {
  const w = id.length * 6.2;
  const x0 = s.anchor === 'start' ? s.x : s.anchor === 'end' ? s.x - w : s.x - w / 2;
  return [x0, s.y - 10, x0 + w, s.y + 2] as const;
};

describe('capability graph labels', () => {
  it('never overlap one another; a crowded label is left out, a forced one kept', () => {
    // 30 capabilities in a tight cluster: not every label fits.
    const nodes = Array.from({ length: 30 }, (_, i) => ({
      id: `capability_${i}`,
      x: 100 + (i % 6) * 20,
      y: 100 + Math.floor(i / 6) * 14,
      r: 4,
    }));
    const spots = placeLabels(nodes, { always: new Set(['capability_29']) });
    const placed = [...spots].filter((e): e is [string, NonNullable<(typeof e)[1]>] => e[1] !== null);
    expect(placed.length).toBeGreaterThan(3);
    expect(placed.length).toBeLessThan(30);
    expect(spots.get('capability_29')).not.toBeNull();
    const boxes = placed.filter(([id]) => id !== 'capability_29').map(([id, s]) => boxOf(id, s));
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        expect(a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1], `${i} overlaps ${j}`).toBe(false);
      }
    // A label that would be cut off at the edge goes to the other side.
    const edge = placeLabels([{ id: 'near_the_right_edge', x: 195, y: 50, r: 4 }], {
      bounds: { width: 200, height: 100 },
    });
    expect(edge.get('near_the_right_edge')).toMatchObject({ anchor: 'end' });
    // Even a label that must show does not leave the drawing: its node out of view, it is not drawn.
    const gone = placeLabels([{ id: 'far', x: 500, y: 50, r: 4 }], {
      bounds: { width: 200, height: 100 },
      always: new Set(['far']),
    });
    expect(gone.get('far')).toBeNull();
    // Spread out (as a zoom does), every label fits.
    const wide = nodes.map((n) => ({ ...n, x: n.x * 12, y: n.y * 4 }));
    expect([...placeLabels(wide).values()].every((s) => s !== null)).toBe(true);
  });
});
