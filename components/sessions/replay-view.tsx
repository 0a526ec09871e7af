'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { ErrorBox, EmptyState } from '@/components/ui/states';
import { buildHistory } from '@/lib/ccs/provenance';
import { decodeCcs, indexOfTurn, parseOutline, TURN_WINDOW as WINDOW } from '@/lib/ccs/outline';
import { diffCcs } from '@/lib/ccs/diff';
import { fmtDateTime, fmtDuration, fmtInt, fmtRate, fmtTokens } from '@/lib/format';
import { CcsPanel } from './ccs-panel';
import { ConstraintTimeline } from './constraint-timeline';
import { SeriesChart } from './series-chart';
import { ShortcutsDialog } from './shortcuts';
import { SPEEDS, useReplay } from './store';
import { Timeline } from './timeline';
import { TurnPanel } from './turn-panel';
import { useReplayKeys } from './use-replay-keys';

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

const fmtScore1 = (v: number | null) => (v === null ? '—' : v.toFixed(1));

/** Compare mode: a turn number to diff against, instead of the previous turn. */
function CompareInput({
  turns,
  value,
  onChange,
}: {
  turns: number[];
  value: number | null;
  onChange: (v: number | null) => void;
}) {
  return (
    <form
      className="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        const raw = (new FormData(e.currentTarget).get('turn') as string).trim();
        onChange(raw === '' ? null : indexOfTurn(turns, Number(raw)));
        (document.activeElement as HTMLElement | null)?.blur();
      }}
    >
      <input
        key={value ?? 'none'}
        name="turn"
        className="input"
        style={{ width: 120 }}
        aria-label="Compare with turn"
        placeholder="previous turn"
        inputMode="numeric"
        defaultValue={value === null ? '' : String(turns[value])}
      />
      {value !== null ? (
        <button type="button" className="btn" onClick={() => onChange(null)}>
          vs previous
        </button>
      ) : null}
    </form>
  );
}

