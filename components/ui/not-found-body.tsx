'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect } from 'react';
import { Panel } from '@/components/ui/panel';
import { EmptyState } from '@/components/ui/states';

/** An agent's substrate pages past its field (app/substrate/[agent]/…). */
const SUBSTRATE_TABS = ['audit', 'dead-ends', 'judgment'];

/** What was looked for, by the path: a session or an agent by its id, else a page. */
function missing(path: string): { title: string; text: string } {
  const [, section, id, tab, past] = path.split('/').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  const stored = 'It may belong to another project, or it has not been ingested yet.';
  // An address past an agent's or a session's own pages ("/substrate/aegis/bogus"): the page is what is missing.
  if (tab && section === 'substrate' && (!SUBSTRATE_TABS.includes(tab) || past !== undefined))
    return {
      title: 'No such page',
      text:
        `An agent's substrate has no page “${path.split('/').slice(3).join('/')}”: its pages are the field, audit, ` +
        'dead-ends and judgment.',
    };
  if (tab && section === 'sessions')
    return { title: 'No such page', text: `A session has no page “${tab}”: its replay is at /sessions/<id>.` };
  if (section === 'sessions' && id)
    return { title: 'No such session', text: `This project holds no session “${id}”. ${stored}` };
  if (section === 'substrate' && id)
    return { title: 'No such agent', text: `This project holds no substrate of an agent “${id}”. ${stored}` };
  return { title: 'No such page', text: `Mnemoscope has no page at ${path}: the address may be mistyped.` };
}

/**
 * The not-found pages' body: what was looked for, by the path. The tab's title is each not-found file's metadata
 * (app/, app/sessions/[id]/, app/substrate/) in the server's HTML, and kept so in the browser.
 */
export function NotFoundBody() {
  const { title, text } = missing(usePathname() ?? '/');
  // The server's HTML has the not-found file's title; the page's own ("Torus field · nope"), made before it knew,
  // streams in after and replaces it in the browser: the tab is kept saying what was found.
  useEffect(() => {
    const want = `${title} · Mnemoscope`;
    const keep = () => {
      if (document.title !== want) document.title = want;
    };
    keep();
    const watch = new MutationObserver(keep);
    watch.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => watch.disconnect();
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
