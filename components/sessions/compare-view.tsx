'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { Crumbs } from '@/components/ui/crumbs';
import { Panel } from '@/components/ui/panel';
import { EmptyState } from '@/components/ui/states';
import { ALERT_KINDS, alertCount } from '@/lib/ccs/alerts';
import { inReviewOrder, type CcsTerms } from '@/lib/ccs/contract';
import { forkOrigin } from '@/lib/ccs/fork';
import { COMPARE_SHORTCUTS, ShortcutsDialog } from './shortcuts';
import {
  hasTurn,
  heldTurns,
  indexOfTurnInRuns,
  turnAt as turnAtRuns,
  TURN_WINDOW as WINDOW,
  type M4,
  type SessionDigest,
} from '@/lib/ccs/digest';
import { fmtInt, fmtRate, fmtSigned, fmtTokens, plural } from '@/lib/format';
import { countChanges, diffStates, preview, wholeValue } from '@/lib/json-state/diff';
import type { Series } from '@/lib/charts/prepare-series';
import {
  alignedIndex,
  compareQueryString,
  pairedCount,
  parseCompareQuery,
  placeOnA,
  type Alignment,
  type CompareQuery,
} from '@/lib/sessions/align';
import { SeriesChart } from './series-chart';
import { TermChip } from './term-chip';

const NO_VALUES: M4 = { first: [], min: [], max: [], last: [] };

/** One run's session, digest and the window of full turns around a position. */
function useRun(id: string | null, index: number | null) {
  const trpc = useTRPC();
  const session = useQuery({ ...trpc.sessions.byId.queryOptions({ id: id ?? '' }), enabled: !!id, retry: false });
  const digestQ = useQuery({
    ...trpc.sessions.digest.queryOptions({ id: id ?? '' }),
    enabled: !!id && !!session.data,
    staleTime: 60_000,
  });
  const digest = useMemo(() => (digestQ.data ? (JSON.parse(digestQ.data) as SessionDigest) : null), [digestQ.data]);
  const offset = index === null ? 0 : Math.floor(index / WINDOW) * WINDOW;
  const windowQ = useQuery({
    ...trpc.sessions.window.queryOptions({ id: id ?? '', offset, limit: WINDOW }),
    enabled: !!id && !!digest && index !== null,
  });
  const turn = digest && index !== null && index < digest.n ? turnAtRuns(digest.runs, index) : null;
  const detail = windowQ.data?.find((t) => t.turn === turn) ?? null;
  return { session, digest, turn, detail, error: session.error ?? digestQ.error };
}

/**
 * Two runs of the same task side by side: run B's turn beside run A's, by position (shifted by whole turns) or
 * stretched to the same length; their H_t, D_t and footprint drawn over each other; the CCS of both at the aligned
 * turns, term by term (only in A, in both, only in B). Every choice lives in the URL; values it cannot use are named.
 */
export function CompareView() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const q = useMemo(() => parseCompareQuery(Object.fromEntries(params)), [params]);
  // A position alignment this page writes is named (`align=shift`), so that a fork is not lined up again at its fork
  // point against the reviewer's choice (a link naming no alignment is).
  const go = (next: { a: string; b: string; turn: number | null; align: Alignment }) => {
    const named = next.align.mode === 'shift' && !next.align.shift ? '&align=shift' : '';
    router.replace(`${pathname}?${compareQueryString(next)}${named}`, { scroll: false });
  };

  return (
    <div className="replay">
      <Crumbs parents={[{ href: '/sessions', label: 'Sessions' }]} current={{ label: 'Compare runs' }} />
      <div className="page-head">
        <div>
          <h1>Compare runs</h1>
          <div className="sub">
            Two sessions of the same task, turn beside turn: where their states and figures part
          </div>
        </div>
      </div>
      <CompareForm key={`${q.a}\u0000${q.b}\u0000${JSON.stringify(q.align)}`} q={q} onCompare={go} />
      {q.problems.length ? (
        <div className="banner danger" role="alert" data-testid="compare-problems">
          Not used from the link: {q.problems.join('; ')}
        </div>
      ) : null}
      {q.a && q.b ? (
        <Comparison
          key={`${q.a}\u0000${q.b}`}
          a={q.a}
          b={q.b}
          turn={q.turn}
          align={q.align}
          alignChosen={params.has('align') || params.has('shift')}
          onTurn={(turn) => go({ a: q.a!, b: q.b!, turn, align: q.align })}
          onAlign={(align, turn) => go({ a: q.a!, b: q.b!, turn, align })}
        />
      ) : (
        <Panel as="div" body={false}>
          {/* The one run a link names is checked too: one that does not exist is said before the other is picked. */}
          {q.a || q.b ? <UnknownRun id={(q.a ?? q.b)!} side={q.a ? 'A' : 'B'} /> : null}
          <EmptyState title="Pick two sessions">
            Run A and run B: two runs of the same task, or one run against itself shifted by a few turns. From a replay,
            “Compare with another run” fills in A.
          </EmptyState>
        </Panel>
      )}
    </div>
  );
}

