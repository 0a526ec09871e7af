'use client';

import Link from 'next/link';
import {
  BrainCircuit,
  FlaskConical,
  Inbox,
  ListVideo,
  MessageSquareText,
  Orbit,
  Plug,
  Search,
  Settings,
} from 'lucide-react';
import { usePathname } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { fmtCount, fmtInt } from '@/lib/format';
import { CommandPalette } from '@/components/recall/command-palette';
import { focusMainIfLost } from '@/components/ui/refocus';
import { LeftDecisions } from '@/components/curation/left-decisions';
import { sendHeldDecisions, useUnsentDecisions } from '@/components/curation/held-decision';
import { ThemeToggle } from './theme-toggle';
import { restoreHeldFragment } from './held-fragment';
import { applyRail, railNow, subscribeRail, toggledChoice, useShellStore } from './shell-store';

// Each item's icon says it in the rail (collapsed, at 1,024 px and below), where two-letter stubs read alike.
const NAV = [
  { href: '/sessions', label: 'Sessions', Icon: ListVideo, count: 'sessions', counted: 'sessions' },
  { href: '/curation', label: 'Curation', Icon: Inbox, count: 'pending', counted: 'proposals waiting for review' },
  { href: '/annotations', label: 'Annotations', Icon: MessageSquareText, count: null },
  { href: '/substrate', label: 'Substrate', Icon: Orbit, count: 'substrateAgents', counted: 'agents with a substrate' },
  { href: '/hygiene', label: 'Hygiene lab', Icon: FlaskConical, count: null },
  { href: '/recall', label: 'Recall', Icon: BrainCircuit, count: null },
  { href: '/connect', label: 'Connect', Icon: Plug, count: null },
  { href: '/settings', label: 'Settings', Icon: Settings, count: null },
] as const;

function Logo() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
      <circle cx="12" cy="12" r="9" />
      <ellipse cx="12" cy="12" rx="9" ry="3.5" />
      <circle cx="12" cy="12" r="2" fill="currentColor" />
    </svg>
  );
}

