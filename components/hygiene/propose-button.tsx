'use client';

import type { ProposalPolicy } from '@/lib/hygiene/contract';
import type { Raise } from './types';

/** Proposes deprecating a memory item under a policy; nothing for a person who may not propose. */
export function ProposeButton({
  item,
  policy,
  raise,
  busy,
  label = 'Propose deprecation',
}: {
  item: string;
  policy: ProposalPolicy;
  raise: Raise;
  busy: boolean;
  label?: string;
}) {
  if (!raise) return null;
  return (
    <button
      type="button"
      className="btn btn-small"
      disabled={busy}
      onClick={() => raise(item, policy)}
      data-testid={`propose-${policy}-${item}`}
    >
      {label}
    </button>
  );
}
