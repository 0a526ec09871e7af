'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect } from 'react';
import { Panel } from '@/components/ui/panel';
import { EmptyState } from '@/components/ui/states';

/** What was looked for, by the path: a session or an agent by its id, else a page. */
function missing(path: string): { title: string; text: string } {
  const [, section, id] = path.split('/').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  const stored = 'It may belong to another project, or it has not been ingested yet.';
  if (section === 'sessions' && id)
    return { title: 'No such session', text: `This project holds no session “${id}”. ${stored}` };
  if (section === 'substrate' && id)
    return { title: 'No such agent', text: `This project holds no substrate of an agent “${id}”. ${stored}` };
  return { title: 'No such page', text: `Mnemoscope has no page at ${path}: the address may be mistyped.` };
}

/** The not-found page's body: what was looked for, by the path, and the tab's title set to it. */
export function NotFoundBody() {
  const { title, text } = missing(usePathname() ?? '/');
  // The page's own title was made for what was looked for ("Torus field · nope"): the tab says what it found.
  useEffect(() => {
    document.title = `${title} · Mnemoscope`;
  }, [title]);
  return (
    <Panel as="div" testId="not-found" body={false}>
      <EmptyState title={title}>
        {text} Back to <Link href="/sessions">Sessions</Link>, <Link href="/substrate">Substrate</Link> or{' '}
        <Link href="/curation">Curation</Link>.
      </EmptyState>
    </Panel>
  );
}
