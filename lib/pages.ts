/**
 * The app's pages as the Ctrl-K palette offers them: a name, a line on what is there, and the words people type for
 * it ("traces", "keys", "M1"). Per-agent substrate pages and single sessions are not here: they are found by name in
 * the palette's memory search (an agent's items, a session's title).
 */
export interface AppPage {
  href: string;
  label: string;
  about: string;
  /** Other words that find it, besides those of the label (the line is shown, not searched). */
  words: string;
}

export const APP_PAGES: readonly AppPage[] = [
  { href: '/sessions', label: 'Sessions', about: 'every session, its replay turn by turn', words: 'traces runs list' },
  { href: '/compare', label: 'Compare sessions', about: 'two sessions side by side', words: 'diff fork' },
  {
    href: '/curation',
    label: 'Curation inbox',
    about: 'proposed memory writes waiting for a decision',
    words: 'review approve reject proposals pending queue',
  },
  {
    href: '/curation/entries',
    label: 'Memory entries',
    about: 'durable memory, edited and deprecated',
    words: 'curation facts edit memory',
  },
  {
    href: '/curation/read-as',
    label: 'Read as',
    about: 'the memory a user, team, project or agent reads',
    words: 'curation scopes reader',
  },
  { href: '/curation/reports', label: 'Curation reports', about: 'what the curator did, by day', words: 'weekly' },
  {
    href: '/curation/audit',
    label: 'Audit log',
    about: 'every decision and write, who and when',
    words: 'curation history',
  },
  {
    href: '/curation/retrievals',
    label: 'Retrievals',
    about: "agents' search_memory calls, labelled for relevance",
    words: 'curation m6 search_memory',
  },
  {
    href: '/curation/health',
    label: 'Curator health',
    about: 'the paper’s metrics M1–M7',
    words: 'curation m1 m2 m3 m4 m5 m6 m7 metrics',
  },
  {
    href: '/curation/simulator',
    label: 'Curator simulator',
    about: 'hallucination propagation, Monte Carlo and Theorem 1',
    words: 'curation',
  },
  {
    href: '/curation/events',
    label: 'Memory events',
    about: 'every event the agents proposed, as received',
    words: 'curation rejected raw',
  },
  { href: '/annotations', label: 'Annotations', about: 'verdicts and comments on turns', words: 'labels notes' },
  {
    href: '/substrate',
    label: 'Substrate',
    about: 'UCS agents: the field, routing, judgments, dead ends',
    words: 'ucs torus field routing capabilities',
  },
  {
    href: '/hygiene',
    label: 'Hygiene lab',
    about: 'addition, deletion and consolidation policies replayed',
    words: 'addition deletion consolidation experience-following',
  },
  {
    href: '/recall',
    label: 'Recall',
    about: 'search all memory, with filters and duplicates',
    words: 'find duplicates',
  },
  {
    href: '/connect',
    label: 'Connect an agent',
    about: 'HTTP, OpenTelemetry, LangGraph and the SDKs',
    words: 'ingest api sdk otel opentelemetry langgraph setup',
  },
  {
    href: '/settings',
    label: 'Settings',
    about: 'API keys, members, webhooks, imports, scores, the recall model',
    words: 'api keys members webhooks imports scores model config',
  },
];

const wordsOf = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
const INDEX = APP_PAGES.map((p) => ({ page: p, label: wordsOf(p.label), all: wordsOf(`${p.label} ${p.words}`) }));

/**
 * The pages a query names: every word of it begins a word of the page's name or other words (not of its line: "the",
 * "turn" or "dead end" would name pages that a memory search did not mean). Pages whose name holds every word come
 * first, then in the list's order; no query gives every page, a single letter none.
 */
export function matchPages(query: string, max = APP_PAGES.length): AppPage[] {
  const q = wordsOf(query);
  if (q.join('').length === 1) return [];
  const hits = INDEX.filter(({ all }) => q.every((w) => all.some((x) => x.startsWith(w))));
  const named = (h: (typeof INDEX)[number]) => q.every((w) => h.label.some((x) => x.startsWith(w)));
  return [...hits.filter(named), ...hits.filter((h) => !named(h))].slice(0, max).map((h) => h.page);
}

/** Where one memory event is shown: Curation → Events, focused on it. */
export const eventHref = (id: string) => `/curation/events?focus=${encodeURIComponent(id)}`;

/** Where one memory entry is shown: Curation → Entries, opened. */
export const entryHref = (id: string) => `/curation/entries?entry=${encodeURIComponent(id)}`;
