/** Search and sort of the sessions list: pure, so the same rules hold wherever a list is shown. */

export interface SessionListItem {
  id: string;
  agentId: string;
  title: string | null;
  domain: string | null;
  turnCount: number;
  firstAt: string | null;
  lastAt: string | null;
  meanHallucination: number | null;
  /** D̄ over every turn but the session's first (ACC §5.3: t = 2…T). */
  meanDrift: number | null;
  /** M̄: the mean CCS footprint in tokens over the turns that sent one (ACC §5.3). */
  meanCcs?: number | null;
  /** A traced agent's work (whole OTLP traces), where sent: tokens and cost summed, latency a turn's mean. */
  tokens?: number | null;
  cost?: number | null;
  meanLatency?: number | null;
  /** When the session arrived: its place in time when its turns carry no timestamps. */
  createdAt?: string | null;
}

/** Rows of the sessions list fetched at a time (`sessions.page`). */
export const SESSIONS_PAGE = 100;

export const SESSION_SORTS = {
  recent: 'Most recent',
  oldest: 'Oldest',
  turns: 'Most turns',
  title: 'Title A–Z',
  hallucination: 'Highest H̄',
  drift: 'Highest D̄',
  tokens: 'Most tokens',
  cost: 'Highest cost',
  latency: 'Slowest turns',
} as const;
export type SessionSort = keyof typeof SESSION_SORTS;

/** The list's search and sort as its address says them (`?q=…&sort=…`); anything else is the default. */
export function sessionsListParams(
  q: unknown,
  sort: unknown,
): { search: string; sort: SessionSort; sortProblem?: string } {
  const known = typeof sort === 'string' && Object.hasOwn(SESSION_SORTS, sort);
  return {
    search: typeof q === 'string' ? q.trim().slice(0, 200) : '',
    sort: known ? (sort as SessionSort) : 'recent',
    // A sort the link names that is none: said, not silently replaced.
    ...(typeof sort === 'string' && sort && !known
      ? { sortProblem: `sort “${sort}” is none of ${Object.keys(SESSION_SORTS).join(', ')}: most recent first` }
      : {}),
  };
}

/** Every word of the query must appear in the title, id, agent or domain (case-insensitive). */
export function filterSessions<T extends SessionListItem>(rows: readonly T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...rows];
  return rows.filter((s) => {
    const hay = [s.title, s.id, s.agentId, s.domain].filter(Boolean).join(' ').toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

const time = (s: string | null) => (s ? Date.parse(s) : -Infinity);
const desc = (a: number | null, b: number | null) => (b ?? -Infinity) - (a ?? -Infinity);

export function sortSessions<T extends SessionListItem>(rows: readonly T[], sort: SessionSort): T[] {
  const out = [...rows];
  const byId = (a: T, b: T) => a.id.localeCompare(b.id);
  switch (sort) {
    case 'recent':
      return out.sort(
        (a, b) =>
          time(b.lastAt ?? b.firstAt ?? b.createdAt ?? null) - time(a.lastAt ?? a.firstAt ?? a.createdAt ?? null) ||
          byId(a, b),
      );
    case 'oldest':
      return out.sort(
        (a, b) => time(a.firstAt ?? a.createdAt ?? null) - time(b.firstAt ?? b.createdAt ?? null) || byId(a, b),
      );
    case 'turns':
      return out.sort((a, b) => b.turnCount - a.turnCount || byId(a, b));
    case 'title':
      return out.sort((a, b) => (a.title ?? a.id).localeCompare(b.title ?? b.id));
    case 'hallucination':
      return out.sort((a, b) => desc(a.meanHallucination, b.meanHallucination) || byId(a, b));
    case 'drift':
      return out.sort((a, b) => desc(a.meanDrift, b.meanDrift) || byId(a, b));
    case 'tokens':
      return out.sort((a, b) => desc(a.tokens ?? null, b.tokens ?? null) || byId(a, b));
    case 'cost':
      return out.sort((a, b) => desc(a.cost ?? null, b.cost ?? null) || byId(a, b));
    case 'latency':
      return out.sort((a, b) => desc(a.meanLatency ?? null, b.meanLatency ?? null) || byId(a, b));
  }
}
