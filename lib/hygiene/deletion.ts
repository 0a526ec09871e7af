/**
 * Deletion policies of "How Memory Management Impacts LLM Agents: An Empirical Study of
 * Experience-Following Behavior" (§5.1, §6.2), on the recorded history:
 *
 * - periodic: removed when retrieved ≤ α times in the last period of P steps
 *   (φ_period = 1[freq_t − freq_{t−P} ≤ α]); a memory item younger than a period is not judged yet.
 * - history-based: removed when retrieved more than n times with mean utility ≤ β
 *   (φ_history = 1[mean Φ ≤ β] if freq_t > n).
 * - combined, in the paper's two readings (§5.1): `combined` — "periodical- and history-based methods can be
 *   applied together": both deletions run, an item goes when either fires (only this reading agrees with its
 *   Table 2, where combined keeps the smallest memory); `product` — the formula it prints,
 *   φ_combine = φ_period × φ_history: an item goes only when both fire at once, checked when periodic deletion runs
 *   (every P steps).
 * - capacity cap (§6.2): periodic deletion, then the least-utility items while memory exceeds C.
 *
 * Utilities of retrievals whose turn reported none are left out of the mean; an item with no known
 * utility ranks as 0.5 for the cap.
 */

export interface DeletionParams {
  /** P: the period, in steps (turns of the agent's timeline). */
  period: number;
  /** α: most retrievals in the last period that still get an item removed. */
  alpha: number;
  /** n: an item is judged on its history only after more than n retrievals. */
  n: number;
  /** β: mean utility at or below which a well-tried item is removed. */
  beta: number;
  /** C: most items memory may hold (capacity policy). */
  capacity: number;
}

export const PAPER_DEFAULTS: DeletionParams = { period: 200, alpha: 0, n: 5, beta: 0.5, capacity: 100 };

export type Policy = 'periodic' | 'history' | 'combined' | 'product' | 'capacity';
export const POLICIES: Policy[] = ['periodic', 'history', 'combined', 'product', 'capacity'];

export interface HistoryItem {
  id: string;
  /** Step at which it entered memory (items made from turn s enter after step s). */
  addedStep: number;
}

export interface HistoryRetrieval {
  item: string;
  step: number;
  utility: number | null;
}

interface Stats {
  steps: number[];
  utilities: number[];
}

function statsOf(retrievals: HistoryRetrieval[], upTo = Infinity): Map<string, Stats> {
  const m = new Map<string, Stats>();
  for (const r of retrievals) {
    if (r.step > upTo) continue;
    const s = m.get(r.item) ?? { steps: [], utilities: [] };
    s.steps.push(r.step);
    if (r.utility !== null) s.utilities.push(r.utility);
    m.set(r.item, s);
  }
  return m;
}

const meanOf = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

export function periodicFires(
  addedStep: number,
  steps: number[],
  now: number,
  p: Pick<DeletionParams, 'period' | 'alpha'>,
): boolean {
  if (now - addedStep < p.period) return false;
  return steps.filter((s) => s > now - p.period && s <= now).length <= p.alpha;
}

export function historyFires(steps: number[], utilities: number[], p: Pick<DeletionParams, 'n' | 'beta'>): boolean {
  if (steps.length <= p.n) return false;
  const m = meanOf(utilities);
  return m !== null && m <= p.beta;
}

export interface Verdict {
  id: string;
  removed: boolean;
  /** Why, in words, with the numbers. */
  reason: string;
  recentRetrievals: number;
  retrievals: number;
  meanUtility: number | null;
}

/** Which memory items each policy would remove now (`now` = the last step), with the reason for each. */
export function removeNow(
  items: HistoryItem[],
  retrievals: HistoryRetrieval[],
  now: number,
  p: DeletionParams,
): Record<Policy, Verdict[]> {
  const stats = statsOf(retrievals, now);
  const base = items.map((r) => {
    const s = stats.get(r.id) ?? { steps: [], utilities: [] };
    const recent = s.steps.filter((x) => x > now - p.period && x <= now).length;
    const mu = meanOf(s.utilities);
    const per = periodicFires(r.addedStep, s.steps, now, p);
    const his = historyFires(s.steps, s.utilities, p);
    return { r, s, recent, mu, per, his };
  });
  const verdict = (b: (typeof base)[number], removed: boolean, reason: string): Verdict => ({
    id: b.r.id,
    removed,
    reason,
    recentRetrievals: b.recent,
    retrievals: b.s.steps.length,
    meanUtility: b.mu,
  });
  const perReason = (b: (typeof base)[number]) =>
    b.per
      ? `retrieved ${b.recent}× in the last ${p.period} steps (≤ α = ${p.alpha})`
      : now - b.r.addedStep < p.period
        ? `younger than one period`
        : `retrieved ${b.recent}× in the last ${p.period} steps`;
  const hisReason = (b: (typeof base)[number]) =>
    b.s.steps.length <= p.n
      ? `retrieved ${b.s.steps.length}× (judged after more than n = ${p.n})`
      : `mean utility ${fmt(b.mu)} over ${b.s.steps.length} retrievals${b.his ? ` (≤ β = ${p.beta})` : ''}`;

  const periodic = base.map((b) => verdict(b, b.per, perReason(b)));
  const history = base.map((b) => verdict(b, b.his, hisReason(b)));
  const combined = base.map((b) =>
    verdict(
      b,
      b.per || b.his,
      b.per && b.his ? `${perReason(b)}; ${hisReason(b)}` : b.his ? hisReason(b) : perReason(b),
    ),
  );
  const product = base.map((b) =>
    verdict(
      b,
      b.per && b.his,
      b.per && b.his
        ? `${perReason(b)}; ${hisReason(b)}`
        : `${b.per ? 'only periodic fires' : b.his ? 'only history-based fires' : 'neither fires'}: ` +
            `${perReason(b)}; ${hisReason(b)}`,
    ),
  );
  // Capacity: periodic first, then the least useful until memory fits.
  const survivors = base.filter((b) => !b.per);
  const over = Math.max(0, survivors.length - p.capacity);
  const cut = new Set(
    [...survivors]
      .sort(
        (a, b) => (a.mu ?? 0.5) - (b.mu ?? 0.5) || a.s.steps.length - b.s.steps.length || a.r.addedStep - b.r.addedStep,
      )
      .slice(0, over)
      .map((b) => b.r.id),
  );
  const capacity = base.map((b) =>
    verdict(
      b,
      b.per || cut.has(b.r.id),
      b.per
        ? perReason(b)
        : cut.has(b.r.id)
          ? `over capacity ${p.capacity}: mean utility ${fmt(b.mu ?? 0.5)} is among the ${over} lowest`
          : `kept within capacity ${p.capacity}`,
    ),
  );
  return { periodic, history, combined, product, capacity };
}