export function ReplayView({ id, initialTurn }: { id: string; initialTurn: number | null }) {
  const trpc = useTRPC();
  const { index, playing, speed, compareIndex, set } = useReplay();
  const [follow, setFollow] = useState(false);
  const qc = useQueryClient();
  const session = useQuery(trpc.sessions.byId.queryOptions({ id }));
  // New turns appear while an agent is still sending them: the page polls the outline's stamp (a few bytes) and
  // fetches the outline again only when the stamp moves on. "Follow live" also moves the player to the newest turn.
  const outlineQ = useQuery({ ...trpc.sessions.outline.queryOptions({ id }), staleTime: Infinity });
  const stampQ = useQuery({ ...trpc.sessions.outlineStamp.queryOptions({ id }), refetchInterval: 2500 });
  const artifactsQ = useQuery(trpc.sessions.artifacts.queryOptions({ id }));
  const outline = useMemo(() => (outlineQ.data ? parseOutline(outlineQ.data) : null), [outlineQ.data]);
  const outlineKey = useMemo(() => trpc.sessions.outline.queryKey({ id }), [trpc, id]);
  useEffect(() => {
    if (stampQ.data && outline?.stamp !== undefined && stampQ.data !== outline.stamp && !outlineQ.isFetching)
      void qc.invalidateQueries({ queryKey: outlineKey });
  }, [stampQ.data, outline, outlineQ.isFetching, qc, outlineKey]);
  const turnNumbers = useMemo(() => outline?.turns ?? [], [outline]);
  const history = useMemo(
    () => buildHistory(turnNumbers.map((turn, k) => ({ turn, ccs: decodeCcs(outline!, k) }))),
    [outline, turnNumbers],
  );
  const stress = useMemo(() => outline?.stress ?? [], [outline]);
  const artifacts = useMemo(() => new Map((artifactsQ.data ?? []).map((a) => [a.id, a])), [artifactsQ.data]);
  const n = turnNumbers.length;
  const i = Math.min(index, Math.max(0, n - 1));

  // Full turns (input, output, artifacts, raw CCS) come in windows around the playhead; the
  // neighbouring windows are fetched ahead so stepping across a boundary does not wait.
  const w = Math.floor(i / WINDOW);
  const lastWindow = Math.floor(Math.max(0, n - 1) / WINDOW);
  const windowQ = useQuery(trpc.sessions.window.queryOptions({ id, offset: w * WINDOW, limit: WINDOW }));
  useEffect(() => {
    for (const k of [w - 1, w + 1])
      if (k >= 0 && k <= lastWindow)
        void qc.prefetchQuery(trpc.sessions.window.queryOptions({ id, offset: k * WINDOW, limit: WINDOW }));
  }, [w, lastWindow, id, qc, trpc]);
  const detail = windowQ.data?.find((t) => t.turn === turnNumbers[i]);

  // Opening a session starts at the turn in the URL (?turn=17), or the first.
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (!n || opened.current === id) return;
    opened.current = id;
    set({
      index: initialTurn === null ? 0 : indexOfTurn(turnNumbers, initialTurn),
      playing: false,
      compareIndex: null,
    });
  }, [id, n, turnNumbers, initialTurn, set]);

  // The current turn lives in the URL, so a link opens exactly this moment. Written once stepping
  // pauses: rewriting history on every key press of a fast scrub costs frames.
  const currentTurn = n ? turnNumbers[i]! : null;
  useEffect(() => {
    if (currentTurn === null || opened.current !== id) return;
    const timer = setTimeout(() => {
      const url = new URL(window.location.href);
      if (url.searchParams.get('turn') === String(currentTurn)) return;
      url.searchParams.set('turn', String(currentTurn));
      window.history.replaceState(window.history.state, '', url);
    }, 120);
    return () => clearTimeout(timer);
  }, [currentTurn, id]);

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

  // When the session grows: refresh the window that holds the new turns; following, go to the newest.
  const lastCount = useRef(n);
  useEffect(() => {
    if (n > lastCount.current && lastCount.current > 0) {
      const from = Math.floor((lastCount.current - 1) / WINDOW);
      for (let k = from; k <= Math.floor((n - 1) / WINDOW); k++)
        void qc.invalidateQueries({
          queryKey: trpc.sessions.window.queryKey({ id, offset: k * WINDOW, limit: WINDOW }),
        });
      if (follow) set({ index: n - 1 });
    }
    lastCount.current = n;
  }, [n, follow, set, qc, trpc, id]);

  const gotoRef = useRef<HTMLInputElement>(null);
  const openGoto = useCallback(() => gotoRef.current?.focus(), []);
  useReplayKeys(n, openGoto);
  const jumpToTurn = useCallback(
    (turn: number) => set({ index: indexOfTurn(turnNumbers, turn), playing: false }),
    [turnNumbers, set],
  );
  const jumpToIndex = useCallback((i: number) => set({ index: i, playing: false }), [set]);

  const series = useMemo(() => {
    const o = outline;
    const none: (number | null)[] = [];
    return {
      footprint: [
        { key: 'ccs', label: 'CCS', values: o?.footprint.ccs ?? none },
        { key: 'transcript', label: 'transcript', values: o?.footprint.transcript ?? none },
        { key: 'retrieval', label: 'retrieval', values: o?.footprint.retrieval ?? none },
      ],
      anomalies: [
        { key: 'h', label: 'H_t', values: o?.hallucination ?? none },
        { key: 'd', label: 'D_t', values: o?.drift ?? none },
      ],
      judge: Object.entries(o?.judge ?? {}).map(([k, values]) => ({ key: k, label: k.replace(/_/g, ' '), values })),
    };
  }, [outline]);

  if (session.error) return <ErrorBox error={session.error} />;
  if (outlineQ.error) return <ErrorBox error={outlineQ.error} />;
  const s = session.data;
  const base = compareIndex !== null ? compareIndex : i > 0 ? i - 1 : null;
  const ccs = n && outline ? decodeCcs(outline, i) : null;
  const diff =
    ccs && outline
      ? compareIndex === null
        ? history.diffs[i]!
        : diffCcs(decodeCcs(outline, compareIndex), ccs)
      : null;
  const changedNothing = i > 0 && compareIndex === null && history.diffs[i]?.same;
  const first = outline?.timestamps[0];
  const last = outline?.timestamps.at(-1);

  return (
    <div className="replay">
      <div className="crumbs">
        <Link href="/sessions">Sessions</Link> / <span className="mono">{id}</span>
      </div>
      <div className="page-head">
        <div>
          <h1>{s?.title ?? id}</h1>
          <div className="sub">
            <span className="mono">{s?.agentId ?? '…'}</span>
            {s?.domain ? <> · {s.domain.replace(/_/g, ' ')}</> : null}
            {first ? (
              <>
                {' '}
                · {fmtDateTime(first)} · {fmtDuration(last && first ? Date.parse(last) - Date.parse(first) : null)}
              </>
            ) : null}{' '}
            · {fmtInt(n)} turns
          </div>
        </div>
        <div className="toolbar">
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

      {!n ? (
        outlineQ.isPending ? (
          <div className="panel panel-body">
            <div className="skeleton" />
          </div>
        ) : (
          <div className="panel">
            <EmptyState title="This session has no turns yet">
              Turns appear here as the agent sends them; tick Follow live.
            </EmptyState>
          </div>
        )
      ) : (
        <>
          <div className="panel player" data-testid="player">
            <div className="player-controls">
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => jumpToIndex(0)}
                title="First turn (Home)"
                aria-label="First turn"
              >
                <Icon d="M5 4v16M19 4 8 12l11 8z" />
              </button>
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => jumpToIndex(Math.max(0, i - 1))}
                title="Previous turn (← or k)"
                aria-label="Previous turn"
              >
                <Icon d="M17 4 6 12l11 8z" />
              </button>
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => set({ playing: !playing && i < n - 1 })}
                title="Play / pause (space)"
                aria-label={playing ? 'Pause' : 'Play'}
              >
                {playing ? <Icon d="M7 4h3v16H7zM14 4h3v16h-3z" /> : <Icon d="M7 4l12 8-12 8z" />}
              </button>
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => jumpToIndex(Math.min(n - 1, i + 1))}
                title="Next turn (→ or j)"
                aria-label="Next turn"
              >
                <Icon d="M7 4l11 8-11 8z" />
              </button>
              <button
                type="button"
                className="btn icon-btn"
                onClick={() => jumpToIndex(n - 1)}
                title="Last turn (End)"
                aria-label="Last turn"
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
                Turn <b>{currentTurn}</b>{' '}
                <span className="faint">
                  ({i + 1} of {n})
                </span>
              </span>
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  const v = Number(gotoRef.current?.value);
                  if (Number.isFinite(v)) jumpToTurn(v);
                  gotoRef.current?.blur();
                }}
              >
                <input
                  ref={gotoRef}
                  className="input"
                  style={{ width: 90 }}
                  placeholder="go to (g)"
                  aria-label="Go to turn"
                  inputMode="numeric"
                />
              </form>
              {changedNothing ? (
                <span className="badge" data-testid="no-change">
                  state unchanged
                </span>
              ) : null}
              {stress[i] ? <span className="badge danger">stress: {stress[i]}</span> : null}
              <span className="grow" />
              <label className="muted nowrap toolbar">
                Compare with
                <CompareInput
                  turns={turnNumbers}
                  value={compareIndex}
                  onChange={(v) => set({ compareIndex: v, tab: v === null ? useReplay.getState().tab : 'diff' })}
                />
              </label>
            </div>
            <Timeline history={history} stress={stress} index={i} onSeek={jumpToIndex} />
          </div>

          <div className="charts-row">
            <SeriesChart
              title="Memory footprint"
              series={series.footprint}
              turns={history.turns}
              stress={stress}
              index={i}
              format={fmtTokens}
              onJump={jumpToIndex}
            />
            <SeriesChart
              title="Hallucination and drift"
              series={series.anomalies}
              turns={history.turns}
              stress={stress}
              index={i}
              format={fmtRate}
              onJump={jumpToIndex}
            />
            <SeriesChart
              title="Judge"
              series={series.judge}
              turns={history.turns}
              stress={stress}
              index={i}
              format={fmtScore1}
              onJump={jumpToIndex}
            />
          </div>

          {ccs && diff && currentTurn !== null ? (
            <div className="replay-main">
              <CcsPanel
                turn={currentTurn}
                ccs={ccs}
                ccsRaw={detail ? (detail.ccsRaw ?? detail.ccs) : undefined}
                diff={diff}
                baseTurn={base === null ? null : turnNumbers[base]!}
                history={history}
                onJump={jumpToTurn}
              />
              {detail ? (
                <TurnPanel
                  input={detail.input}
                  output={detail.output}
                  recalled={detail.recalled}
                  qualified={detail.qualified}
                  artifacts={artifacts}
                />
              ) : (
                <div className="panel" data-testid="turn-panel-loading">
                  <div className="panel-head">The turn</div>
                  <div className="panel-body">
                    <div className="skeleton" />
                    <div className="skeleton" style={{ marginTop: 8, width: '70%' }} />
                  </div>
                </div>
              )}
            </div>
          ) : null}

          <div className="panel" style={{ marginTop: 14 }}>
            <div className="panel-head">
              Constraint retention{' '}
              <span className="faint">each bar: the turns a constraint was in the CCS; click to jump</span>
            </div>
            <div className="panel-body">
              <ConstraintTimeline history={history} index={i} onJump={jumpToIndex} />
            </div>
          </div>
        </>
      )}
      <ShortcutsDialog />
    </div>
  );
}
