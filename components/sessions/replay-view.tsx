'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import {
  Fragment,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { Crumbs } from '@/components/ui/crumbs';
import { Panel } from '@/components/ui/panel';
import { MemoryText } from '@/components/ui/memory-text';
import { EmptyState, QueryError } from '@/components/ui/states';
import type { CcsTerms } from '@/lib/ccs/contract';
import {
  BLAME_COUNT_CAP,
  hasTurn,
  heldTurns,
  indexOfTurnInRuns,
  turnAt as turnAtRuns,
  TURN_WINDOW as WINDOW,
  type M4,
  type SessionDigest,
  usageFigures,
} from '@/lib/ccs/digest';
import { diffCcs } from '@/lib/ccs/diff';
import { langGraphTurnOf } from '@/lib/import/langgraph';
import { diffStates } from '@/lib/json-state/diff';
import { fmtCost, fmtDateTime, fmtInt, fmtLatency, fmtRate, fmtSpan, fmtTokens, plural } from '@/lib/format';
import { CcsPanel, termEventLabel } from './ccs-panel';
import { StatePanel } from './state-panel';
import { ConstraintTimeline } from './constraint-timeline';
import { AlertsPanel } from './alerts-panel';
import { SeriesChart } from './series-chart';
import { SHORTCUTS, ShortcutsDialog } from './shortcuts';
import { SPEEDS, useReplay } from './store';
import { Timeline } from './timeline';
import { TurnPanel } from './turn-panel';
import { useReplayKeys } from './use-replay-keys';
import { ForkButton } from './fork-dialog';
import { forkOrigin } from '@/lib/ccs/fork';
import { AnnotateDialog } from '@/components/annotations/annotate-dialog';
import { AnnotationList } from '@/components/annotations/annotation-list';
import { useAnnotate } from '@/components/annotations/store';
import { focusedTarget, turnTargets } from '@/components/annotations/targets';

const TURN_ANNOTATIONS_EMPTY = 'Score this turn, a term of its CCS or an artifact it recalled: press n.';

function Icon({ d }: { d: string }) {
  return (
    <svg
      width="14"
      height="14"
      viewBox="0 0 24 24"
      fill="currentColor"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinejoin="round"
      aria-hidden
    >
      <path d={d} />
    </svg>
  );
}

const NO_VALUES: M4 = { first: [], min: [], max: [], last: [] };
const EMPTY_CCS: CcsTerms = {};
const NO_STRESS: [number, string][] = [];

const fmtScore1 = (v: number | null) => (v === null ? '—' : v.toFixed(1));
const isEmptyCcs = (c: CcsTerms) => Object.values(c).every((terms) => !terms?.length);

/** Why a typed turn number cannot be shown, in words, with the turns the session holds. */
function noTurnMessage(runs: [number, number][], raw: string): string {
  return `no turn ${raw} in this session` + (runs.length ? ` (${heldTurns(runs)})` : '');
}

/** A turn number sent with Enter; one the session does not hold is refused in words, never replaced by another. */
function TurnForm({
  runs,
  label,
  errorId,
  onTurn,
  errorAtEnd = false,
  clear = false,
  input,
  children,
}: {
  runs: [number, number][];
  label: string;
  errorId: string;
  /** The turn typed, or null for an empty box. */
  onTurn: (turn: number | null) => void;
  /** The refusal hangs from the box's right edge (a box near the page's right edge), else from its left. */
  errorAtEnd?: boolean;
  /** The box empties once its turn is shown (a go-to box), instead of keeping a turn the player has left since. */
  clear?: boolean;
  input: Pick<ComponentProps<'input'>, 'ref' | 'style' | 'placeholder' | 'disabled' | 'defaultValue'>;
  children?: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="toolbar turn-form"
      onSubmit={(e) => {
        e.preventDefault();
        const box = e.currentTarget.elements.namedItem('turn') as HTMLInputElement;
        const raw = box.value.trim();
        if (raw !== '' && !hasTurn(runs, Number(raw))) return setError(noTurnMessage(runs, raw));
        setError(null);
        onTurn(raw === '' ? null : Number(raw));
        if (clear) box.value = '';
        box.blur();
      }}
    >
      <input
        {...input}
        name="turn"
        className="input"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={() => setError(null)}
        // The refusal is about what was typed here: it goes when the reviewer moves on (or presses Escape).
        onBlur={() => setError(null)}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return;
          // Escape leaves the field too, so the player's keys (?, j, k) work again at once; a refused turn goes.
          if (error) e.currentTarget.value = '';
          setError(null);
          e.currentTarget.blur();
        }}
        inputMode="numeric"
      />
      {error ? (
        <span id={errorId} className={`badge danger turn-form-error${errorAtEnd ? ' end' : ''}`} role="alert">
          {error}
        </span>
      ) : null}
      {children}
    </form>
  );
}