export interface SizePoint {
  step: number;
  none: number;
  periodic: number;
  history: number;
  combined: number;
  product: number;
  capacity: number;
}

/**
 * Memory size over the recorded history under each policy: items enter at their step, recalls
 * happen as recorded, history-based deletion runs after every step, periodic deletion at every
 * multiple of P, the cap after every step. A removed item's later recalls are dropped (what the
 * agent would have recalled instead is unknown).
 */
export function simulateSizes(
  items: HistoryItem[],
  retrievals: HistoryRetrieval[],
  lastStep: number,
  p: DeletionParams,
): SizePoint[] {
  const entering = new Map<number, string[]>();
  for (const r of items) entering.set(r.addedStep, [...(entering.get(r.addedStep) ?? []), r.id]);
  const at = new Map<number, HistoryRetrieval[]>();
  for (const r of retrievals) at.set(r.step, [...(at.get(r.step) ?? []), r]);
  const added = new Map(items.map((r) => [r.id, r.addedStep]));

  const run = (policy: Policy | 'none') => {
    const live = new Set<string>();
    const stats = new Map<string, Stats & { sum: number }>();
    const get = (id: string) => stats.get(id) ?? { steps: [], utilities: [], sum: 0 };
    const meanU = (id: string) => {
      const s = stats.get(id);
      return s && s.utilities.length ? s.sum / s.utilities.length : 0.5;
    };
    const sizes: number[] = [];
    for (let step = 0; step <= lastStep; step++) {
      // Recalls of this step's turn happen before what the turn adds enters memory.
      const touched: string[] = [];
      for (const r of at.get(step) ?? []) {
        if (!live.has(r.item)) continue;
        const s = get(r.item);
        s.steps.push(step);
        if (r.utility !== null) {
          s.utilities.push(r.utility);
          s.sum += r.utility;
        }
        stats.set(r.item, s);
        touched.push(r.item);
      }
      for (const id of entering.get(step) ?? []) live.add(id);
      // An item's history changes only when it is recalled: judge just those.
      if (policy === 'history' || policy === 'combined')
        for (const id of touched)
          if (live.has(id) && historyFires(get(id).steps, get(id).utilities, p)) live.delete(id);
      if (
        (policy === 'periodic' || policy === 'combined' || policy === 'capacity') &&
        step > 0 &&
        step % p.period === 0
      )
        for (const id of [...live]) if (periodicFires(added.get(id)!, get(id).steps, step, p)) live.delete(id);
      if (policy === 'product' && step > 0 && step % p.period === 0)
        for (const id of [...live])
          if (
            periodicFires(added.get(id)!, get(id).steps, step, p) &&
            historyFires(get(id).steps, get(id).utilities, p)
          )
            live.delete(id);
      // Over the cap: drop the least useful, one at a time (usually one a step).
      while (policy === 'capacity' && live.size > p.capacity) {
        let worst: string | null = null;
        for (const id of live) {
          if (worst === null) {
            worst = id;
            continue;
          }
          const d = meanU(id) - meanU(worst) || get(id).steps.length - get(worst).steps.length;
          if (d < 0) worst = id;
        }
        live.delete(worst!);
      }
      sizes.push(live.size);
    }
    return sizes;
  };
  const none = run('none');
  const periodic = run('periodic');
  const history = run('history');
  const combined = run('combined');
  const product = run('product');
  const capacity = run('capacity');
  return none.map((n, step) => ({
    step,
    none: n,
    periodic: periodic[step]!,
    history: history[step]!,
    combined: combined[step]!,
    product: product[step]!,
    capacity: capacity[step]!,
  }));
}

function fmt(x: number | null) {
  return x === null ? '—' : x.toFixed(2);
}
