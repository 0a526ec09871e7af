/**
 * Routing as the UCS reference scores it (torusfield_kernel.py Router; v2 adds a penalty):
 *   s_ij = α·u − β·c + γ·n + w + b + δ·E_ctx(j) − ε·penalty,   P(j) = softmax(s / temperature)
 * with the reference defaults α 1.25, β 1.10, γ 0.35, δ 0.50, ε 0.75, temperature 1.0.
 */

export const ROUTING_DEFAULTS = {
  alpha: 1.25,
  beta: 1.1,
  gamma: 0.35,
  delta: 0.5,
  epsilon: 0.75,
  temperature: 1.0,
} as const;
export type RoutingParams = { [K in keyof typeof ROUTING_DEFAULTS]: number };

export interface EdgeParams {
  src: string;
  dst: string;
  u: number;
  c: number;
  n: number;
  w: number;
}

export interface ScoredEdge {
  edgeIndex: number;
  to: string;
  /** The weighted terms that add up to the score (cost and penalty already negative). */
  parts: {
    utility: number;
    cost: number;
    novelty: number;
    weight: number;
    bias: number;
    context: number;
    penalty: number;
  };
  score: number;
  probability: number;
}

export function scoreOutgoing(
  edges: readonly EdgeParams[],
  from: string,
  opts: {
    bias?: Readonly<Record<string, number>>;
    contextEnergy?: Readonly<Record<string, number>>;
    penalty?: Readonly<Record<string, number>>;
    params?: Partial<RoutingParams>;
  } = {},
): ScoredEdge[] {
  const p = { ...ROUTING_DEFAULTS, ...opts.params };
  const scored: ScoredEdge[] = [];
  edges.forEach((e, i) => {
    if (e.src !== from) return;
    const parts = {
      utility: p.alpha * e.u,
      cost: -p.beta * e.c,
      novelty: p.gamma * e.n,
      weight: e.w,
      bias: opts.bias?.[String(i)] ?? 0,
      context: p.delta * (opts.contextEnergy?.[e.dst] ?? 0),
      penalty: -p.epsilon * (opts.penalty?.[e.dst] ?? 0),
    };
    const score =
      parts.utility + parts.cost + parts.novelty + parts.weight + parts.bias + parts.context + parts.penalty;
    scored.push({ edgeIndex: i, to: e.dst, parts, score, probability: 0 });
  });
  if (!scored.length) return scored;
  const t = Math.max(p.temperature, 0.01);
  const m = Math.max(...scored.map((s) => s.score / t));
  const exps = scored.map((s) => Math.exp(s.score / t - m));
  const z = exps.reduce((a, b) => a + b, 0);
  scored.forEach((s, k) => (s.probability = exps[k]! / z));
  return scored.sort((a, b) => b.score - a.score);
}
