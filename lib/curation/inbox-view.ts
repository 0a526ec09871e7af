/**
 * The review inbox's view in its address: `/curation?status=approved&kind=fact&agent=…&proposal=…`. A reload, a
 * shared link or Back shows the same proposals; the defaults (pending, no filter) are left out.
 */

export const INBOX_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

export const INBOX_FILTERS = ['scope', 'kind', 'agent', 'confidence'] as const;
export type InboxFilters = Record<(typeof INBOX_FILTERS)[number], string>;

/** The inbox's filters when none is set. */
export const NO_FILTERS: InboxFilters = { scope: '', kind: '', agent: '', confidence: '' };

export interface InboxView {
  status: InboxStatus;
  filters: InboxFilters;
}

/** The view an address asks for: an unknown status is the default one (pending). */
export function readInboxView(params: { get(name: string): string | null }): InboxView {
  const s = params.get('status');
  const status = INBOX_STATUSES.find((x) => x === s) ?? 'pending';
  const filters = { ...NO_FILTERS };
  for (const k of INBOX_FILTERS) filters[k] = params.get(k) ?? '';
  return { status, filters };
}

/** The address of a view, with the proposal shown (if any) last. */
export function inboxHref(view: InboxView, proposal?: string | null): string {
  const q = new URLSearchParams();
  if (view.status !== 'pending') q.set('status', view.status);
  for (const k of INBOX_FILTERS) if (view.filters[k]) q.set(k, view.filters[k]);
  if (proposal) q.set('proposal', proposal);
  const s = q.toString();
  return s ? `/curation?${s}` : '/curation';
}

/** The part of an address that names the view (not the proposal): what tells one view from another. */
export function inboxViewKey(params: { get(name: string): string | null }): string {
  return inboxHref(readInboxView(params));
}