/** Says so when the run a link names is no session (or cannot be read); nothing while it is, or is being, found. */
function UnknownRun({ id, side }: { id: string; side: 'A' | 'B' }) {
  const trpc = useTRPC();
  const session = useQuery({ ...trpc.sessions.byId.queryOptions({ id }), retry: false });
  return session.error ? (
    <div className="banner danger" role="alert" data-testid="compare-error" style={{ margin: 10 }}>
      {side}: {session.error.message}
    </div>
  ) : null;
}

/** The field of the form that had the focus when it was sent (see CompareForm). */
let refocus: string | null = null;

function CompareForm({
  q,
  onCompare,
}: {
  q: CompareQuery;
  onCompare: (s: { a: string; b: string; turn: number | null; align: Alignment }) => void;
}) {
  const trpc = useTRPC();
  const [a, setA] = useState(q.a ?? '');
  const [b, setB] = useState(q.b ?? '');
  const [mode, setMode] = useState(q.align.mode);
  const [shift, setShift] = useState(q.align.mode === 'shift' ? String(q.align.shift) : '0');
  const [error, setError] = useState<string | null>(null);
  // Session ids to pick from: the sessions matching what is typed in the field last edited.
  const [typed, setTyped] = useState('');
  const options = useQuery({
    ...trpc.sessions.page.queryOptions({ search: typed, sort: 'recent', limit: 50 }),
    staleTime: 30_000,
  });
  // Opened from a replay's "Compare with another run" (run A named, B not): the field to fill has the focus.
  const runB = useRef<HTMLInputElement>(null);
  const askB = !!q.a && !q.b;
  useEffect(() => {
    if (askB) runB.current?.focus();
  }, [askB]);
  // The form is drawn anew for what it sent (its fields then hold the address's values): the field Enter was pressed
  // in keeps the focus, so that a keyboard user goes on from there rather than from the top of the page.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const field = refocus;
    refocus = null;
    if (field) form.current?.querySelector<HTMLElement>(`[data-field="${field}"]`)?.focus();
  }, []);
  return (
    <form
      ref={form}
      className="toolbar panel panel-body"
      style={{ flexWrap: 'wrap', marginBottom: 10 }}
      data-testid="compare-form"
      onSubmit={(e) => {
        e.preventDefault();
        const s = Number(shift);
        if (!a.trim() || !b.trim()) return setError('name both runs, A and B');
        if (mode === 'shift' && !Number.isInteger(s))
          return setError(`shift: ${JSON.stringify(shift)} is not a whole number`);
        setError(null);
        const next = {
          a: a.trim(),
          b: b.trim(),
          turn: q.turn,
          align: mode === 'stretch' ? ({ mode: 'stretch' } as const) : ({ mode: 'shift', shift: s } as const),
        };
        // Only a form drawn anew (other runs or alignment: its key) has the focus to give back.
        if (next.a !== q.a || next.b !== q.b || JSON.stringify(next.align) !== JSON.stringify(q.align))
          refocus = (document.activeElement as HTMLElement | null)?.dataset.field ?? null;
        onCompare(next);
      }}
    >
      {(
        [
          ['Run A', a, setA],
          ['Run B', b, setB],
        ] as const
      ).map(([label, value, setValue]) => (
        <label key={label} className="toolbar">
          {label}
          <input
            className="input mono"
            style={{ width: 260 }}
            list="compare-sessions"
            value={value}
            onChange={(e) => (setValue(e.target.value), setTyped(e.target.value))}
            placeholder="session id"
            aria-label={label}
            ref={label === 'Run B' ? runB : undefined}
            data-field={label}
          />
        </label>
      ))}
      <datalist id="compare-sessions">
        {options.data?.items.map((s) => (
          <option key={s.id} value={s.id}>
            {s.title ?? ''} · {plural(s.turnCount, 'turn')}
          </option>
        ))}
      </datalist>
      <label className="toolbar">
        Align
        <select
          className="select"
          value={mode}
          onChange={(e) => setMode(e.target.value as 'shift' | 'stretch')}
          aria-label="Align"
          data-field="align"
        >
          <option value="shift">turn by turn</option>
          <option value="stretch">stretched to the same length</option>
        </select>
      </label>
      {mode === 'shift' ? (
        <label className="toolbar" title="B's turns are counted by position: a fork's first turn is its position 0">
          B shifted by
          <input
            className="input"
            style={{ width: 70 }}
            inputMode="numeric"
            value={shift}
            onChange={(e) => setShift(e.target.value)}
            aria-label="B shifted by positions"
            aria-invalid={error?.startsWith('shift') ? true : undefined}
            data-field="shift"
          />
          positions
        </label>
      ) : null}
      <button type="submit" className="btn btn-primary">
        Compare
      </button>
      {q.a && q.b ? (
        <button
          type="button"
          className="btn"
          onClick={() => onCompare({ a: q.b!, b: q.a!, turn: null, align: q.align })}
          title="Swap A and B"
        >
          Swap
        </button>
      ) : null}
      {error ? (
        <span className="badge danger" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  );
}

function Comparison({
  a,
  b,
  turn,
  align,
  onTurn,
  onAlign,
  alignChosen = false,
}: {
  a: string;
  b: string;
  turn: number | null;
  align: Alignment;
  onTurn: (turn: number) => void;
  onAlign: (align: Alignment, turn: number) => void;
  /** The link names an alignment (else a fork and its parent are lined up at the fork point). */
  alignChosen?: boolean;
}) {
  const [index, setIndex] = useState<number | null>(null);
  const [showKeys, setShowKeys] = useState(false);
  const runA = useRun(a, index);
  const dA = runA.digest;
  const nA = dA?.n ?? 0;
  // The position: from the link's turn of A once A's turns are known, then the reviewer's.
  const i = index ?? (dA && turn !== null && hasTurn(dA.runs, turn) ? indexOfTurnInRuns(dA.runs, turn) : 0);
  const runB = useRun(b, null);
  const dB = runB.digest;
  const nB = dB?.n ?? 0;
  const j = dA && dB ? alignedIndex(i, nA, nB, align) : null;
  const atB = useRun(b, j);
  const atA = useRun(a, dA ? i : null);
  const badTurn = dA && turn !== null && !hasTurn(dA.runs, turn) ? turn : null;
  // One run a fork of the other: their turns share numbers from the fork point, which positions do not.
  const originA = forkOrigin(runA.session.data?.metadata);
  const originB = forkOrigin(runB.session.data?.metadata);
  const fork = originB?.session === a ? originB : originA?.session === b ? originA : null;
  const forkShift =
    fork && dA && dB && hasTurn(dA.runs, fork.turn) && hasTurn(dB.runs, fork.turn)
      ? indexOfTurnInRuns(dB.runs, fork.turn) - indexOfTurnInRuns(dA.runs, fork.turn)
      : null;

  // A fork and the run it came from, opened with no alignment named (the fork's "Compare with it"): by position their
  // turns would not line up, so they are aligned at the fork point, which the URL then says (and the form can undo).
  useEffect(() => {
    if (!alignChosen && fork && forkShift !== null && forkShift !== 0)
      onAlign({ mode: 'shift', shift: forkShift }, turn ?? fork.turn);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once the shift is known; onAlign changes every render
  }, [alignChosen, forkShift]);

  // The position goes to the URL once stepping pauses.
  useEffect(() => {
    if (!dA || index === null) return;
    const t = setTimeout(() => onTurn(turnAtRuns(dA.runs, index)), 250);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- onTurn changes with every render of the parent
  }, [index, dA]);

  useEffect(() => {
    if (!nA) return;
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (el?.closest('input, select, textarea, [contenteditable]') || e.ctrlKey || e.metaKey || e.altKey) return;
      if (document.querySelector('[role=dialog]')) return;
      if (e.key === '?') {
        e.preventDefault();
        setShowKeys(true);
        return;
      }
      const step = e.key === 'j' || e.key === 'ArrowRight' ? 1 : e.key === 'k' || e.key === 'ArrowLeft' ? -1 : 0;
      const to = e.key === 'Home' ? 0 : e.key === 'End' ? nA - 1 : step ? i + step : null;
      if (to === null) return;
      e.preventDefault();
      setIndex(Math.max(0, Math.min(nA - 1, to)));
    };
    window.addEventListener('keydown', onKey);
    document.documentElement.dataset.compareKeys = '1';
    return () => {
      window.removeEventListener('keydown', onKey);
      delete document.documentElement.dataset.compareKeys;
    };
  }, [nA, i]);

  const overlay = useMemo(() => {
    if (!dA || !dB) return null;
    const own = {
      n: nB,
      size: dB.size,
      at: (k: number) => placeOnA(k, nA, nB, align),
      from: (k: number) => alignedIndex(k, nA, nB, align),
    };
    const pair = (key: string, label: string): Series[] => [
      { key: `A:${key}`, label: `A ${label}`, m4: dA.series[key] ?? NO_VALUES },
      { key: `B:${key}`, label: `B ${label}`, m4: dB.series[key] ?? NO_VALUES, own },
    ];
    return { h: pair('h', 'H_t'), d: pair('d', 'D_t'), ccs: pair('footprint.ccs', 'CCS') };
  }, [dA, dB, nA, nB, align]);

  const missing = [
    runA.error ? `A: ${runA.error.message}` : null,
    runB.error ? `B: ${runB.error.message}` : null,
  ].filter(Boolean);
  if (missing.length)
    return (
      <div className="banner danger" role="alert" data-testid="compare-error">
        {missing.join(' · ')}
      </div>
    );
  if (!dA || !dB)
    return (
      <Panel as="div" padded busy>
        <div className="skeleton" />
      </Panel>
    );
  if (!nA || !nB)
    return (
      <Panel as="div" body={false}>
        <EmptyState title={`Run ${!nA ? 'A' : 'B'} has no turns yet`}>Nothing to compare turn by turn.</EmptyState>
      </Panel>
    );
  const turnAtA = (k: number) => turnAtRuns(dA.runs, k);
  const tA = turnAtA(i);
  const tB = j === null ? null : turnAtRuns(dB.runs, j);
  const move = (k: number) => setIndex(Math.max(0, Math.min(nA - 1, k)));
  const current = {
    'A:h': atA.detail?.hallucination ?? null,
    'B:h': atB.detail?.hallucination ?? null,
    'A:d': atA.detail?.drift ?? null,
    'B:d': atB.detail?.drift ?? null,
    'A:footprint.ccs': atA.detail?.footprint?.ccs ?? null,
    'B:footprint.ccs': atB.detail?.footprint?.ccs ?? null,
  };
  const chart = (title: string, series: Series[], format: (v: number | null) => string) => (
    <SeriesChart
      title={title}
      series={series}
      n={nA}
      size={dA.size}
      turnAt={turnAtA}
      stress={dA.stress}
      index={i}
      current={current}
      format={format}
      onJump={move}
      sayMissing
    />
  );
  const agentA = runA.session.data?.agentId;
  const agentB = runB.session.data?.agentId;
  return (
    <>
      {badTurn !== null ? (
        <div className="banner warn" role="alert">
          Run A has no turn {badTurn} ({heldTurns(dA!.runs)}); showing its first turn.
        </div>
      ) : null}
      {fork && forkShift !== null ? (
        <div className="banner" data-testid="fork-align">
          {fork.session === a ? 'B' : 'A'} is a fork of {fork.session === a ? 'A' : 'B'} at turn {fork.turn}
          {align.mode === 'shift' && align.shift === forkShift ? (
            <>
              : aligned there, each turn beside the turn of the same number (B shifted by {fmtSigned(forkShift)}{' '}
              positions).
            </>
          ) : (
            <>
              : by position their turns do not meet there.{' '}
              <button
                type="button"
                className="btn btn-small"
                onClick={() => onAlign({ mode: 'shift', shift: forkShift }, fork.turn)}
              >
                Align at the fork point (shift {fmtSigned(forkShift)})
              </button>
            </>
          )}
        </div>
      ) : null}
      {!fork && agentA && agentB && agentA !== agentB ? (
        // Two runs of one task come from one agent, mostly: two agents' sessions are likely two tasks.
        <div className="banner" role="status" data-testid="different-agents">
          A and B come from different agents (<span className="mono">{agentA}</span>,{' '}
          <span className="mono">{agentB}</span>): if they are not runs of the same task, few terms will meet turn by
          turn.
        </div>
      ) : null}
      {align.mode === 'shift' && !pairedCount(nA, nB, align) ? (
        <div className="banner warn" role="alert" data-testid="no-overlap">
          Shifted by {fmtSigned(align.shift)}, no turn of B is beside a turn of A (A has {plural(nA, 'turn')}, B{' '}
          {plural(nB, 'turn')}): every term reads as only in A. Try a shift between {fmtSigned(1 - nA)} and{' '}
          {fmtSigned(nB - 1)}.
        </div>
      ) : null}
      <Panel as="div" style={{ marginBottom: 14 }} body={false}>
        <DataTable
          compact
          testId="compare-runs"
          rows={
            [
              ['A', a, runA, dA, tA],
              ['B', b, runB, dB, tB],
            ] as const
          }
          rowKey={([name]) => name}
          columns={[
            { id: 'run', header: 'Run', cell: ([name]) => <b>{name}</b> },
            {
              id: 'session',
              header: 'Session',
              cell: ([, id, run, , t]) => (
                <>
                  <Link href={`/sessions/${encodeURIComponent(id)}${t === null ? '' : `?turn=${t}`}`} className="mono">
                    {id}
                  </Link>{' '}
                  <MemoryText className="muted" text={run.session.data?.title ?? ''} />
                </>
              ),
            },
            { id: 'agent', header: 'Agent', className: 'mono', cell: ([, , run]) => run.session.data?.agentId ?? '' },
            { id: 'turns', header: 'Turns', num: true, cell: ([, , , d]) => fmtInt(d.n) },
            {
              id: 'alerts',
              header: 'What went wrong',
              cell: ([, , , d]) => {
                const flagged = ALERT_KINDS.filter((k) => d.alertCounts?.[k]);
                return flagged.length ? (
                  flagged.map((k) => (
                    <span key={k} className="badge warn" style={{ marginRight: 4 }}>
                      {alertCount(k, d.alertCounts[k]!)}
                    </span>
                  ))
                ) : d.alertCounts ? (
                  <span className="faint">nothing flagged</span>
                ) : null;
              },
            },
            {
              id: 'at',
              header: 'At',
              num: true,
              cellProps: ([name]) => ({ 'data-testid': `compare-turn-${name}` }),
              cell: ([, , , , t]) => (t === null ? '—' : `turn ${t}`),
            },
          ]}
        />
      </Panel>
      <Panel as="div" className="player" testId="compare-player" body={false}>
        <div className="player-controls">
          <button type="button" className="btn" onClick={() => move(i - 1)} title="Previous turn (k or ←)">
            ← Previous
          </button>
          <button type="button" className="btn" onClick={() => move(i + 1)} title="Next turn (j or →)">
            Next →
          </button>
          <button type="button" className="btn" onClick={() => setShowKeys(true)} title="Keyboard shortcuts (?)">
            ?
          </button>
          <span className="turn-readout" data-testid="compare-readout">
            A turn <b>{tA}</b> · B{' '}
            {tB === null ? (
              <b>no turn here</b>
            ) : (
              <>
                turn <b>{tB}</b>
              </>
            )}
          </span>
          <span className="grow" />
          <input
            type="range"
            min={0}
            max={nA - 1}
            value={i}
            onChange={(e) => move(Number(e.target.value))}
            aria-label="Position in run A"
            aria-valuetext={`turn ${tA}`}
            style={{ width: 320 }}
          />
        </div>
      </Panel>
      {overlay ? (
        <div className="charts-row">
          {chart('Hallucination H_t', overlay.h, fmtRate)}
          {chart('Drift D_t', overlay.d, fmtRate)}
          {chart('CCS footprint', overlay.ccs, fmtTokens)}
        </div>
      ) : null}
      {graphStates(atA.detail, atB.detail) ? (
        <StateSideBySide a={atA.detail!.state} b={j === null ? undefined : atB.detail?.state} tA={tA} tB={tB} />
      ) : (
        <>
          {(['A', 'B'] as const).map((side) => {
            const d = side === 'A' ? atA.detail : j === null ? null : atB.detail;
            // One run keeps a graph state and no CCS (LangGraph), the other a CCS: the terms cannot meet.
            return d && noCcs(d.ccs) && d.state != null ? (
              <div key={side} className="banner warn" role="note" data-testid="compare-kinds">
                Run {side} keeps a graph state (LangGraph), not a CCS: its side of the terms below is empty, and every
                term of the other run reads as only there. A graph state is compared path by path with another run that
                keeps one; this run&apos;s replay shows its state.
              </div>
            ) : null;
          })}
          <CcsSideBySide a={atA.detail?.ccs ?? null} b={j === null ? {} : (atB.detail?.ccs ?? null)} tA={tA} tB={tB} />
        </>
      )}
      <div className="grid-2" style={{ marginTop: 14 }}>
        {(
          [
            ['A', tA, atA.detail],
            ['B', tB, atB.detail],
          ] as const
        ).map(([name, t, detail]) => (
          <Panel
            as="div"
            key={name}
            testId={`compare-io-${name}`}
            title={
              <>
                Run {name} · {t === null ? 'no turn here' : `turn ${t}`}
              </>
            }
          >
            {detail ? (
              <>
                <div className="label-sm">Input x_t</div>
                {detail.input ? (
                  <MemoryText className="pre" text={detail.input} />
                ) : (
                  <span className="faint">none (the turn was sent with an empty input)</span>
                )}
                <div className="label-sm" style={{ marginTop: 10 }}>
                  Output
                </div>
                {detail.output ? (
                  <MemoryText className="pre" text={detail.output} />
                ) : (
                  <span className="faint">none (the turn was sent with an empty output)</span>
                )}
              </>
            ) : t === null ? (
              <span className="faint">This run has no turn beside A&apos;s turn {tA}.</span>
            ) : (
              <div className="skeleton" />
            )}
          </Panel>
        ))}
      </div>
      <ShortcutsDialog shortcuts={COMPARE_SHORTCUTS} open={showKeys} onOpenChange={setShowKeys} />
    </>
  );
}

