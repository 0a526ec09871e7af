/** How the lab names and colours its policies, in every tab. */

export const POLICY_LABEL = {
  periodic: 'Periodic',
  history: 'History-based',
  combined: 'Combined: applied together',
  product: 'Combined: φ_period × φ_history',
  capacity: 'Capacity cap',
} as const;

export const POLICY_COLOR = {
  none: 'var(--faint)',
  periodic: 'var(--series-1)',
  history: 'var(--series-2)',
  combined: 'var(--series-3)',
  product: 'var(--series-4)',
  capacity: 'var(--series-5)',
} as const;

export const CONSOLIDATION_LABEL = {
  recency: 'Recency-only',
  frequency: 'Frequency-only',
  surprise: 'Surprise-weighted',
  sleep: 'Sleep-replay',
} as const;
