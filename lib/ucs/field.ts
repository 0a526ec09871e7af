/**
 * A torus field: a flat row-major list over θ×φ bins (idx = θ·φ_bins + φ), wrapping on both axes.
 */

export interface FieldGrid {
  thetaBins: number;
  phiBins: number;
  values: readonly number[];
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

/** The value at (θ, φ), wrapping around both axes: (−1, 0) is the last θ row. */
export function valueAt(f: FieldGrid, theta: number, phi: number): number {
  return f.values[mod(theta, f.thetaBins) * f.phiBins + mod(phi, f.phiBins)]!;
}

/** b − a, cell by cell (the difference mode of the snapshot player). */
export function fieldDiff(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`fields differ in size: ${a.length} vs ${b.length}`);
  return b.map((v, i) => v - a[i]!);
}

export function fieldExtent(values: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo === Infinity ? [0, 0] : [lo, hi];
}

/** The four torus neighbours of a cell, across the seams. */
export function neighbours(theta: number, phi: number, thetaBins: number, phiBins: number): [number, number][] {
  return [
    [mod(theta - 1, thetaBins), phi],
    [mod(theta + 1, thetaBins), phi],
    [theta, mod(phi - 1, phiBins)],
    [theta, mod(phi + 1, phiBins)],
  ];
}

export interface NodePosition {
  name: string;
  theta: number;
  phi: number;
  /** Where the position came from: the state's injection schedule, or the reference's default placement. */
  source: 'schedule' | 'derived';
}

/**
 * Capability positions on the torus: the injection schedule's θ/φ for `cap_<name>` ports when the
 * state has them, otherwise capability i at (i mod θ, 3i mod φ) as the reference places them.
 */
export function nodePositions(
  nodes: readonly string[],
  schedule: readonly unknown[] | null,
  thetaBins: number,
  phiBins: number,
): NodePosition[] {
  const fromSchedule = new Map<string, { theta: number; phi: number }>();
  for (const s of schedule ?? []) {
    const e = s as { port?: unknown; theta?: unknown; phi?: unknown };
    if (typeof e.port === 'string' && typeof e.theta === 'number' && typeof e.phi === 'number')
      fromSchedule.set(e.port.replace(/^cap_/, ''), { theta: e.theta, phi: e.phi });
  }
  return nodes.map((name, i) => {
    const p = fromSchedule.get(name);
    return p
      ? { name, ...p, source: 'schedule' as const }
      : { name, theta: i % thetaBins, phi: (3 * i) % phiBins, source: 'derived' as const };
  });
}