type TurnDetail = { ccs: CcsTerms; state?: unknown } | null;
const noCcs = (c: CcsTerms) => Object.values(c).every((terms) => !terms?.length);
/** Both runs' turns carry a graph state and no CCS (LangGraph): compare their states path by path. */
const graphStates = (a: TurnDetail, b: TurnDetail) =>
  !!a && noCcs(a.ccs) && a.state != null && (!b || (noCcs(b.ccs) && b.state != null));

/** Two graph states path by path: what B holds differently from A (added, removed or changed), A's value and B's. */
function StateSideBySide({ a, b, tA, tB }: { a: unknown; b: unknown; tA: number; tB: number | null }) {
  const changes = useMemo(() => diffStates(a, b ?? {}), [a, b]);
  const n = countChanges(changes);
  const cell = (v: unknown) => {
    const p = preview(v);
    return v === undefined ? <span className="faint">—</span> : <MemoryText className="mono" text={p.text} />;
  };
  return (
    <Panel
      testId="compare-state"
      labelledBy="compare-state-title"
      body={false}
      title={
        <>
          <span id="compare-state-title">
            Graph state at A turn {tA} and B {tB === null ? '(no turn)' : `turn ${tB}`}
          </span>
          <span className="muted" data-testid="compare-state-summary">
            {changes.length
              ? `${fmtInt(n.changed)} changed · ${fmtInt(n.removed)} only in A · ${fmtInt(n.added)} only in B`
              : 'the same state'}
          </span>
        </>
      }
    >
      <DataTable
        compact
        rows={changes}
        rowKey={(c) => c.path}
        rowProps={(c) => ({ 'data-path': c.path, 'data-kind': c.kind })}
        empty="Both runs hold the same graph state here."
        columns={[
          { id: 'path', header: 'Path', className: 'mono nowrap', cell: (c) => c.path || '(the whole state)' },
          {
            id: 'kind',
            header: 'B against A',
            cell: (c) => <span className={`badge ${KIND_TONE[c.kind]}`}>{c.kind}</span>,
          },
          {
            id: 'a',
            header: 'A',
            cell: (c) => cell(c.from),
            title: (c) => (c.from === undefined ? undefined : wholeValue(c.from)),
          },
          {
            id: 'b',
            header: 'B',
            cell: (c) => cell(c.to),
            title: (c) => (c.to === undefined ? undefined : wholeValue(c.to)),
          },
        ]}
      />
    </Panel>
  );
}
const KIND_TONE = { added: 'ok', removed: 'danger', changed: 'warn' } as const;

