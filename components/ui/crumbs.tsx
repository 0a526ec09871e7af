import Link from 'next/link';
import { Fragment } from 'react';

interface Crumb {
  href: string;
  label: string;
  /** An id (a session's, an agent's): in the monospace face. */
  mono?: boolean;
}

/** Where a page sits: its parents as links, then the page itself, marked current and never a link to itself. */
export function Crumbs({ parents, current }: { parents: Crumb[]; current: Omit<Crumb, 'href'> }) {
  return (
    <nav className="crumbs" aria-label="Breadcrumb">
      {parents.map((c) => (
        <Fragment key={c.href}>
          <Link href={c.href} className={c.mono ? 'mono' : undefined}>
            {c.label}
          </Link>{' '}
          /{' '}
        </Fragment>
      ))}
      <span className={current.mono ? 'mono' : undefined} aria-current="page">
        {current.label}
      </span>
    </nav>
  );
}
