'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { ErrorBox, EmptyState } from '@/components/ui/states';
import { buildHistory } from '@/lib/ccs/provenance';
import { diffCcs } from '@/lib/ccs/diff';
import { fmtDateTime, fmtDuration, fmtInt, fmtRate, fmtTokens, mean } from '@/lib/format';
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
    <svg width="14" height="14" viewBox="0 0 24 24" fill="currentColor" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" aria-hidden>
      <path d={d} />
    </svg>
  );
}

const fmtScore1 = (v: number | null) => (v === null ? '—' : v.toFixed(1));

/** Index of the turn numbered `turn`, or of the nearest one after it (turn numbers may have gaps). */
function indexOfTurn(turns: { turn: number }[], turn: number): number {
  const i = turns.findIndex((t) => t.turn >= turn);
  return i < 0 ? turns.length - 1 : i;
}

/** Memoised: a long session has thousands of options, which must not re-render on every step. */
const CompareSelect = memo(function CompareSelect({ turns, value, onChange }: { turns: number[]; value: number | null; onChange: (v: number | null) => void }) {
  return (
    <select className="select" aria-label="Compare with" value={value ?? ''} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}>
      <option value="">previous turn</option>
      {turns.map((t, k) => (
        <option key={t} value={k}>
          turn {t}
        </option>
      ))}
    </select>
  );
});