export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const trpc = useTRPC();
  const bare = pathname === '/sign-in';
  const info = useQuery({ ...trpc.system.info.queryOptions(), enabled: !bare });
  // The server's counts; the proposals of a decision held for its undo window are not waiting for this reviewer.
  const unsent = useUnsentDecisions((s) => s.ids.length);
  const raw = info.data?.counts;
  const counts = raw && { ...raw, pending: Math.max(0, raw.pending - unsent) };
  // Marks the page interactive (hydrated): end-to-end tests wait for it before clicking.
  useEffect(() => {
    // After Next.js's own effects, which run after this one (a parent's run after its children's): its router then
    // hears the fragment, and the history entry keeps Next.js's state (without it, Back to it showed another page).
    const t = setTimeout(() => {
      restoreHeldFragment();
      document.documentElement.dataset.hydrated = '1';
    });
    // Again from the stored choice: a page that ends in notFound() is rendered afresh in the browser, and React then
    // takes <html> without the attribute the inline script gave it (the sidebar showed open at 1,024 px).
    applyRail(useShellStore.getState().sidebar);
    return () => clearTimeout(t);
  }, []);
  // A page opened from another (a link, a row, a tab) leaves the focus on the body, the control that had it gone with
  // the old page, and the next Tab started at the top of the document: it goes to the new page's main region instead,
  // unless the page put it somewhere. Not on the first page, whose first Tab reaches the skip link.
  // (The path last seen, not a flag: React's strict mode runs a mount's effects twice, and would take the second run
  // for a navigation.)
  const seenPath = useRef(pathname);
  useEffect(() => {
    if (seenPath.current === pathname) return;
    seenPath.current = pathname;
    const frame = requestAnimationFrame(focusMainIfLost);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
  const setSidebar = useShellStore((s) => s.setSidebar);
  // From <html data-rail>, false while hydrating (as the server rendered it), then as it is.
  const collapsed = useSyncExternalStore(subscribeRail, railNow, () => false);
  if (bare) return <main className="main">{children}</main>;
  const auth = info.data?.auth;
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Main">
        <div className="brand-row">
          <Link href="/sessions" className="brand" aria-label="Mnemoscope">
            <Logo /> <span className="nav-label">Mnemoscope</span>
          </Link>
          <button
            type="button"
            className="sidebar-toggle"
            aria-expanded={!collapsed}
            aria-label={collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}
            title={collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}
            onClick={() => {
              const next = toggledChoice(collapsed);
              setSidebar(next);
              applyRail(next);
            }}
          >
            {collapsed ? '»' : '«'}
          </button>
        </div>
        {NAV.map((item) => {
          const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <Link
              key={item.href}
              href={item.href}
              className="nav-item"
              aria-current={active ? 'page' : undefined}
              title={item.label}
            >
              <item.Icon className="nav-icon" size={16} strokeWidth={1.75} aria-hidden />
              <span className="nav-label">{item.label}</span>
              {item.count && counts ? (
                <span className="count" title={`${fmtInt(counts[item.count])} ${item.counted}`}>
                  {/* The rail's badge, on the icon's corner: four characters (10,000 → 10k), read whole. */}
                  {collapsed ? (
                    <>
                      <span aria-hidden>{fmtCount(counts[item.count])}</span>
                      <span className="sr-only">{fmtInt(counts[item.count])}</span>
                    </>
                  ) : (
                    fmtInt(counts[item.count])
                  )}
                </span>
              ) : null}
            </Link>
          );
        })}
        <button
          type="button"
          className="nav-item palette-hint"
          title="Search memory (Ctrl K)"
          aria-keyshortcuts="Control+K"
          // Ctrl-K pressed on the button: the pages' key handlers read the element a key was pressed on (sent to the
          // window, it had none, and the inbox's threw "t.closest is not a function").
          onClick={(e) =>
            e.currentTarget.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true }))
          }
        >
          <Search className="nav-icon" size={16} strokeWidth={1.75} aria-hidden />
          <span className="nav-label">Search</span>
          <span className="count" aria-hidden>
            <kbd>Ctrl</kbd> <kbd>K</kbd>
          </span>
        </button>
        <div className="sidebar-foot">
          <ThemeToggle />
          <span title={info.data?.location ?? undefined}>
            {info.data
              ? `${info.data.driver === 'pglite' ? 'Embedded PGlite' : 'PostgreSQL'} · project ${info.data.projectId}`
              : 'connecting…'}
          </span>
          {auth?.mode === 'users' ? (
            <>
              {auth.projects.length > 1 ? (
                <select
                  className="select"
                  aria-label="Project"
                  value={info.data?.projectId}
                  onChange={(e) => {
                    const project = e.target.value;
                    // A reviewer's decision held for the undo window goes first, to the project it was made in.
                    void sendHeldDecisions().then(() => {
                      document.cookie = `mnemoscope_project=${encodeURIComponent(project)}; Path=/; SameSite=Lax`;
                      location.reload();
                    });
                  }}
                >
                  {auth.projects.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name} ({p.role})
                    </option>
                  ))}
                </select>
              ) : null}
              <form
                method="post"
                action="/api/auth/sign-out"
                // A reviewer's decision held for the undo window goes first, while the session still stands.
                onSubmit={(e) => {
                  e.preventDefault();
                  const form = e.currentTarget;
                  void sendHeldDecisions().then(() => form.submit());
                }}
                className="toolbar"
                style={{ justifyContent: 'space-between' }}
              >
                <span data-testid="signed-in">
                  {auth.username} · {auth.role}
                </span>
                <button type="submit" className="btn">
                  Sign out
                </button>
              </form>
            </>
          ) : (
            <span title="No sign-in: Mnemoscope listens on this machine only">
              Local single-user mode · loopback only
            </span>
          )}
        </div>
      </nav>
      <main className="main" id="main" tabIndex={-1}>
        <LeftDecisions />
        {children}
      </main>
      <CommandPalette />
    </div>
  );
}
