'use client';

import Link from 'next/link';
import { Crumbs } from '@/components/ui/crumbs';
import { usePathname } from 'next/navigation';

/** The sections of one agent's substrate. */
export function SubstrateTabs({ agent }: { agent: string }) {
  const pathname = usePathname();
  const base = `/substrate/${encodeURIComponent(agent)}`;
  const tabs = [
    { href: base, label: 'Field and consult' },
    { href: `${base}/judgment`, label: 'Judgment' },
    { href: `${base}/dead-ends`, label: 'Dead ends' },
    { href: `${base}/audit`, label: 'Audit' },
  ];
  return (
    <nav className="section-tabs" aria-label={`Substrate of ${agent}`}>
      {tabs.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          className="section-tab"
          aria-current={decodeURIComponent(pathname) === decodeURIComponent(t.href) ? 'page' : undefined}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

/** Substrate / agent / page, above a page of one agent's substrate. */
export function SubstrateCrumbs({ agent, page }: { agent: string; page?: string }) {
  // The agent's own page (its field) names the agent last: a link there would lead to itself.
  const list = { href: '/substrate', label: 'Substrate' };
  return page ? (
    <Crumbs
      parents={[list, { href: `/substrate/${encodeURIComponent(agent)}`, label: agent, mono: true }]}
      current={{ label: page }}
    />
  ) : (
    <Crumbs parents={[list]} current={{ label: agent, mono: true }} />
  );
}