export function ReplayView({ id, initialTurn }: { id: string; initialTurn: number | null }) {
  const trpc = useTRPC();
  const { index, playing, speed, compareIndex, set } = useReplay();
  const [follow, setFollow] = useState(false);
  const session = useQuery(trpc.session.byId.queryOptions({ id }));
  const turnsQ = useQuery({ ...trpc.session.turns.queryOptions({ id }), refetchInterval: follow ? 2000 : false });
  const artifactsQ = useQuery(trpc.session.artifacts.queryOptions({ id }));
  const turns = useMemo(() => turnsQ.data ?? [], [turnsQ.data]);
  const history = useMemo(() => buildHistory(turns), [turns]);
  const stress = useMemo(() => turns.map((t) => t.stress), [turns]);
  const artifacts = useMemo(() => new Map((artifactsQ.data ?? []).map((a) => [a.id, a])), [artifactsQ.data]);
  const n = turns.length;

  // Opening a session starts at the turn in the URL (?turn=17), or the first.
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (!n || opened.current === id) return;
    opened.current = id;
    set({ index: initialTurn === null ? 0 : indexOfTurn(turns, initialTurn), playing: false, compareIndex: null });
  }, [id, n, turns, initialTurn, set]);

  // The current turn lives in the URL, so a link opens exactly this moment. Written once stepping
  // pauses: rewriting history on every key press of a fast scrub costs frames.
  const current = turns[Math.min(index, n - 1)];
  useEffect(() => {
    if (!current || opened.current !== id) return;
    const timer = setTimeout(() => {
      const url = new URL(window.location.href);
      if (url.searchParams.get('turn') === String(current.turn)) return;
      url.searchParams.set('turn', String(current.turn));
      window.history.replaceState(window.history.state, '', url);
    }, 120);
    return () => clearTimeout(timer);
  }, [current, id]);

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

  // Follow live: new turns move the player to the newest one.
  const lastCount = useRef(n);
  useEffect(() => {
    if (follow && n > lastCount.current) set({ index: n - 1 });
    lastCount.current = n;
  }, [n, follow, set]);

  const gotoRef = useRef<HTMLInputElement>(null);
  const openGoto = useCallback(() => gotoRef.current?.focus(), []);
  useReplayKeys(n, openGoto);
  const jumpToTurn = useCallback((turn: number) => set({ index: indexOfTurn(turns, turn), playing: false }), [turns, set]);
  const jumpToIndex = useCallback((i: number) => set({ index: i, playing: false }), [set]);

  const series = useMemo(
    () => ({
      footprint: [
        { key: 'ccs', label: 'CCS', values: turns.map((t) => t.footprint?.ccs ?? null) },
        { key: 'transcript', label: 'transcript', values: turns.map((t) => t.footprint?.transcript ?? null) },
        { key: 'retrieval', label: 'retrieval', values: turns.map((t) => t.footprint?.retrieval ?? null) },
      ],
      anomalies: [
        { key: 'h', label: 'H_t', values: turns.map((t) => t.hallucination) },
        { key: 'd', label: 'D_t', values: turns.map((t) => t.drift) },
      ],
      judge: [{ key: 'judge', label: 'mean judge', values: turns.map((t) => mean(Object.values(t.judge ?? {}))) }],
    }),
    [turns],
  );

  if (session.error) return <ErrorBox error={session.error} />;
  if (turnsQ.error) return <ErrorBox error={turnsQ.error} />;
  const s = session.data;
  const i = Math.min(index, Math.max(0, n - 1));
  const base = compareIndex !== null ? compareIndex : i > 0 ? i - 1 : null;
  const diff = current ? diffCcs(base === null ? {} : turns[base]!.ccs, current.ccs) : null;
  const changedNothing = i > 0 && compareIndex === null && history.diffs[i]?.same;
  const first = turns[0]?.timestamp;
  const last = turns.at(-1)?.timestamp;

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
            {first ? <> · {fmtDateTime(first)} · {fmtDuration(last && first ? Date.parse(last) - Date.parse(first) : null)}</> : null} · {fmtInt(n)} turns
          </div>
        </div>
        <div className="toolbar">
          <label className="muted nowrap">
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} data-testid="follow-live" /> Follow live
          </label>
          <button type="button" className="btn" onClick={() => set({ showShortcuts: true })} title="Keyboard shortcuts (?)">
            ?
          </button>
        </div>
      </div>

      {!n ? (
        turnsQ.isPending ? (
          <div className="panel panel-body"><div className="skeleton" /></div>
        ) : (
          <div className="panel"><EmptyState title="This session has no turns yet">Turns appear here as the agent sends them; tick Follow live.</EmptyState></div>
        )
      ) : (
        <>
          <div className="panel player" data-testid="player">
            <div className="player-controls">
              <button type="button" className="btn icon-btn" onClick={() => jumpToIndex(0)} title="First turn (Home)" aria-label="First turn"><Icon d="M5 4v16M19 4 8 12l11 8z" /></button>
              <button type="button" className="btn icon-btn" onClick={() => jumpToIndex(Math.max(0, i - 1))} title="Previous turn (← or k)" aria-label="Previous turn"><Icon d="M17 4 6 12l11 8z" /></button>
              <button type="button" className="btn icon-btn" onClick={() => set({ playing: !playing && i < n - 1 })} title="Play / pause (space)" aria-label={playing ? 'Pause' : 'Play'}>
                {playing ? <Icon d="M7 4h3v16H7zM14 4h3v16h-3z" /> : <Icon d="M7 4l12 8-12 8z" />}
              </button>
              <button type="button" className="btn icon-btn" onClick={() => jumpToIndex(Math.min(n - 1, i + 1))} title="Next turn (→ or j)" aria-label="Next turn"><Icon d="M7 4l11 8-11 8z" /></button>
              <button type="button" className="btn icon-btn" onClick={() => jumpToIndex(n - 1)} title="Last turn (End)" aria-label="Last turn"><Icon d="M19 4v16M5 4l11 8-11 8z" /></button>
              <select className="select" aria-label="Speed" value={speed} onChange={(e) => set({ speed: Number(e.target.value) as (typeof SPEEDS)[number] })}>
                {SPEEDS.map((v) => (
                  <option key={v} value={v}>{v}×</option>
                ))}
              </select>
              <span className="turn-readout" data-testid="turn-readout">
                Turn <b>{current?.turn}</b> <span className="faint">({i + 1} of {n})</span>
              </span>
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  const v = Number(gotoRef.current?.value);
                  if (Number.isFinite(v)) jumpToTurn(v);
                  gotoRef.current?.blur();
                }}
              >
                <input ref={gotoRef} className="input" style={{ width: 90 }} placeholder="go to (g)" aria-label="Go to turn" inputMode="numeric" />
              </form>
              {changedNothing ? <span className="badge" data-testid="no-change">state unchanged</span> : null}
              {current?.stress ? <span className="badge danger">stress: {current.stress}</span> : null}
              <span className="grow" />
              <label className="muted nowrap">
                Compare with{' '}
                <CompareSelect turns={history.turns} value={compareIndex} onChange={(v) => set({ compareIndex: v, tab: 'diff' })} />
              </label>
            </div>
            <Timeline history={history} stress={stress} index={i} onSeek={jumpToIndex} />
          </div>

          <div className="charts-row">
            <SeriesChart title="Memory footprint" series={series.footprint} turns={history.turns} stress={stress} index={i} format={fmtTokens} onJump={jumpToIndex} />
            <SeriesChart title="Hallucination and drift" series={series.anomalies} turns={history.turns} stress={stress} index={i} format={fmtRate} onJump={jumpToIndex} />
            <SeriesChart title="Judge" series={series.judge} turns={history.turns} stress={stress} index={i} format={fmtScore1} onJump={jumpToIndex} />
          </div>

          {current && diff ? (
            <div className="replay-main">
              <CcsPanel turn={current.turn} ccs={current.ccs} ccsRaw={current.ccsRaw} diff={diff} baseTurn={base === null ? null : turns[base]!.turn} history={history} onJump={jumpToTurn} />
              <TurnPanel input={current.input} output={current.output} recalled={current.recalled} qualified={current.qualified} artifacts={artifacts} />
            </div>
          ) : null}

          <div className="panel" style={{ marginTop: 14 }}>
            <div className="panel-head">
              Constraint retention <span className="faint">each bar: the turns a constraint was in the CCS; click to jump</span>
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
