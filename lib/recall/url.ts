import type { SearchMode } from './engine';
import { redactText } from '@/lib/redact/redact';
import { RECALL_KINDS, type RecallKind } from './items';

/**
 * The Recall page's search in its address, after the `#` (`/recall#q=…&mode=keyword&kind=turn,artifact`, with
 * `like=<item id>` for "more like this"), so that a reload or a shared link shows the same search. The fragment, not
 * the query string: a browser never sends it to a server, so the words searched are not sent anywhere (they are kept
 * in the browser's history, as any address is).
 * Only what differs from the defaults is written; a value the page does not know (a typo, an edited link) is left
 * out, so its default stands.
 */
export interface RecallView {
  tab: 'search' | 'duplicates';
  q: string;
  mode: SearchMode;
  kinds: RecallKind[];
  agent: string;
  session: string;
  scope: string;
  /** Dates as the date inputs hold them, YYYY-MM-DD. */
  from: string;
  to: string;
  /** "More like this" item's id: its similar items are shown instead of the search's results. */
  like: string;
}

export const RECALL_VIEW: RecallView = {
  tab: 'search',
  q: '',
  mode: 'hybrid',
  kinds: [],
  agent: '',
  session: '',
  scope: '',
  from: '',
  to: '',
  like: '',
};

const MODES: readonly SearchMode[] = ['hybrid', 'keyword', 'vector'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real day (`2026-02-30` parses, as 2 March: it is no day). */
const day = (v: string | null) => {
  const t = v && DAY.test(v) ? Date.parse(`${v}T00:00:00Z`) : NaN;
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v ? v : '';
};

export function readRecallView(p: URLSearchParams): RecallView {
  const mode = p.get('mode') as SearchMode | null;
  const kinds = (p.get('kind') ?? '').split(',');
  return {
    tab: p.get('view') === 'duplicates' ? 'duplicates' : 'search',
    q: p.get('q') ?? '',
    mode: mode && MODES.includes(mode) ? mode : 'hybrid',
    // In the page's order, each once.
    kinds: RECALL_KINDS.filter((k) => kinds.includes(k)),
    agent: p.get('agent') ?? '',
    session: p.get('session') ?? '',
    scope: p.get('scope') ?? '',
    from: day(p.get('from')),
    to: day(p.get('to')),
    like: p.get('like') ?? '',
  };
}

/**
 * The fragment of a view (no `#`), empty for the defaults. Words that hold a secret (a key searched for to see whether
 * it leaked) are left out: an address goes to the browser's history, its sync and whoever a link is sent to.
 */
export function writeRecallView(v: RecallView): string {
  const p = new URLSearchParams();
  if (v.tab !== 'search') p.set('view', v.tab);
  if (v.q.trim() && !redactText(v.q).findings.length) p.set('q', v.q.trim());
  if (v.mode !== 'hybrid') p.set('mode', v.mode);
  if (v.kinds.length) p.set('kind', v.kinds.join(','));
  for (const k of ['agent', 'session', 'scope', 'from', 'to', 'like'] as const) if (v[k]) p.set(k, v[k]);
  return p.toString();
}
