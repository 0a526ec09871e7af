'use client';

import {
  keepPreviousData,
  partialMatchKey,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { KINDS, SCOPES, type Operation } from '@/lib/curation/pipeline';
import { fmtInt } from '@/lib/format';
import { CURATION_PAGE } from '@/lib/curation/event';
import {
  INBOX_FILTERS,
  inboxHref,
  inboxViewKey,
  NO_FILTERS,
  readInboxView,
  type InboxStatus,
  type InboxView,
} from '@/lib/curation/inbox-view';
import { keepaliveClient, useTRPC } from '@/components/trpc/provider';
import { ListFoot } from '@/components/ui/list-foot';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { refocus } from '@/components/ui/refocus';
import { useKeepInSight } from '@/components/ui/use-focus';
import { EmptyState, QueryError, SkeletonRows, updatingProps } from '@/components/ui/states';
import { CONFIDENCE_TONE, ProposalDetail, type DetailMode } from './proposal-detail';
import { AnnotateDialog } from '@/components/annotations/annotate-dialog';
import { AnnotationsSection } from '@/components/annotations/annotations-section';
import { useAnnotate, type TargetOption } from '@/components/annotations/store';
import type { RouterInputs } from '@/components/trpc/outputs';
import {
  UNDO_CHOICES,
  forgetLeft,
  markLeft,
  sendingLeft,
  rememberLeft,
  useHeldDecision,
  useReviewStore,
  useUnsentDecisions,
  useSecondsLeft,
  type UndoSeconds,
} from './held-decision';
import { useRole } from '@/components/ui/use-role';

type Status = InboxStatus;
type Decision = RouterInputs['curation']['decide']['decision'];
/** A decision made here, held for the undo window before it is sent (held-decision.ts). */
type HeldDecision = { ids: string[]; many: boolean; decision: Decision; text: string };

const heldVerb = (d: Decision) =>
  d.action === 'reject'
    ? 'Rejecting'
    : d.keepSeparate
      ? 'Keeping both of'
      : Object.values(d.edits ?? {}).some((v) => v !== undefined)
        ? 'Approving with edits'
        : 'Approving';

/** What an approval did, by the proposal's operation. */
const APPROVED: Record<Operation, string> = {
  append: 'written to memory.',
  update: 'the entry is updated (its earlier version is kept).',
  merge: 'merged into the entry it restates (its earlier wording is kept as a version).',
  deprecate: 'the entry is marked deprecated (nothing is deleted).',
  conflict: 'written to memory, linked to the entries it conflicts with.',
  discard: 'nothing was written.',
};

/**
 * The review inbox: proposals the curator may not write itself, one at a time with everything
 * needed to decide. Keyboard first: j/k move, a approve, b keep both (a merge), r reject, e edit, x select,
 * A approve selected, u undo the decision held for the undo window.
 */
export function Inbox() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const params = useSearchParams();
  // The status and filters are in the address (lib/curation/inbox-view.ts), read here and written with each change.
  const [status, setStatus] = useState<Status>(() => readInboxView(params).status);
  const [filters, setFilters] = useState(() => readInboxView(params).filters);
  // The views this page has written to the address and the address has not reached yet, in order. The address
  // reaching one of them is this page's own doing; reaching another view (the sidebar's link, a link from elsewhere)
  // is applied.
  const writing = useRef<string[]>([]);
  const viewKey = inboxViewKey(params);
  /** Writes the address: the proposal shown in a view (by default the one on screen). */
  const goTo = (proposal: string | null, view: InboxView = { status, filters }) => {
    const href = inboxHref(view, proposal);
    const key = inboxHref(view);
    if (key !== (writing.current.at(-1) ?? viewKey)) writing.current.push(key);
    router.replace(href, { scroll: false });
  };
  const filtered = Object.values(filters).some(Boolean);
  // Paged by the server, 100 at a time, each page after the last row of the one before (so proposals decided or
  // added meanwhile neither repeat nor go missing), with how many match: a long queue never stops silently.
  const list = useInfiniteQuery({
    ...trpc.curation.inbox.infiniteQueryOptions(
      {
        status,
        scope: filters.scope || null,
        kind: filters.kind || null,
        agent: filters.agent || null,
        confidence: filters.confidence || null,
        limit: CURATION_PAGE,
      },
      { getNextPageParam: (last) => last.next },
    ),
    placeholderData: keepPreviousData,
  });
  const first = list.data?.pages[0];
  // Proposals decided here leave the pending list at once, before the refetch says so (a second quick `a` must not
  // decide the same one again).
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  // Each proposal once, even if a refetch of a later page meets one already shown; and how many of the server's rows
  // were decided here but not yet confirmed by a refetch (held, or in flight): the counts leave them out as the list
  // does.
  const { items, unconfirmed } = useMemo(() => {
    const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
    const seen = new Set<string>(status === 'pending' ? gone : []);
    const unique = rows.filter((i) => !seen.has(i.id) && !!seen.add(i.id));
    return { items: unique, unconfirmed: new Set(rows.filter((i) => gone.has(i.id)).map((i) => i.id)).size };
  }, [list.data, gone, status]);
  const countOf = (s: Status, n: number) =>
    s === 'pending' && status === 'pending' ? Math.max(0, n - unconfirmed) : n;
  // How many proposals the status holds, whatever the filters.
  const inStatus = countOf(status, first?.totals?.[status] ?? 0);
  // The previous status's or filter's rows while the new ones load: shown, but nothing acts on them.
  const stale = list.isPlaceholderData;
  const param = params.get('proposal');
  // The row chosen by j/k or a click, ahead of the URL: keys pressed quickly must not read a stale URL, nor jump
  // back when the URL of an earlier press lands. A URL that is none of the ones this page set (a link from
  // elsewhere) wins, and opens its proposal even when it is not among the rows loaded; an id of '' means "none
  // picked" (after a decision, a filter or status change the list starts again at its first row).
  const [picked, setPicked] = useState<{ id: string; trail: Set<string> } | null>(null);
  const wanted = picked && picked.trail.has(param ?? '') ? picked.id : param;
  const [cursor, setCursor] = useState(0);
  const found = wanted ? items.findIndex((i) => i.id === wanted) : -1;
  const at = found >= 0 ? found : Math.min(cursor, Math.max(0, items.length - 1));
  // A link to a proposal that is not among the rows loaded (or not in this status) still opens it.
  const current = wanted && found < 0 ? { id: wanted } : stale ? undefined : items[at];
  /** The row shown, if it is one of the rows listed (a link may show one that is not). */
  const rowShown = wanted && found < 0 ? -1 : at;
  const [checked, setChecked] = useState<Set<string>>(new Set());
  // The address changed to a view this page did not write: it is shown, from its first row.
  useEffect(() => {
    const k = writing.current.indexOf(viewKey);
    if (k >= 0) {
      writing.current = writing.current.slice(k + 1);
      return;
    }
    writing.current = [];
    const v = readInboxView(params);
    setStatus(v.status);
    setFilters((f) => (INBOX_FILTERS.every((name) => f[name] === v.filters[name]) ? f : v.filters));
    setCursor(0);
    setChecked(new Set());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a change of the view in the address only
  }, [viewKey]);
  const [mode, setMode] = useState<DetailMode>('view');
  const { viewer } = useRole();
  // `local`: said by this page about the proposal shown (not the server's answer): it goes when the reviewer moves on.
  const [banner, setBanner] = useState<{ tone: 'ok' | 'warn' | 'danger'; text: string; local?: boolean } | null>(null);
  /** The form of an undone decision, for its proposal's detail to start with. */
  const [draft, setDraft] = useState<{ id: string; edits?: Decision['edits']; reason?: string } | null>(null);
  const detail = useQuery({
    ...trpc.curation.proposal.queryOptions({ id: current?.id ?? '00000000-0000-0000-0000-000000000000' }),
    enabled: !!current,
  });

  const select = (i: number) => {
    // A confirmation belongs to the proposal it was about: moving on puts it away (a refusal stays until read).
    setBanner((b) => (b?.tone === 'ok' || b?.local ? null : b));
    setCursor(i);
    setMode('view');
    setDraft(null);
    const id = items[i]?.id;
    if (!id) return;
    setPicked((p) => ({ id, trail: new Set([...(p?.trail ?? [param ?? '']), id]) }));
    goTo(id);
  };
  /**
   * Forget the row shown (the URL's too), and put the cursor on row `row`: the list changed under it (or the view
   * did: `view` is the one now asked for).
   */
  const restart = (row: number, view?: InboxView) => {
    setCursor(row);
    setMode('view');
    setDraft(null);
    setPicked((p) => ({ id: '', trail: new Set([...(p?.trail ?? []), param ?? '']) }));
    goTo(null, view);
  };
  // The lists, the proposals' details, and the sidebar's pending count (system.info), fetched again now (a fetch under
  // way started before the decision, so it is cancelled and made again) — but the inbox's: its fetch under way may be
  // the next page that j asked for, so it is let in (not cancelled), and then the inbox is fetched again with it.
  const refresh = async () => {
    const inbox = trpc.curation.inbox.pathKey();
    void qc.invalidateQueries({ queryKey: trpc.system.info.queryKey() });
    void qc.invalidateQueries({
      queryKey: trpc.curation.pathKey(),
      predicate: (q) => !partialMatchKey(q.queryKey, inbox),
    });
    for (let i = 0; i < 3 && qc.isFetching({ queryKey: inbox }) > 0; i++)
      await qc.invalidateQueries({ queryKey: inbox }, { cancelRefetch: false });
    await qc.invalidateQueries({ queryKey: inbox }, { cancelRefetch: false });
    // The detail shown once more, now that the lists have settled: its twin notice depends on the entry just written,
    // and an answer computed while the row changed under it (1 run in 10 of the twin e2e) must not stay 30 s.
    await qc.invalidateQueries({ queryKey: trpc.curation.proposal.pathKey() });
  };
  // Proposals made or decided elsewhere (another reviewer, an agent's events, on any instance: Server-Sent Events fed
  // by PostgreSQL LISTEN/NOTIFY) refresh the lists too; so does the stream coming back after it was down (a restart),
  // since what happened meanwhile was not heard.
  const refreshLatest = useRef(refresh);
  useEffect(() => {
    refreshLatest.current = refresh;
  });
  // At most one refresh a second however busy the agents are (the last notice of a burst is never lost); a stream the
  // server refused (a restart behind the proxy answered 503) is opened again after a few seconds.
  useEffect(() => {
    let es: EventSource | null = null;
    let last = 0;
    let pending: ReturnType<typeof setTimeout> | null = null;
    let reopen: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      if (pending) return;
      const wait = Math.max(0, last + 1000 - Date.now());
      pending = setTimeout(() => {
        pending = null;
        last = Date.now();
        void refreshLatest.current();
      }, wait);
    };
    const connect = (again: boolean) => {
      // Opened again: what happened while it was closed was not heard.
      let down = again;
      es = new EventSource('/api/curation/live');
      es.addEventListener('inbox', soon);
      es.onerror = () => {
        down = true;
        if (es?.readyState === EventSource.CLOSED) reopen = setTimeout(() => connect(true), 5000);
      };
      es.onopen = () => {
        if (down) soon();
        down = false;
      };
    };
    connect(false);
    return () => {
      es?.close();
      if (pending) clearTimeout(pending);
      if (reopen) clearTimeout(reopen);
    };
  }, []);
  const decide = useMutation(
    trpc.curation.decide.mutationOptions({
      onSuccess: (r, v) => {
        setBanner({
          tone: 'ok',
          text:
            r.status !== 'approved'
              ? 'Rejected; nothing was written.'
              : v.decision.keepSeparate
                ? 'Kept both: written to memory as a separate entry.'
                : `Approved${r.edited.length ? ' with your edits' : ''}: ${APPROVED[r.operation]}`,
        });
        void refresh();
      },
      onError: (e, v) => {
        setBanner({ tone: e.data?.code === 'CONFLICT' ? 'warn' : 'danger', text: e.message });
        back([v.id]);
        void refresh();
      },
    }),
  );
  const bulk = useMutation(
    trpc.curation.decideMany.mutationOptions({
      onSuccess: (r) => {
        const failed = r.filter((x) => !x.ok);
        setBanner({
          tone: failed.length ? 'warn' : 'ok',
          text:
            `${r.length - failed.length} decided` +
            (failed.length ? `; ${failed.length} not: ${failed[0]!.message}` : ''),
        });
        back(failed.map((x) => x.id));
        void refresh();
      },
      onError: (e, v) => {
        setBanner({ tone: 'danger', text: e.message });
        back(v.ids);
        void refresh();
      },
    }),
  );

  // A decision takes its proposals off the list at once (the next one takes the place of the one shown) and is held
  // for the undo window before it is sent; undone, or refused by the server, they come back.
  const [leaving] = useState(keepaliveClient);
  const undoSeconds = useReviewStore((x) => x.undoSeconds);
  const setUndoSeconds = useReviewStore((x) => x.setUndoSeconds);
  const { held, hold, undo } = useHeldDecision<HeldDecision>(
    (h) =>
      h.many
        ? bulk.mutate({ ids: h.ids, decision: h.decision })
        : decide.mutate({ id: h.ids[0]!, decision: h.decision }),
    undoSeconds,
    (h, how) => {
      // Written down first: the answer may come after the page has gone, and this inbox is gone already; LeftDecisions
      // (in the app shell) checks it on the page the reviewer went to, or on the next page this browser opens.
      const at = Date.now();
      const wanted = h.decision.action === 'approve' ? 'approved' : 'rejected';
      sendingLeft.add(at);
      rememberLeft({ ids: h.ids, wanted, text: h.text, at, how });
      // What this page hears (if it is still there) is written down with it: a refusal in the server's words (a
      // colleague decided first, even the same way: an edit or a reason of this one was not applied), or a request
      // that never reached the server.
      return (
        h.many
          ? leaving.curation.decideMany.mutate({ ids: h.ids, decision: h.decision }).then((r) => {
              const failed = r.filter((x) => !x.ok);
              return failed.length ? `${failed.length} of ${r.length} not decided: ${failed[0]!.message}` : null;
            })
          : leaving.curation.decide.mutate({ id: h.ids[0]!, decision: h.decision }).then(() => null)
      )
        .then(
          (refused) => {
            sendingLeft.delete(at);
            if (refused === null) forgetLeft([at]);
            else markLeft(at, { refused });
          },
          (e: { message?: string; data?: unknown }) => {
            sendingLeft.delete(at);
            markLeft(at, e.data ? { refused: String(e.message) } : { failed: String(e.message) });
          },
        )
        .finally(() => void refresh());
    },
  );
  const secondsLeft = useSecondsLeft(held);
  // Counted out of the sidebar's and the tab's waiting counts while held (sent as the inbox goes, so none after).
  useEffect(() => {
    useUnsentDecisions.setState({ ids: held?.value.ids ?? [] });
    return () => useUnsentDecisions.setState({ ids: [] });
  }, [held]);
  /** Shows proposal `id` (the one after a decision, or one undone), by its id: rows coming back do not move it. */
  const follow = (id: string | undefined) => {
    if (!id) return restart(0);
    setMode('view');
    setPicked((p) => ({ id, trail: new Set([...(p?.trail ?? []), param ?? '', id]) }));
    goTo(id);
  };
  // When the last decision was made: a double click on Approve must not decide the proposal that takes its place.
  const lastDecision = useRef(-Infinity);
  function back(ids: string[]) {
    if (!ids.length) return;
    setGone((g) => new Set([...g].filter((id) => !ids.includes(id))));
  }
  const decideNow = (ids: string[], decision: Decision, many = false, clicked = false) => {
    // A double click on a button decides once (keys pressed twice are meant: the second is the next proposal's).
    if (clicked && performance.now() - lastDecision.current < 400) return;
    lastDecision.current = performance.now();
    setDraft(null);
    const shown = detail.data?.proposal;
    // Its detail may not have come yet (a key pressed at once after j): the list's row has its content too.
    const content =
      decision.edits?.content ??
      (many ? '' : shown && shown.id === ids[0] ? shown.content : (items.find((i) => i.id === ids[0])?.content ?? ''));
    setGone((g) => new Set([...g, ...ids]));
    // A refusal of an earlier decision stays until read; a confirmation gives way.
    setBanner((b) => (b?.tone === 'ok' ? null : b));
    if (many) {
      setChecked(new Set());
      // The place is kept: the proposal shown stays shown, or, decided with the others, the first one left after it
      // (else before it) takes its place, as after a single decision. (It went back to the list's first row.)
      const left = (i: { id: string }) => !ids.includes(i.id);
      if (current && rowShown >= 0)
        follow(
          left(current) ? current.id : (items.slice(at + 1).find(left)?.id ?? items.slice(0, at).findLast(left)?.id),
        );
      else restart(0);
    } else {
      setChecked((c) => new Set([...c].filter((id) => !ids.includes(id))));
      if (current?.id === ids[0]) follow(items[at + 1]?.id ?? items[at - 1]?.id);
    }
    // Decided by a click, the button is gone with its proposal: the focus goes to the row now shown, not the page top.
    if (clicked && !many)
      refocus(() => document.querySelector<HTMLElement>('.inbox-row[aria-current="true"] .row-pick'));
    hold({
      ids,
      many,
      decision,
      text: many ? `${heldVerb(decision)} ${fmtInt(ids.length)} selected` : `${heldVerb(decision)} “${content}”`,
    });
  };
  const undoHeld = () => {
    const h = undo();
    if (!h) return;
    // What follows an undo is a new decision, not the second click of the one undone.
    lastDecision.current = -Infinity;
    back(h.ids);
    if (h.many) setChecked(new Set(h.ids));
    follow(h.ids[0]);
    // An edit or a reason comes back in its form, as it was typed.
    const { edits, reason } = h.decision;
    const edited = !h.many && !!edits && Object.values(edits).some((v) => v !== undefined);
    if (edited || (!h.many && reason)) {
      setDraft({ id: h.ids[0]!, edits, reason });
      setMode(edited ? 'edit' : 'reject');
    }
    setBanner({ tone: 'ok', text: 'Undone: nothing was sent.' });
  };

  // Annotations: what n opens the dialog on, and how many each listed proposal has.
  const showAnnotate = useAnnotate((a) => a.show);
  const annotateOption = (p: { id: string; content?: string }): TargetOption => ({
    key: 'proposal',
    label: p.content ? `proposal: ${p.content}` : `proposal ${p.id}`,
    group: 'This proposal',
    target: { target: 'proposal', proposal_id: p.id },
  });
  const counted = useQuery({
    ...trpc.annotations.counts.queryOptions({ target: 'proposal', ids: items.slice(0, 500).map((p) => p.id) }),
    enabled: items.length > 0,
    placeholderData: keepPreviousData,
  });

  // The row the keys act on stays in sight.
  useKeepInSight('proposal', rowShown >= 0 ? items[rowShown]?.id : undefined);

  // The window listener calls the latest handler (it reads this render's state).
  const onKeyRef = useRef<(e: KeyboardEvent) => void>(() => {});
  /** The row a j/k press picked, until the page has drawn it. */
  const pressedTo = useRef<number | null>(null);
  useEffect(() => {
    pressedTo.current = null;
  }, [at, items.length]);
  useEffect(() => {
    onKeyRef.current = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [contenteditable]') || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'u' && held && !document.querySelector('[role=dialog]')) {
        e.preventDefault();
        return undoHeld();
      }
      // Not behind a dialog (the Ctrl-K palette), nor on rows of a list that is being replaced.
      if (!items.length || stale || document.querySelector('[role=dialog]')) return;
      if (e.key === 'j' || e.key === 'ArrowDown' || e.key === 'k' || e.key === 'ArrowUp') {
        const down = e.key === 'j' || e.key === 'ArrowDown';
        // From the row the last press picked, drawn or not: presses faster than the page draws are none of them lost.
        const from = Math.min(pressedTo.current ?? at, items.length - 1);
        // At the last row loaded, j fetches the next page; the next j moves onto it once it has arrived.
        if (down && from + 1 >= items.length && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
        const to = down ? Math.min(from + 1, items.length - 1) : Math.max(from - 1, 0);
        pressedTo.current = to;
        select(to);
        // The focus leaves the row it was on (Tab goes on from there), so that it never rests on a row other than
        // the one the keys act on.
        if (t.classList.contains('row-pick') && to !== from) t.blur();
      } else if (e.key === 'n' && current) showAnnotate([annotateOption(items[at] ?? current)]);
      else if (status !== 'pending' || viewer) return;
      // One shown by a link that someone has decided already (its detail says by whom) takes no decision keys.
      const shown = detail.data?.proposal;
      // A listed row takes keys before its detail has loaded; one only a link names, once it has (it may not exist).
      const loaded = shown?.id === current?.id;
      const open = current && (loaded ? shown?.status === 'pending' : rowShown >= 0) ? current : null;
      // An entry says the same already: a is no approval (a second copy is approved by its button, knowingly).
      if (e.key === 'a' && open && loaded && detail.data?.sameAs)
        setBanner({
          tone: 'warn',
          text: 'Not approved: an entry says this already. Press r to reject it as a duplicate, or use Approve anyway.',
          local: true,
        });
      else if (e.key === 'a' && open) decideNow([open.id], { action: 'approve' });
      else if (e.key === 'b' && open && shown?.operation === 'merge')
        decideNow([open.id], { action: 'approve', keepSeparate: true });
      else if (e.key === 'r' && open) setMode('reject');
      else if (e.key === 'e' && open) setMode('edit');
      else if (e.key === 'x' && open) setChecked((c) => toggle(c, open.id));
      else if (e.key === 'A' && checked.size) decideNow([...checked], { action: 'approve' }, true);
      else return;
      e.preventDefault();
    };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => onKeyRef.current(e);
    window.addEventListener('keydown', onKey);
    document.documentElement.dataset.inboxKeys = '1';
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const facets = first?.facets;
  const facet = (name: 'scope' | 'kind' | 'agent' | 'confidence', all: string[]) => (
    <select
      className="select"
      aria-label={`Filter by ${name}`}
      value={filters[name]}
      onChange={(e) => {
        const next = { ...filters, [name]: e.target.value };
        setFilters(next);
        restart(0, { status, filters: next });
      }}
    >
      <option value="">all {name === 'agent' ? 'agents' : name === 'confidence' ? 'confidence' : `${name}s`}</option>
      {/* The value chosen is listed while no proposal has it (in another status, or before the counts come). */}
      {[
        ...new Set([
          ...all,
          ...[...Object.keys(facets?.[name] ?? {}), ...(filters[name] ? [filters[name]] : [])].sort((a, b) =>
            a.localeCompare(b),
          ),
        ]),
      ].map((v) => (
        <option key={v} value={v}>
          {v} {facets?.[name][v] ? `(${facets[name][v]})` : ''}
        </option>
      ))}
    </select>
  );
  return (
    <>
      <div className="toolbar" style={{ flexWrap: 'wrap', marginBottom: 10 }}>
        <div className="seg" role="group" aria-label="Status">
          {(['pending', 'approved', 'rejected'] as const).map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={status === s}
              onClick={() => (setStatus(s), restart(0, { status: s, filters }), setChecked(new Set()))}
            >
              {s} <span className="muted">{first ? fmtInt(countOf(s, first.totals?.[s] ?? 0)) : '—'}</span>
            </button>
          ))}
        </div>
        {facet('scope', [...SCOPES])}
        {facet('kind', [...KINDS])}
        {facet('agent', [])}
        {facet('confidence', ['high', 'medium', 'low'])}
        {checked.size ? (
          <>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => decideNow([...checked], { action: 'approve' }, true)}
            >
              Approve {checked.size} selected
            </button>
            <BulkReject
              count={checked.size}
              onReject={(reason) => decideNow([...checked], { action: 'reject', reason }, true)}
            />
          </>
        ) : null}
      </div>
      {/* Over the foot of the page, not in its flow: a decision held or answered does not move the list. */}
      <div className="inbox-toasts">
        {held ? (
          <div className="banner warn held-banner" data-testid="held-banner">
            {/* Said once when held; the countdown beside it is not read out every second. */}
            <span className="held-text" role="status">
              <MemoryText text={held.value.text} />
            </span>
            <span className="nowrap muted" aria-hidden="true">
              sent in {secondsLeft} s
            </span>
            <button type="button" className="btn btn-small" onClick={undoHeld} aria-keyshortcuts="u">
              Undo <kbd>u</kbd>
            </button>
          </div>
        ) : null}
        {banner && !(held && banner.tone === 'ok') ? (
          <div className={`banner ${banner.tone}`} role="status" data-testid="inbox-banner">
            {banner.text}
          </div>
        ) : null}
      </div>
      <div className="hint-bar hint-bar-inline" data-testid="hint-bar">
        <span>
          <kbd>j</kbd>/<kbd>k</kbd> move
        </span>
        {viewer ? (
          <span data-testid="viewer-only">you are a viewer here: reviewers and admins decide</span>
        ) : (
          <>
            <span>
              <kbd>a</kbd> approve
            </span>
            <span>
              <kbd>r</kbd> reject
            </span>
            <span>
              <kbd>e</kbd> edit
            </span>
            <span>
              <kbd>x</kbd> select · <kbd>A</kbd> approve selected
            </span>
          </>
        )}
        <span>
          <kbd>n</kbd> annotate
        </span>
        {viewer ? null : (
          <>
            <span>
              <kbd>u</kbd> undo
            </span>
            <label className="nowrap">
              held before sending{' '}
              <select
                className="select select-small"
                aria-label="Undo window: how long a decision is held before it is sent"
                value={undoSeconds}
                suppressHydrationWarning
                onChange={(e) => setUndoSeconds(Number(e.target.value) as UndoSeconds)}
              >
                {UNDO_CHOICES.map((n) => (
                  <option key={n} value={n}>
                    {n ? `${n} s` : 'not held'}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
      </div>
      <QueryError query={list} />
      <div className="inbox">
        <Panel as="div" className="inbox-list" testId="inbox-list" body={false}>
          {list.isPending || (stale && !items.length) ? (
            // Loading, or another status or filter loading after an empty list: not "nothing waits" yet.
            <table className="data">
              <SkeletonRows cols={2} />
            </table>
          ) : !items.length && list.error ? (
            // Not "nothing waits": nobody knows what waits (the error above says why).
            <EmptyState title="The proposals could not be loaded">
              Nothing is shown until they are; the counts say — meanwhile.
            </EmptyState>
          ) : !items.length && filtered && inStatus > 0 ? (
            // Filtered to nothing: say so, not that nothing waits, while the status has proposals.
            <EmptyState title={`No ${status} proposal matches these filters`}>
              {fmtInt(inStatus)} {status} in all.{' '}
              <button
                type="button"
                className="btn"
                onClick={() => (setFilters(NO_FILTERS), restart(0, { status, filters: NO_FILTERS }))}
              >
                Clear the filters
              </button>
            </EmptyState>
          ) : !items.length ? (
            <EmptyState title={status === 'pending' ? 'Nothing waits for review' : `No ${status} proposals`}>
              {status === 'pending'
                ? 'The curator queues writes here when a scope needs approval, the emitter asked for review, ' +
                  'or a write would change existing memory.'
                : 'Decisions appear here with who made them.'}
            </EmptyState>
          ) : (
            // The rows of the status or filter before, while this one's load: dimmed, and no key acts on them.
            <div role="list" aria-label="Proposals" {...updatingProps(stale)}>
              {items.map((p, i) => (
                <div
                  key={p.id}
                  className="inbox-row"
                  role="listitem"
                  aria-current={i === rowShown ? 'true' : undefined}
                  data-proposal={p.id}
                >
                  <input
                    type="checkbox"
                    aria-label="Select for a bulk decision"
                    checked={checked.has(p.id)}
                    onChange={() => setChecked((c) => toggle(c, p.id))}
                    onClick={(e) => e.stopPropagation()}
                    disabled={status !== 'pending' || viewer}
                  />
                  <button
                    type="button"
                    className="row-pick"
                    onClick={() => select(i)}
                    // The row with the focus is the one the keys act on: Tab onto a row picks it, as j/k do.
                    onFocus={() => i !== at && select(i)}
                  >
                    <MemoryText className="clip" text={p.content} />
                    <span className="meta">
                      <span className="badge accent">{p.operation}</span>
                      <span className="badge">{p.scope}</span>
                      <span className="badge">{p.kind}</span>
                      {p.confidence ? (
                        <span className={`badge ${CONFIDENCE_TONE[p.confidence] ?? ''}`}>{p.confidence}</span>
                      ) : null}
                      {p.conflicts ? <span className="badge danger">{p.conflicts} conflict</span> : null}
                      {counted.data?.[p.id] ? (
                        <span className="badge accent" data-testid="annotation-count">
                          {counted.data[p.id]} note{counted.data[p.id] === 1 ? '' : 's'}
                        </span>
                      ) : null}
                      <span>{p.sourceAgent}</span>
                      {p.decidedBy ? (
                        <span>
                          · {status} by {p.decidedBy}
                        </span>
                      ) : null}
                    </span>
                  </button>
                </div>
              ))}
            </div>
          )}
          <ListFoot
            testId="inbox-count"
            shown={items.length}
            matching={countOf(status, first?.matching ?? 0)}
            noun={`${status} proposals`}
            page={CURATION_PAGE}
            query={list}
          />
        </Panel>
        <Panel as="div" className="detail" testId="proposal-detail" body={false}>
          {current && detail.data ? (
            <ProposalDetail
              // One per proposal: its form state (an edit, a reason) never carries over to the next one shown.
              key={detail.data.proposal.id}
              data={detail.data}
              draft={draft?.id === detail.data.proposal.id ? draft : undefined}
              mode={status === 'pending' ? mode : 'view'}
              busy={decide.isPending}
              onCancel={() => setMode('view')}
              onApprove={(edits) => decideNow([current.id], { action: 'approve', edits }, false, true)}
              onReject={(reason) => decideNow([current.id], { action: 'reject', reason }, false, true)}
              onMode={setMode}
              onKeepBoth={() => decideNow([current.id], { action: 'approve', keepSeparate: true }, false, true)}
              onApproveAnyway={() =>
                decideNow([current.id], { action: 'approve', despiteDuplicate: true }, false, true)
              }
              pending={status === 'pending' && !viewer}
            />
          ) : current && detail.error && !['NOT_FOUND', 'BAD_REQUEST'].includes(detail.error.data?.code ?? '') ? (
            <QueryError query={detail} />
          ) : current && detail.error ? (
            <EmptyState title="This proposal is not here">
              <span data-testid="proposal-missing">
                No proposal of this project has the id {current.id}: the link may be wrong, or from another project.
              </span>{' '}
              {items.length ? (
                <button type="button" className="btn btn-small" onClick={() => select(0)}>
                  Show the first proposal
                </button>
              ) : null}
            </EmptyState>
          ) : current ? (
            <div className="panel-body muted">Loading the proposal…</div>
          ) : (
            <EmptyState title="Select a proposal">Use j and k to move through the list.</EmptyState>
          )}
          {current && detail.data ? (
            <div className="panel-body" style={{ borderTop: '1px solid var(--border)' }}>
              <AnnotationsSection
                option={annotateOption({ id: current.id, content: detail.data.proposal.content })}
                filter={{ proposalId: current.id }}
                keyHint
              />
            </div>
          ) : null}
        </Panel>
      </div>
      <AnnotateDialog />
    </>
  );
}

function toggle(set: Set<string>, id: string): Set<string> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

function BulkReject({ count, onReject }: { count: number; onReject: (reason: string) => void }) {
  const [reason, setReason] = useState('');
  return (
    <span className="toolbar">
      <input
        className="input"
        placeholder="reason for rejecting them"
        aria-label="Reason for rejecting the selected proposals"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="button" className="btn btn-danger" disabled={!reason.trim()} onClick={() => onReject(reason)}>
        Reject {count}
      </button>
    </span>
  );
}