/** Compare mode: a turn number to diff against, instead of the previous turn. */
function CompareInput({
  runs,
  value,
  onChange,
  disabled = false,
}: {
  runs: [number, number][];
  value: number | null;
  onChange: (v: number | null) => void;
  /** Until the session's turns are known. */
  disabled?: boolean;
}) {
  return (
    <TurnForm
      key={value ?? 'none'}
      runs={runs}
      label="Compare with turn"
      errorId="compare-error"
      errorAtEnd
      onTurn={(turn) => onChange(turn === null ? null : indexOfTurnInRuns(runs, turn))}
      input={{
        style: { width: 120 },
        placeholder: 'previous turn',
        disabled,
        defaultValue: value === null ? '' : String(turnAtRuns(runs, value)),
      }}
    >
      {value !== null ? (
        <button type="button" className="btn" onClick={() => onChange(null)}>
          vs previous
        </button>
      ) : null}
    </TurnForm>
  );
}

export function ReplayView({
  id,
  initialIndex,
  askedTurn = null,
  notATurn = null,
  notACompare = null,
  initialCompare = null,
  focusArtifact = null,
}: {
  id: string;
  /** The position of the turn the address names (?turn=17), or 0: where the player opens. */
  initialIndex: number;
  /** The turn the link asked for (?turn=), to say so when the session does not hold it. */
  askedTurn?: number | null;
  /** What the link gave as its turn when it is no number (?turn=abc), to say so. */
  notATurn?: string | null;
  /** A ?compare= that is no number, to be said rather than ignored. */
  notACompare?: string | null;
  /** The turn to diff against (?compare=3), when the link has one. */
  initialCompare?: number | null;
  /** The artifact a link points at (?artifact=…): marked and opened in the turn panel. */
  focusArtifact?: string | null;
}) {
  const trpc = useTRPC();
  const player = useReplay();
  const { speed, set } = player;
  // Until the player has opened this session (an effect, below) it shows the turn the address names: the server
  // renders that turn's CCS from the window it put in the page, before the digest is fetched.
  const mine = player.sessionId === id;
  const index = mine ? player.index : initialIndex;
  const playing = mine && player.playing;
  const compareIndex = mine ? player.compareIndex : null;
  const [follow, setFollow] = useState(false);
  const qc = useQueryClient();
  const session = useQuery(trpc.sessions.byId.queryOptions({ id }));
  // The digest: what the page needs of the whole session, in a size that does not grow with it (lib/ccs/digest.ts).
  // New turns appear while an agent is still sending them: the server pushes the session's stamp (a few bytes, Server-
  // Sent Events fed by PostgreSQL LISTEN/NOTIFY) and the page fetches the digest again only when the stamp moves on;
  // while the stream is down (a proxy that buffers it, a restart) the page polls the stamp instead. "Follow live"
  // also moves the player to the newest turn.
  const digestQ = useQuery({ ...trpc.sessions.digest.queryOptions({ id }), staleTime: Infinity });
  const [live, setLive] = useState<{ id: string; stamp: string } | null>(null);
  const pushed = live?.id === id ? live.stamp : null;
  useEffect(() => {
    const es = new EventSource(`/api/sessions/${encodeURIComponent(id)}/live`);
    es.addEventListener('stamp', (e) => setLive({ id, stamp: (e as MessageEvent<string>).data }));
    // Memory events naming its turns were stored later than their turn, moved or decided (or may have been, while no
    // stream listened: each connection says so): this session's windows' events again.
    es.addEventListener('events', () => void qc.invalidateQueries(trpc.sessions.events.queryFilter({ id })));
    // EventSource reconnects by itself (and is sent the stamp again); poll until it has.
    es.onerror = () => setLive(null);
    return () => es.close();
  }, [id, qc, trpc]);
  const stampQ = useQuery({
    ...trpc.sessions.stamp.queryOptions({ id }),
    refetchInterval: 2500,
    enabled: pushed === null,
  });
  const stamp = pushed ?? stampQ.data;
  const artifactsQ = useQuery(trpc.sessions.artifacts.queryOptions({ id }));
  // Until the digest comes: the stored digest's shape (in the page the server sent), so the charts and alerts are
  // laid out to their size and the turn below them does not move when they are drawn.
  const shapeQ = useQuery({ ...trpc.sessions.shape.queryOptions({ id }), staleTime: Infinity });
  const forksQ = useQuery(trpc.sessions.forks.queryOptions({ id }));
  const digest = useMemo(
    () => (digestQ.data ? (JSON.parse(digestQ.data) as SessionDigest & { stamp: string }) : null),
    [digestQ.data],
  );
  const digestKey = useMemo(() => trpc.sessions.digest.queryKey({ id }), [trpc, id]);
  // Once per new stamp: the digest fetched may already be newer than the stamp that asked for it.
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (!stamp || !digest || stamp === digest.stamp || stamp === asked.current || digestQ.isFetching) return;
    asked.current = stamp;
    void qc.invalidateQueries({ queryKey: digestKey });
  }, [stamp, digest, digestQ.isFetching, qc, digestKey]);
  const runs = useMemo(() => digest?.runs ?? [], [digest]);
  const turnAt = useCallback((k: number) => turnAtRuns(runs, k), [runs]);
  const stressAt = useMemo(() => new Map(digest?.stress ?? []), [digest]);
  const artifacts = useMemo(() => new Map((artifactsQ.data ?? []).map((a) => [a.id, a])), [artifactsQ.data]);
  const n = digest?.n ?? 0;
  const i = n ? Math.min(index, n - 1) : index;

  // Full turns (input, output, artifacts, CCS) and where their terms came from come in windows around the playhead;
  // the neighbouring windows are fetched ahead so stepping across a boundary does not wait.
  const w = Math.floor(i / WINDOW);
  const lastWindow = Math.floor(Math.max(0, n - 1) / WINDOW);
  const windowOf = useCallback(
    (k: number) => trpc.sessions.window.queryOptions({ id, offset: k * WINDOW, limit: WINDOW }),
    [trpc, id],
  );
  const blameOf = useCallback(
    (k: number) => trpc.sessions.blame.queryOptions({ id, offset: k * WINDOW, limit: WINDOW }),
    [trpc, id],
  );
  const eventsOf = useCallback(
    (k: number) => trpc.sessions.events.queryOptions({ id, offset: k * WINDOW, limit: WINDOW }),
    [trpc, id],
  );
  const windowQ = useQuery(windowOf(w));
  // The memory events emitted at the window's turns (an agent names the turn of each it emits).
  const eventsQ = useQuery(eventsOf(w));
  // The previous turn, for the diff: in this window, or at the end of the one before.
  const prevQ = useQuery({ ...windowOf(i > 0 && i % WINDOW === 0 ? w - 1 : w), enabled: i > 0 });
  const blameQ = useQuery(blameOf(w));
  useEffect(() => {
    for (const k of [w - 1, w + 1])
      if (k >= 0 && k <= lastWindow) {
        void qc.prefetchQuery(windowOf(k));
        void qc.prefetchQuery(blameOf(k));
        void qc.prefetchQuery(eventsOf(k));
      }
  }, [w, lastWindow, qc, windowOf, blameOf, eventsOf]);
  // Before the digest has come, the windows say which turn is at a position (they are fetched by position).
  const currentTurn = n ? turnAt(i) : (windowQ.data?.[i - w * WINDOW]?.turn ?? null);
  const detail = windowQ.data?.find((t) => t.turn === currentTurn);
  // The turn's memory events: shown where any turn near it has some (a session whose agent emits none shows nothing).
  const turnEvents = useMemo(
    () =>
      eventsQ.data && (eventsQ.data.items.length || eventsQ.data.listedBefore !== null) && currentTurn !== null
        ? {
            turn: currentTurn,
            items: eventsQ.data.items.filter((e) => e.turn === currentTurn),
            unlisted: eventsQ.data.listedBefore !== null && currentTurn >= eventsQ.data.listedBefore,
          }
        : null,
    [eventsQ.data, currentTurn],
  );
  const prevTurn = i > 0 ? (n ? turnAt(i - 1) : (prevQ.data?.[(i - 1) % WINDOW]?.turn ?? null)) : null;
  const prev = prevQ.data?.find((t) => t.turn === prevTurn);
  const compareQ = useQuery({
    ...trpc.sessions.window.queryOptions({ id, offset: compareIndex ?? 0, limit: 1 }),
    enabled: compareIndex !== null,
  });

  // Opening a session starts at the turn in the URL (?turn=17), or the first; the turn to compare with (?compare=3)
  // is known to be one of the session's once the digest has come.
  useEffect(() => {
    set({ sessionId: id, index: initialIndex, playing: false, compareIndex: null });
    // Left and opened again later (client-side), the page shows its address's turn, not the one it was left at.
    return () => set({ sessionId: null, playing: false });
  }, [id, initialIndex, set]);
  const compareOpened = useRef<string | null>(null);
  useEffect(() => {
    if (!n || compareOpened.current === id) return;
    compareOpened.current = id;
    if (initialCompare !== null && hasTurn(runs, initialCompare))
      set({ compareIndex: indexOfTurnInRuns(runs, initialCompare), tab: 'diff' });
  }, [id, n, runs, initialCompare, set]);
  // A link's turn the session does not hold is said, not silently replaced (the player opens at the next one).
  const linkMisses = [
    askedTurn !== null && n && !hasTurn(runs, askedTurn)
      ? `no turn ${askedTurn}, so it opened at turn ${turnAtRuns(runs, initialIndex)}`
      : null,
    notATurn !== null && n
      ? `“${notATurn}” is not a turn number, so it opened at turn ${turnAtRuns(runs, initialIndex)}`
      : null,
    initialCompare !== null && n && !hasTurn(runs, initialCompare)
      ? `no turn ${initialCompare} to compare with, so each turn is compared with the one before`
      : null,
    notACompare !== null && n
      ? `“${notACompare}” is not a turn number to compare with, so each turn is compared with the one before`
      : null,
  ].filter((m): m is string => !!m);
  // Dismissed for this link: another link to the same page (a new ?turn=) is said again.
  const missKey = `${askedTurn}|${notATurn}|${initialCompare}|${notACompare}`;
  const [dismissed, setDismissed] = useState<string | null>(null);

  // The current turn (and the one it is compared with) live in the URL, so a link opens exactly this moment.
  // Written once stepping pauses: rewriting history on every key press of a fast scrub costs frames.
  const compareTurn = compareIndex === null || !n ? null : turnAt(compareIndex);
  useEffect(() => {
    // Not before the digest: ?compare= is applied once it has come, and a rewrite now would drop it.
    if (currentTurn === null || !mine || !n) return;
    const timer = setTimeout(() => {
      const url = new URL(window.location.href);
      const compare = compareTurn === null ? null : String(compareTurn);
      if (url.searchParams.get('turn') === String(currentTurn) && url.searchParams.get('compare') === compare) return;
      url.searchParams.set('turn', String(currentTurn));
      if (compare === null) url.searchParams.delete('compare');
      else url.searchParams.set('compare', compare);
      window.history.replaceState(window.history.state, '', url);
    }, 120);
    return () => clearTimeout(timer);
  }, [currentTurn, compareTurn, mine, n]);

  // Play: one turn per tick at the chosen speed, stopping at the last turn.
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const s = useReplay.getState();
      if (s.index >= n - 1) s.set({ playing: false });
      else s.set({ index: s.index + 1 });
    }, 700 / speed);
    return () => clearInterval(timer);
  }, [playing, speed, n]);

  // When the session grows: refresh the windows that hold the new turns; following, go to the newest.
  const lastCount = useRef(n);
  useEffect(() => {
    if (n > lastCount.current && lastCount.current > 0) {
      const from = Math.floor((lastCount.current - 1) / WINDOW);
      for (let k = from; k <= Math.floor((n - 1) / WINDOW); k++) {
        void qc.invalidateQueries({ queryKey: windowOf(k).queryKey });
        void qc.invalidateQueries({ queryKey: blameOf(k).queryKey });
        void qc.invalidateQueries({ queryKey: eventsOf(k).queryKey });
      }
      if (follow) set({ index: n - 1 });
    }
    lastCount.current = n;
  }, [n, follow, set, qc, windowOf, blameOf, eventsOf]);

  const gotoRef = useRef<HTMLInputElement>(null);
  // What the box held before is selected, so that the turn typed replaces it (g then 999 is turn 999, not 32999).
  const openGoto = useCallback(() => (gotoRef.current?.focus(), gotoRef.current?.select()), []);
  // n (or the button) annotates the turn, or the term or artifact that has the focus; the dialog lists the others.
  const showAnnotate = useAnnotate((a) => a.show);
  const openAnnotate = useCallback(() => {
    if (currentTurn === null) return;
    const ids = detail
      ? [...new Set([...detail.recalled, ...detail.qualified].map((r) => (typeof r === 'string' ? r : r.id)))]
      : [];
    showAnnotate(turnTargets(id, currentTurn, detail?.ccs ?? null, ids), focusedTarget(document.activeElement));
  }, [id, currentTurn, detail, showAnnotate]);
  useReplayKeys(n, openGoto, openAnnotate);
  // The turns that carry annotations: marks on the timeline.
  const annotatedQ = useQuery(trpc.annotations.turns.queryOptions({ sessionId: id }));
  const annotated = useMemo(
    () => (annotatedQ.data ?? []).filter((a) => hasTurn(runs, a.turn)).map((a) => indexOfTurnInRuns(runs, a.turn)),
    [annotatedQ.data, runs],
  );
  const annotatedHere = annotatedQ.data?.find((a) => a.turn === currentTurn)?.n ?? 0;
  // The player moves once the digest has said which turns there are (before it, the server-rendered turn stays).
  const jumpToTurn = useCallback(
    (turn: number) => {
      if (runs.length) set({ index: indexOfTurnInRuns(runs, turn), playing: false });
    },
    [runs, set],
  );
  const jumpToIndex = useCallback(
    (i: number) => {
      if (n) set({ index: Math.max(0, Math.min(n - 1, i)), playing: false });
    },
    [n, set],
  );
  // An alert opens its turn with the diff against the turn before, where the change is.
  const openAlert = useCallback(
    (i: number) => set({ index: i, playing: false, compareIndex: null, tab: 'diff' }),
    [set],
  );

  const shape = shapeQ.data;
  const series = useMemo(() => {
    // Before the digest, the shape names the series that have values (a chart leaves out the others).
    const keys = digest ? Object.keys(digest.series) : (shape?.series ?? []);
    const of = (key: string, label: string) => ({ key, label, m4: digest?.series[key] ?? NO_VALUES });
    const judge = keys.filter((k) => k.startsWith('judge.'));
    const work = (key: string, label: string) => (keys.includes(key) ? [of(key, label)] : []);
    return {
      footprint: [
        of('footprint.ccs', 'CCS'),
        of('footprint.transcript', 'transcript'),
        of('footprint.retrieval', 'retrieval'),
      ],
      anomalies: [of('h', 'H_t'), of('d', 'D_t')],
      judge: judge.map((k) => of(k, k.slice('judge.'.length).replace(/_/g, ' '))),
      // A traced agent's work per turn (whole OTLP traces: its turns' own latency at least); absent for others.
      tokens: work('usage.tokens', 'tokens'),
      cost: work('usage.cost', 'cost'),
      latency: work('usage.latency', 'latency'),
    };
  }, [digest, shape]);
  // The series with a value in this session (as the digest has it, or before it the shape).
  const withValues = useMemo(
    () =>
      new Set(
        Object.values(series)
          .flat()
          .filter((x) => (digest ? x.m4.max.some((v) => v !== null) : (shape?.series ?? []).includes(x.key)))
          .map((x) => x.key),
      ),
    [series, digest, shape],
  );
  // The current turn's own figures, exact, for the charts' legends.
  const current = useMemo(() => {
    if (!detail) return undefined;
    const out: Record<string, number | null> = {
      'footprint.ccs': detail.footprint?.ccs ?? null,
      'footprint.transcript': detail.footprint?.transcript ?? null,
      'footprint.retrieval': detail.footprint?.retrieval ?? null,
      h: detail.hallucination,
      d: detail.drift,
    };
    for (const s of series.judge) out[s.key] = detail.judge?.[s.key.slice('judge.'.length)] ?? null;
    const usage = usageFigures(detail.usage);
    out['usage.tokens'] = usage.tokens;
    out['usage.cost'] = usage.cost;
    out['usage.latency'] = usage.latency;
    return out;
  }, [detail, series.judge]);

  const ccs = detail?.ccs ?? null;
  const compared = compareQ.data?.[0];
  const baseCcs: CcsTerms | undefined =
    compareIndex !== null ? (compareQ.isFetching ? undefined : compared?.ccs) : i > 0 ? prev?.ccs : EMPTY_CCS;
  const diff = useMemo(() => (ccs && baseCcs ? diffCcs(baseCcs, ccs) : null), [ccs, baseCcs]);
  // A turn with no CCS that carries a graph state (a LangGraph turn) shows the state as JSON, diffed path by path
  // against the same turn the CCS would be (the previous one, or the compare turn); undefined while that one loads.
  const graphState = detail && isEmptyCcs(detail.ccs) && detail.state !== null ? detail.state : undefined;
  const baseState =
    compareIndex !== null
      ? compareQ.isFetching || !compared
        ? undefined
        : compared.state
      : i > 0
        ? prev?.state
        : null;
  const stateChanges = useMemo(
    () => (graphState !== undefined && baseState !== undefined ? diffStates(baseState ?? undefined, graphState) : null),
    [graphState, baseState],
  );
  const langgraph = useMemo(() => (detail ? langGraphTurnOf(detail.langgraph) : null), [detail]);
  const blameData = blameQ.data;
  const blame = useCallback(
    (field: string, term: string) => {
      const b = blameData?.terms[`${field}\u0000${term}`];
      if (!b) return undefined;
      const history = [
        ...b.first.map(termEventLabel),
        ...(b.total > BLAME_COUNT_CAP
          ? [`and over ${BLAME_COUNT_CAP - b.first.length} more`]
          : b.total > b.first.length
            ? [`and ${b.total - b.first.length} more`]
            : []),
      ].join(' · ');
      const k = currentTurn === null ? -1 : (blameData?.turns.indexOf(currentTurn) ?? -1);
      return { introduced: k < 0 ? null : (b.introduced[k] ?? null), history };
    },
    [blameData, currentTurn],
  );

  if (session.error) return <QueryError query={session} />;
  if (digestQ.error) return <QueryError query={digestQ} />;
  const s = session.data;
  const origin = forkOrigin(s?.metadata);
  const base = compareIndex !== null ? compareIndex : i > 0 ? i - 1 : null;
  const changedNothing =
    i > 0 && compareIndex === null && (graphState !== undefined ? stateChanges?.length === 0 : diff?.same);
  // Until the digest has come, the session's own figures (kept as turns arrive) fill the head.
  const first = digest ? digest.firstAt : s?.firstAt;
  const last = digest ? digest.lastAt : s?.lastAt;
  const count = digest ? n : s?.turnCount;
  const span = count === undefined ? '' : fmtSpan(first, last, count);
  const stress = stressAt.get(i);
  // The charts of the mind (footprint, H_t and D_t, the judge) and of a traced agent's work; one with no value in this
  // session is only named.
  const mind = [
    { title: 'Memory footprint', list: series.footprint, format: fmtTokens },
    { title: 'Hallucination and drift', list: series.anomalies, format: fmtRate },
    { title: 'Judge', list: series.judge, format: fmtScore1 },
  ];
  const work = [
    { title: 'Tokens per turn', list: series.tokens, format: fmtTokens },
    { title: 'Cost per turn', list: series.cost, format: fmtCost },
    { title: 'Latency per turn', list: series.latency, format: fmtLatency },
  ];
  const reported = (c: (typeof mind)[number]) => c.list.some((x) => withValues.has(x.key));
  // Those of the mind always (every agent has them); a traced agent's work only when it reported some of it.
  const unreported = [...mind, ...(work.some(reported) ? work : [])].filter((c) => !reported(c));
  // A per-turn chart linked to the player (the digest's series, the cursor at the current turn).
  // Before the digest has come, with the head it will have (the current turn's figures) and a placeholder plot.
  const chart = (title: string, list: (typeof series)['judge'], format: (v: number | null) => string) => (
    <SeriesChart
      title={title}
      series={list}
      n={n}
      size={digest?.size ?? 1}
      turnAt={turnAt}
      stress={digest?.stress ?? NO_STRESS}
      index={i}
      current={current}
      format={format}
      onJump={jumpToIndex}
      pending={digest ? undefined : (shape?.series ?? [])}
    />
  );

  return (
    <div
      className="replay"
      data-live={pushed !== null ? 'push' : 'poll'}
      // The server rendered the turn; this says the rest (timeline, charts, alerts, terms' history) is drawn too.
      data-complete={digest && !blameQ.isPending ? '' : undefined}
    >
      <Crumbs parents={[{ href: '/sessions', label: 'Sessions' }]} current={{ label: id, mono: true }} />
      <div className="page-head">
        <div>
          <h1>
            <MemoryText text={s?.title ?? id} />
          </h1>
          <div className="sub">
            <span className="mono">{s?.agentId ?? '…'}</span>
            {s?.domain ? <> · {s.domain.replace(/_/g, ' ')}</> : null}
            {first ? (
              <>
                {' '}
                · {fmtDateTime(first)}
                {span ? <> · {span}</> : null}
              </>
            ) : null}{' '}
            · {count === undefined ? '… turns' : plural(count, 'turn')}
          </div>
        </div>
        <div className="toolbar">
          {/* A fork corrects a CCS: a traced or graph-state turn without one has nothing to fork. */}
          {currentTurn !== null && !(detail && isEmptyCcs(detail.ccs)) ? (
            <ForkButton sessionId={id} turn={currentTurn} ccs={detail?.ccs ?? null} />
          ) : null}
          <Link
            className="btn"
            href={`/compare?a=${encodeURIComponent(id)}${currentTurn === null ? '' : `&turn=${currentTurn}`}`}
            // Its address changes with every step: prefetching it would be one request a key press.
            prefetch={false}
            data-testid="compare-runs-link"
          >
            Compare with another run
          </Link>
          <label className="muted nowrap">
            <input
              type="checkbox"
              checked={follow}
              onChange={(e) => setFollow(e.target.checked)}
              data-testid="follow-live"
            />{' '}
            Follow live
          </label>
          <button
            type="button"
            className="btn"
            onClick={() => set({ showShortcuts: true })}
            title="Keyboard shortcuts (?)"
          >
            ?
          </button>
        </div>
      </div>

      {/* A live region that is there from the start: filled once the digest says which turns there are. */}
      <div role="status">
        {linkMisses.length && dismissed !== missKey ? (
          <div className="banner warn toolbar" data-testid="link-misses">
            <span>
              The link asks for what this session does not hold ({heldTurns(runs)}): {linkMisses.join('; ')}.
            </span>
            <button
              type="button"
              className="btn btn-small"
              // Its button goes with it: focus moves to the go-to box, not to the page's start.
              onClick={() => (setDismissed(missKey), gotoRef.current?.focus())}
            >
              Dismiss
            </button>
          </div>
        ) : null}
      </div>
      {origin ? (
        <div className="banner" data-testid="fork-origin">
          A fork of{' '}
          <Link className="mono" href={`/sessions/${encodeURIComponent(origin.session)}?turn=${origin.turn}`}>
            {origin.session}
          </Link>{' '}
          at turn {origin.turn}
          {origin.by ? `, by ${origin.by}` : ''}: its first turn holds the corrected CCS the agent resumes from.{' '}
          <Link
            href={`/compare?a=${encodeURIComponent(origin.session)}&b=${encodeURIComponent(id)}&turn=${origin.turn}`}
          >
            Compare with it
          </Link>
        </div>
      ) : null}
      {forksQ.data?.length ? (
        <div className="faint" style={{ marginBottom: 8 }} data-testid="forks">
          Forks:{' '}
          {forksQ.data.map((f, k) => (
            <span key={f.id}>
              {k ? ' · ' : ''}
              <Link className="mono" href={`/sessions/${encodeURIComponent(f.id)}`}>
                {f.id}
              </Link>{' '}
              (turn {f.turn})
            </span>
          ))}
        </div>
      ) : null}
      {digest && !n ? (
        <Panel as="div" body={false}>
          <EmptyState title="This session has no turns yet">
            Turns appear here as the agent sends them; tick Follow live.
          </EmptyState>
        </Panel>
      ) : !digest && currentTurn === null ? (
        <Panel as="div" padded>
          <div className="skeleton" />
        </Panel>
      ) : (
        <>
          <Panel as="div" className="player" testId="player" body={false}>
            <div className="player-controls">
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => jumpToIndex(0)}
                title="First turn (Home)"
                aria-label="First turn"
                disabled={!n}
              >
                <Icon d="M5 4v16M19 4 8 12l11 8z" />
              </button>
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => jumpToIndex(i - 1)}
                title="Previous turn (← or k)"
                aria-label="Previous turn"
                disabled={!n}
              >
                <Icon d="M17 4 6 12l11 8z" />
              </button>
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => set({ playing: !playing && i < n - 1 })}
                title="Play / pause (space)"
                aria-label={playing ? 'Pause' : 'Play'}
                disabled={!n}
              >
                {playing ? <Icon d="M7 4h3v16H7zM14 4h3v16h-3z" /> : <Icon d="M7 4l12 8-12 8z" />}
              </button>
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => jumpToIndex(i + 1)}
                title="Next turn (→ or j)"
                aria-label="Next turn"
                disabled={!n}
              >
                <Icon d="M7 4l11 8-11 8z" />
              </button>
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => jumpToIndex(n - 1)}
                title="Last turn (End)"
                aria-label="Last turn"
                disabled={!n}
              >
                <Icon d="M19 4v16M5 4l11 8-11 8z" />
              </button>
              <select
                className="select"
                aria-label="Speed"
                value={speed}
                onChange={(e) => set({ speed: Number(e.target.value) as (typeof SPEEDS)[number] })}
              >
                {SPEEDS.map((v) => (
                  <option key={v} value={v}>
                    {v}×
                  </option>
                ))}
              </select>
              <span className="turn-readout" data-testid="turn-readout">
                Turn <b>{currentTurn === null ? null : fmtInt(currentTurn)}</b>{' '}
                <span className="faint">
                  ({fmtInt(i + 1)} of {count === undefined ? '…' : fmtInt(count)})
                </span>
              </span>
              <TurnForm
                runs={runs}
                label="Go to turn"
                errorId="goto-error"
                clear
                onTurn={(turn) => turn !== null && jumpToTurn(turn)}
                input={{ ref: gotoRef, style: { width: 90 }, placeholder: 'go to (g)', disabled: !n }}
              />
              {changedNothing ? (
                <span className="badge" data-testid="no-change">
                  state unchanged
                </span>
              ) : null}
              {stress ? <span className="badge danger">stress: {stress}</span> : null}
              <span className="grow" />
              <label className="muted nowrap toolbar">
                Compare with
                <CompareInput
                  runs={runs}
                  value={compareIndex}
                  onChange={(v) => set({ compareIndex: v, tab: v === null ? useReplay.getState().tab : 'diff' })}
                  disabled={!n}
                />
              </label>
            </div>
            {digest ? (
              <Timeline digest={digest} turnAt={turnAt} index={i} onSeek={jumpToIndex} annotated={annotated} />
            ) : (
              <div className="timeline-pending skeleton" />
            )}
          </Panel>

          {digest || shape ? (
            <>
              {[mind, work].map((row, k) =>
                row.some(reported) ? (
                  <div key={k} className="charts-row" data-testid={k ? 'work-charts' : 'mind-charts'}>
                    {row.filter(reported).map((c) => (
                      <Fragment key={c.title}>{chart(c.title, c.list, c.format)}</Fragment>
                    ))}
                  </div>
                ) : null,
              )}
              {unreported.length ? (
                // A chart with nothing to plot is one line here, not a panel that says so.
                <p className="muted not-reported-charts" data-testid="charts-not-reported">
                  Not reported in this session: {unreported.map((c) => c.title.toLowerCase()).join(', ')}.
                </p>
              ) : null}

              <AlertsPanel
                counts={digest ? digest.alertCounts : shape?.alertCounts}
                alerts={digest?.alerts ?? null}
                turnAt={turnAt}
                index={i}
                onOpen={openAlert}
              />
            </>
          ) : (
            // No digest stored yet (the session's first view): boxes of the charts' and alerts' usual size.
            <>
              <div className="charts-row" data-testid="charts-pending">
                {[0, 1, 2].map((k) => (
                  <div key={k} className="chart chart-pending">
                    <div className="skeleton" style={{ width: '40%' }} />
                  </div>
                ))}
              </div>
              <Panel as="div" className="alerts-pending" padded>
                <div className="skeleton" style={{ width: '30%' }} />
              </Panel>
            </>
          )}

          {currentTurn !== null ? (
            <div className="replay-main">
              {graphState !== undefined ? (
                <StatePanel
                  turn={currentTurn}
                  state={graphState}
                  changes={stateChanges}
                  baseTurn={base === null ? null : n ? turnAt(base) : prevTurn}
                  langgraph={langgraph}
                />
              ) : ccs && diff ? (
                <CcsPanel
                  turn={currentTurn}
                  ccs={ccs}
                  ccsRaw={detail ? (detail.ccsRaw ?? detail.ccs) : undefined}
                  diff={diff}
                  baseTurn={base === null ? null : n ? turnAt(base) : prevTurn}
                  blame={blame}
                  onJump={jumpToTurn}
                />
              ) : (
                <Panel
                  as="div"
                  testId="ccs-panel-loading"
                  title={<>CCS at turn {currentTurn === null ? null : fmtInt(currentTurn)}</>}
                >
                  <div className="skeleton" />
                  <div className="skeleton" style={{ marginTop: 8, width: '60%' }} />
                </Panel>
              )}
              {detail ? (
                <TurnPanel
                  input={detail.input}
                  output={detail.output}
                  recalled={detail.recalled}
                  qualified={detail.qualified}
                  artifacts={artifacts}
                  focus={focusArtifact}
                  calls={detail.calls}
                  usage={detail.usage}
                  langgraph={langgraph}
                  events={turnEvents}
                  others={detail.others}
                />
              ) : (
                <Panel as="div" testId="turn-panel-loading" title="The turn">
                  <div className="skeleton" />
                  <div className="skeleton" style={{ marginTop: 8, width: '70%' }} />
                </Panel>
              )}
            </div>
          ) : null}

          {currentTurn !== null ? (
            <Panel
              style={{ marginTop: 14 }}
              labelledBy="turn-annotations"
              title={
                <>
                  <h2 id="turn-annotations" className="panel-title">
                    Annotations at turn {currentTurn}{' '}
                    <span className="faint">{annotatedHere ? `${annotatedHere} here` : 'none here yet'}</span>
                  </h2>
                  <span className="grow" />
                  <button type="button" className="btn btn-small" onClick={openAnnotate} data-testid="annotate-turn">
                    Annotate <kbd>n</kbd>
                  </button>
                </>
              }
            >
              {annotatedQ.data && !annotatedHere ? (
                // The timeline's counts say this turn has none: no request (and no loading shimmer) a step.
                <div className="faint" data-testid="turn-annotations-empty">
                  {TURN_ANNOTATIONS_EMPTY}
                </div>
              ) : (
                <AnnotationList
                  filter={{ sessionId: id, turn: currentTurn }}
                  empty={TURN_ANNOTATIONS_EMPTY}
                  testId="turn-annotations"
                />
              )}
            </Panel>
          ) : null}

          {digest ? (
            <Panel
              as="div"
              style={{ marginTop: 14 }}
              title={
                <>
                  Constraint retention{' '}
                  <span className="faint">
                    each bar: the turns a constraint was in the CCS; click to jump, or a name for its next change · the
                    % counts the turns since it first appeared
                  </span>
                </>
              }
            >
              <ConstraintTimeline digest={digest} index={i} onJump={jumpToIndex} />
            </Panel>
          ) : null}
        </>
      )}
      <ShortcutsDialog
        shortcuts={SHORTCUTS}
        open={player.showShortcuts}
        onOpenChange={(open) => set({ showShortcuts: open })}
      />
      <AnnotateDialog />
    </div>
  );
}
