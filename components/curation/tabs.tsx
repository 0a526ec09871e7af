'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';
import { fmtInt } from '@/lib/format';
import { useUnsentDecisions } from './held-decision';

const TABS = [
  { href: '/curation', label: 'Inbox' },
  { href: '/curation/entries', label: 'Entries' },
  { href: '/curation/read-as', label: 'Read as' },
  { href: '/curation/reports', label: 'Reports' },
  { href: '/curation/audit', label: 'Audit log' },
  { href: '/curation/retrievals', label: 'Retrievals' },
  { href: '/curation/health', label: 'Health' },
  { href: '/curation/simulator', label: 'Simulator' },
  { href: '/curation/events', label: 'Events' },
];

/** The curation section's tabs; the inbox tab carries the number of proposals waiting. */
export function CurationTabs() {
  const pathname = usePathname();
  const trpc = useTRPC();
  const pending = useQuery({
    ...trpc.curation.inbox.queryOptions({ status: 'pending' }),
    select: (d) => d.totals?.pending ?? 0,
  });
  // A decision held for its undo window is no longer waiting, as far as this reviewer is concerned.
  const unsent = useUnsentDecisions((s) => s.ids.length);
  const waiting = Math.max(0, (pending.data ?? 0) - unsent);
  return (
    <nav className="section-tabs" aria-label="Curation">
      {TABS.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          className="section-tab"
          aria-current={pathname === t.href ? 'page' : undefined}
        >
          {t.label}
          {t.href === '/curation' && waiting ? <span className="count">{fmtInt(waiting)}</span> : null}
        </Link>
      ))}
    </nav>
  );
}
