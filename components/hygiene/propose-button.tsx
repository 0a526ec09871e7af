'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRef } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import type { ProposalPolicy } from '@/lib/hygiene/contract';
import type { Raise } from './types';

/**
 * Proposes deprecating a memory item under a policy; nothing for a person who may not propose. An item whose
 * deprecation already waits for review links to it instead (one request for every button: `hygiene.pending`).
 */
export function ProposeButton({
  item,
  policy,
  raise,
  busy,
  label = 'Propose deprecation',
  name = label,
}: {
  item: string;
  policy: ProposalPolicy;
  raise: Raise;
  busy: boolean;
  label?: string;
  /** What it is called for a screen reader, before the item (its label, when that says enough). */
  name?: string;
}) {
  const trpc = useTRPC();
  const pending = useQuery({ ...trpc.hygiene.pending.queryOptions(), enabled: !!raise });
  // Pressed here: the link that replaces the button takes the focus (else it falls to the page's body).
  const pressed = useRef(false);
  if (!raise) return null;
  const waiting = pending.data?.[item];
  if (waiting)
    return (
      <Link
        ref={(el) => {
          if (el && pressed.current) {
            pressed.current = false;
            el.focus();
          }
        }}
        className="btn btn-small nowrap"
        href={`/curation?proposal=${waiting}`}
        aria-label={`Deprecation of ${item} waits for review: open it in the inbox`}
        data-testid={`proposed-${policy}-${item}`}
      >
        In review
      </Link>
    );
  return (
    <button
      type="button"
      className="btn btn-small"
      disabled={busy}
      onClick={() => {
        pressed.current = true;
        raise(item, policy);
      }}
      aria-label={`${name}: ${item}`}
      data-testid={`propose-${policy}-${item}`}
    >
      {label}
    </button>
  );
}
