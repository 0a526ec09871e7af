/**
 * What went wrong in a session, found turn by turn while its digest is built (lib/ccs/digest.ts), so the replay lists
 * it and marks it on the timeline without reading the turns: a constraint dropped from the CCS or changed (the ACC
 * paper's constraint retention), a hallucination (H_t) or drift (D_t) spike, a stress turn (an injection, poison
 * or conflict, as the turn or the session declares it), and an injection found in the data: a turn whose input holds
 * an instruction aimed at memory or active or hidden markup (lib/curation/injection.ts) that nobody declared. At most
 * ALERT_CAP are kept; the counts go on.
 */

export type AlertKind = 'constraint_dropped' | 'constraint_changed' | 'h_spike' | 'd_spike' | 'stress' | 'injection';

export const ALERT_KINDS: readonly AlertKind[] = [
  'constraint_dropped',
  'constraint_changed',
  'h_spike',
  'd_spike',
  'stress',
  'injection',
];

export interface Alert {
  /** Index of the turn (not its number). */
  i: number;
  kind: AlertKind;
  /** The constraint (as it was), or the stress kind; for a spike, the figure's name. */
  what: string;
  /** A changed constraint's new form. */
  to?: string;
  /** A spike's value, and the mean of the turns before it. */
  value?: number;
  mean?: number;
}

export const ALERT_CAP = 500;

/**
 * A spike: at least SPIKE_MIN above the mean of the turns before it and more than three of their standard deviations,
 * once there are SPIKE_AFTER of them to compare with.
 */
export const SPIKE_MIN = 0.15;
export const SPIKE_AFTER = 5;

/** Running mean and variance (Welford), plain JSON so a digest resumes with them. */
export interface Running {
  n: number;
  mean: number;
  m2: number;
}

export const emptyRunning = (): Running => ({ n: 0, mean: 0, m2: 0 });

/** Whether v spikes above what `r` has seen so far; then adds v to `r`. */
export function spikes(r: Running, v: number): boolean {
  const sd = r.n > 1 ? Math.sqrt(r.m2 / (r.n - 1)) : 0;
  const spike = r.n >= SPIKE_AFTER && v - r.mean >= SPIKE_MIN && v > r.mean + 3 * sd;
  r.n++;
  const delta = v - r.mean;
  r.mean += delta / r.n;
  r.m2 += delta * (v - r.mean);
  return spike;
}

export const ALERT_LABEL: Record<AlertKind, string> = {
  constraint_dropped: 'constraint dropped',
  constraint_changed: 'constraint changed',
  h_spike: 'hallucination spike',
  d_spike: 'drift spike',
  stress: 'stress',
  injection: 'injection in the input',
};

/** "4 constraints dropped", "1 hallucination spike": a count of alerts of one kind, as a badge says it. */
export function alertCount(kind: AlertKind, n: number): string {
  const many: Record<AlertKind, string> = {
    constraint_dropped: 'constraints dropped',
    constraint_changed: 'constraints changed',
    h_spike: 'hallucination spikes',
    d_spike: 'drift spikes',
    stress: 'stress turns',
    injection: 'injections in the input',
  };
  const one = kind === 'stress' ? 'stress turn' : ALERT_LABEL[kind];
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many[kind]}`;
}
