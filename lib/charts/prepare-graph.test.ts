import { describe, expect, it } from 'vitest';
import { layoutGraph } from './prepare-graph';

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
