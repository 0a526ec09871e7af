import { area, line, scaleLinear } from 'd3';

export interface Band {
  key: string;
  mean: ArrayLike<number>;
  std?: ArrayLike<number>;
}

/** Paths for probability curves over days (y fixed to 0–1): each mean as a line, ±1σ as a band. */
export function prepareBands(
  bands: readonly Band[],
  days: number,
  width: number,
  height: number,
  margin = { left: 36, right: 10, top: 8, bottom: 20 },
) {
  const x = scaleLinear()
    .domain([1, Math.max(2, days)])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([0, 1])
    .range([height - margin.bottom, margin.top]);
  const idx = Array.from({ length: days }, (_, i) => i);
  return {
    bands: bands.map((b) => ({
      key: b.key,
      line:
        line<number>()
          .x((i) => x(i + 1))
          .y((i) => y(b.mean[i]!))(idx) ?? '',
      band: b.std
        ? (area<number>()
            .x((i) => x(i + 1))
            .y0((i) => y(Math.max(0, b.mean[i]! - b.std![i]!)))
            .y1((i) => y(Math.min(1, b.mean[i]! + b.std![i]!)))(idx) ?? '')
        : null,
    })),
    xTicks: x.ticks(6).map((d) => ({ x: x(d), label: String(d) })),
    yTicks: y.ticks(5).map((v) => ({ y: y(v), label: v.toFixed(1) })),
    x: (day: number) => x(day),
    y: (p: number) => y(p),
  };
}