/** The two CCSs field by field: terms only A holds, terms both hold, terms only B holds. */
function CcsSideBySide({ a, b, tA, tB }: { a: CcsTerms | null; b: CcsTerms | null; tA: number; tB: number | null }) {
  if (!a || !b)
    return (
      <Panel as="div" padded busy>
        <div className="skeleton" />
      </Panel>
    );
  const fields = inReviewOrder([...new Set([...Object.keys(a), ...Object.keys(b)])]).filter(
    (f) => (a[f]?.length ?? 0) + (b[f]?.length ?? 0) > 0,
  );
  const rows = fields.map((f) => {
    const inA = new Set(a[f] ?? []);
    const inB = new Set(b[f] ?? []);
    const shared = [...inA].filter((t) => inB.has(t));
    const left = [...inA].filter((t) => !inB.has(t));
    const right = [...inB].filter((t) => !inA.has(t));
    return { f, shared, left, right };
  });
  const count = (side: 'shared' | 'left' | 'right') => rows.reduce((n, r) => n + r[side].length, 0);
  const [onlyA, onlyB, both] = [count('left'), count('right'), count('shared')];
  return (
    <Panel
      labelledBy="compare-ccs"
      testId="compare-ccs"
      body={false}
      title={
        <>
          <h2 id="compare-ccs" className="panel-title">
            CCS at A turn {tA} and B {tB === null ? '(no turn)' : `turn ${tB}`}
          </h2>
          <span className="muted" data-testid="compare-ccs-summary">
            {fmtInt(both)} in both · {fmtInt(onlyA)} only in A · {fmtInt(onlyB)} only in B
          </span>
        </>
      }
    >
      <DataTable
        compact
        className="compare-ccs"
        rows={rows}
        rowKey={(r) => r.f}
        rowProps={(r) => ({ 'data-field': r.f })}
        columns={[
          { id: 'field', header: 'Field', className: 'mono nowrap', cell: (r) => r.f },
          {
            id: 'a',
            header: 'Only in A',
            cellProps: () => ({ 'data-side': 'a' }),
            cell: ({ f, left }) =>
              left.map((t) => <TermChip key={t} term={t} mark="removed" typed={f === 'focal_entities'} />),
          },
          {
            id: 'both',
            header: 'In both',
            cellProps: () => ({ 'data-side': 'both' }),
            cell: ({ f, shared }) => shared.map((t) => <TermChip key={t} term={t} typed={f === 'focal_entities'} />),
          },
          {
            id: 'b',
            header: 'Only in B',
            cellProps: () => ({ 'data-side': 'b' }),
            cell: ({ f, right }) =>
              right.map((t) => <TermChip key={t} term={t} mark="added" typed={f === 'focal_entities'} />),
          },
        ]}
      />
    </Panel>
  );
}
