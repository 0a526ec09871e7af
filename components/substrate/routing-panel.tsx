'use client';

import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { Breakable } from '@/components/ui/breakable';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { ClockReading } from '@/components/ui/clock-reading';
import { Panel } from '@/components/ui/panel';
import { QueryError } from '@/components/ui/states';
import { fmtRate } from '@/lib/format';
import { REFERENCE_RULES } from '@/lib/ucs/reference';
import { penaltyPath, type ReferenceDeadEnd, type ReferenceReopenMatch } from '@/lib/ucs/reopen';
import { ROUTING_DEFAULTS } from '@/lib/ucs/routing';
import { printedPathParts, routeContext, type PrintedPath, type RouteResult } from '@/lib/ucs/substrate-sim';
import type { SubstrateState } from '@/lib/ucs/substrate-sim';
import { useSubstrate } from './store';
import { PartsLegend, TermsBar, termsDomain } from './terms-bar';
import { stateLabel } from './use-substrate';
import { plural } from '@/lib/format';
import { Paper } from '@/components/ui/paper';

const f3 = (v: number) => v.toFixed(3);
/** A term that adds nothing: the same digits as the others, quietly. */
const zero = <span className="faint">0.000</span>;
const f2 = (v: number) => v.toFixed(2);

interface StoredSample {
  k: number;
  i: number;
  context: string;
  cursor: string | null;
  paths: PrintedPath[];
}

/** consult_samples.json entries as far as the comparison reads them. */
function storedSamples(raw: readonly Record<string, unknown>[]): StoredSample[] {
  return raw.flatMap((s, k) => {
    if (typeof s.context !== 'string') return [];
    const c = (s.consult ?? {}) as { cursor?: unknown; suggested_paths?: unknown };
    const paths = Array.isArray(c.suggested_paths) ? (c.suggested_paths as PrintedPath[]) : [];
    return [
      { k, i: typeof s.i === 'number' ? s.i : k, context: s.context, cursor: String(c.cursor ?? '') || null, paths },
    ];
  });
}

/**
 * "What would the substrate do?": for a context typed or picked, the routing the reference bridge's consult would
 * advise on the state shown (lib/ucs/substrate-sim.ts `routeContext`, in the browser): capabilities resolved, dead
 * ends hit, every edge out of the cursor with its terms, probability and dead-end penalty; beside it the stored
 * advisory when the context is one of the stored consult samples.
 */
export function RoutingPanel({
  agent,
  substrate,
  meta,
  simulatedTicks = null,
  indexFrom,
}: {
  agent: string;
  substrate: SubstrateState | null;
  meta: { t: number; source: string | null; latestT: number } | null;
  /** When `substrate` is a simulation: how many bridge ticks it ran from the snapshot `meta` names. */
  simulatedTicks?: number | null;
  /** Where the dead ends and methodology come from (`substrate.bridgeIndex`). */
  indexFrom: 'index' | 'rows' | null;
}) {
  const trpc = useTRPC();
  const contexts = useQuery(trpc.substrate.contexts.queryOptions({ agent }));
  const samplesQ = useQuery(trpc.substrate.consultSamples.queryOptions({ agent }));
  const { consult, setConsult } = useSubstrate();
  const mine = consult.agent === agent ? consult : { agent, context: '', sample: null };
  const context = useDeferredValue(mine.context);
  // The dead ends' ages are whole days: one clock reading per visit.
  const [now] = useState(() => Date.now());
  const route = useMemo(
    () => (substrate ? routeContext(substrate, context, { now }) : null),
    [substrate, context, now],
  );
  const samples = useMemo(() => storedSamples(samplesQ.data ?? []), [samplesQ.data]);
  const same = samples.filter((s) => s.context === context.trim());
  const stored = same.find((s) => s.k === mine.sample) ?? same.at(-1) ?? null;
  const pick = (value: string) => {
    if (value.startsWith('s:')) {
      const s = samples.find((x) => x.k === Number(value.slice(2)));
      if (s) setConsult({ agent, context: s.context, sample: s.k });
    } else if (value.startsWith('j:')) setConsult({ agent, context: value.slice(2), sample: null });
  };

  return (
    <Panel
      as="div"
      style={{ marginTop: 14 }}
      testId="consult"
      body={false}
      title={
        <>
          <h2 className="panel-title">What would the substrate do?</h2>
          <PartsLegend />
        </>
      }
    >
      <div className="panel-body consult-grid">
        <div className="consult-side">
          <label className="label-sm" htmlFor="consult-context">
            Context the agent consults with
          </label>
          <textarea
            id="consult-context"
            className="input"
            rows={2}
            placeholder="e.g. research the 502 errors in nginx logs"
            value={mine.context}
            onChange={(e) => setConsult({ agent, context: e.target.value, sample: null })}
          />
          <select
            className="select"
            aria-label="Pick a stored context"
            value=""
            onChange={(e) => pick(e.target.value)}
            disabled={!samples.length && !contexts.data?.tasks.length}
          >
            <option value="">
              {samples.length || contexts.data?.tasks.length ? 'Pick a stored context…' : 'No stored contexts'}
            </option>
            {samples.length ? (
              <optgroup label="Stored consult samples">
                {samples.map((s) => (
                  <option key={s.k} value={`s:${s.k}`}>
                    #{s.i} {s.context}
                    {s.cursor ? ` (from ${s.cursor})` : ''}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {contexts.data?.tasks.length ? (
              <optgroup label="Judgment nodes’ tasks">
                {contexts.data.tasks.map((t) => (
                  <option key={t.context} value={`j:${t.context}`}>
                    {t.context} ({t.nodes} node{t.nodes > 1 ? 's' : ''})
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
          <p className="muted consult-state" data-testid="consult-state">
            {meta && route ? (
              <>
                As the bridge’s consult would advise it on{' '}
                {simulatedTicks !== null && substrate ? (
                  <>
                    <b>the simulated state, t {substrate.t}</b> (+{plural(simulatedTicks, 'tick')} from{' '}
                    {stateLabel(meta)})
                  </>
                ) : (
                  <b>{stateLabel(meta)}</b>
                )}
                , cursor <span className="mono">{route.cursor}</span>
                {meta.t !== meta.latestT || simulatedTicks !== null
                  ? ` (the bridge itself consults the latest stored, t ${meta.latestT})`
                  : ''}
                .{' '}
                {indexFrom === 'index'
                  ? 'Dead ends and methodology from the stored index'
                  : 'No index stored: dead ends and methodology from the recorded rows'}
                ; dead ends’ ages measured <ClockReading at={now} />.
              </>
            ) : (
              'Loading the state…'
            )}
          </p>
          {route ? <ContextFindings route={route} context={context} /> : null}
        </div>
        <div className="consult-main">
          {route ? <Candidates route={route} /> : <div className="skeleton" style={{ height: 160 }} />}
          <p className="faint formula">
            s = {ROUTING_DEFAULTS.alpha}·u − {ROUTING_DEFAULTS.beta}·c + {ROUTING_DEFAULTS.gamma}·n + w + b +{' '}
            {ROUTING_DEFAULTS.delta}·E_ctx − {ROUTING_DEFAULTS.epsilon}·penalty; P = softmax(s /{' '}
            {ROUTING_DEFAULTS.temperature}). E_ctx: {REFERENCE_RULES.consultEnergyMagnitude} at each resolved capability
            on a zeroed field, {REFERENCE_RULES.contextDiffusionSteps} diffusions. Penalty: 1 per returned dead end
            naming the destination, directly or through one of its keywords (the keyword map). Eq. 1 of{' '}
            <Paper id="ucs" at="§4.1" /> plus the reference’s penalty term.
          </p>
          {route && stored ? (
            <StoredComparison route={route} stored={stored} others={same.length - 1} />
          ) : route && context.trim() && samples.length ? (
            <p className="faint">No stored consult sample has exactly this context to compare with.</p>
          ) : null}
        </div>
      </div>
      <QueryError query={samplesQ} />
    </Panel>
  );
}

/** The capabilities the context resolved to and the dead ends it hit. */
function ContextFindings({ route, context }: { route: RouteResult; context: string }) {
  const { verdict } = route;
  return (
    <>
      <div className="consult-section" data-testid="resolved">
        <span className="label-sm">Resolved capabilities</span>{' '}
        {route.resolvedCapabilities.length ? (
          route.resolvedCapabilities.map((c) => (
            <span key={c} className="chip mono">
              {c}
            </span>
          ))
        ) : (
          <span className="faint">
            {context.trim() ? 'none: no word of the context is in the bridge’s keyword map' : 'none (no context)'}
          </span>
        )}
      </div>
      <div className="consult-section" data-testid="consult-dead-ends">
        <span className="label-sm">
          Dead ends hit{' '}
          {verdict.matches.length ? `(${verdict.returned.length} returned of ${verdict.matches.length} matching)` : ''}
        </span>
        {verdict.matches.length ? (
          <ol className="dead-end-hits">
            {verdict.matches.map((m, k) => (
              <li key={m.position} data-dead-end={m.deadEnd.id} className={m.returned ? undefined : 'faint'}>
                <MemoryText text={m.deadEnd.topic ?? m.deadEnd.id} />{' '}
                {verdict.matches.slice(0, k).some((x) => x.deadEnd.id === m.deadEnd.id) ? (
                  <span className="faint">(listed again in the index) </span>
                ) : null}
                <span className="mono nowrap">
                  {f2(m.score)}
                  {m.decay !== 1 ? ` = ${f2(m.baseScore)} × ${m.decay.toFixed(3)}` : ''}
                </span>{' '}
                {m.reopenTriggered ? (
                  <span className="badge warn" title="Words of the context found in its reopen conditions">
                    reopen: {m.reopenMatched.join(', ')}
                  </span>
                ) : null}{' '}
                {m.returned ? null : <span className="badge">not returned (top {REFERENCE_RULES.maxDeadEndHits})</span>}
              </li>
            ))}
          </ol>
        ) : (
          <span className="faint"> none</span>
        )}
      </div>
    </>
  );
}

/**
 * Which dead ends penalise an edge, said in the cell (not only on hover, which keyboards and touch screens cannot
 * reach): their numbers in the "Dead ends hit" list, and how each reaches the destination.
 */
function PenaltyWhy({
  to,
  sources,
  matches,
}: {
  to: string;
  sources: ReferenceReopenMatch<ReferenceDeadEnd>[];
  matches: ReferenceReopenMatch<ReferenceDeadEnd>[];
}) {
  const numbers = sources.map((m) => matches.findIndex((x) => x.position === m.position) + 1);
  // How each reaches the destination: said once when all alike, else by number; which of them are reopened.
  const how = sources.map((m) => {
    const h = penaltyPath(m.deadEnd, to);
    return [h.direct ? `names ${to}` : '', h.keywords.length ? `keyword ${h.keywords.join(', ')}` : '']
      .filter(Boolean)
      .join(' and ');
  });
  const reopened = numbers.filter((_, k) => sources[k]!.reopenTriggered);
  const via = [
    how.every((x) => x === how[0]) ? how[0] : how.map((x, k) => `#${numbers[k]}: ${x}`).join(' · '),
    reopened.length === numbers.length
      ? 'reopened'
      : reopened.length
        ? `${reopened.map((n) => `#${n}`).join(', ')} reopened`
        : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <>
      <span className="badge warn" data-testid="penalty-why">
        {sources.length === 1 ? 'dead end' : 'dead ends'} {numbers.map((n) => `#${n}`).join(', ')}
      </span>
      <span className="faint why-via">{via}</span>
    </>
  );
}

/** Every edge out of the cursor, best first, with its terms, probability, context boost and penalty. */
function Candidates({ route }: { route: RouteResult }) {
  const domain = termsDomain(route.paths.map((p) => p.parts));
  const resolved = new Set(route.resolvedCapabilities);
  const byPosition = new Map(route.verdict.returned.map((m) => [m.position, m]));
  if (!route.paths.length)
    return (
      <div className="faint">The cursor {route.cursor} has no outgoing edge: the bridge would suggest nothing.</div>
    );
  return (
    <DataTable
      compact
      testId="routing"
      rows={route.paths}
      rowKey={(p) => p.edgeIndex}
      rowProps={(p, k) => ({ 'data-to': p.to, className: k < REFERENCE_RULES.advisoryTopN ? undefined : 'dim' })}
      columns={[
        { id: 'to', header: 'To', className: 'mono', cell: (p) => p.to },
        {
          id: 'score',
          header: 'Score',
          num: true,
          className: 'mono',
          cellProps: () => ({ 'data-cell': 'score' }),
          cell: (p) => p.printed.score.toFixed(4),
        },
        { id: 'p', header: 'P', num: true, cell: (p) => fmtRate(p.probability) },
        {
          id: 'context',
          header: 'Context',
          headerTitle: 'δ·E_ctx at the destination',
          num: true,
          className: 'mono',
          cell: (p) => (p.contextBoost ? f3(p.contextBoost) : zero),
        },
        {
          id: 'penalty',
          header: 'Penalty',
          headerTitle: 'ε·penalty at the destination (subtracted)',
          num: true,
          className: 'mono',
          cellProps: (p) => ({ 'data-cell': 'penalty', className: p.penalty ? 'warn-text' : undefined }),
          cell: (p) => (p.penalty ? `−${f3(p.penalty)}` : zero),
        },
        { id: 'terms', header: 'Terms', width: '28%', cell: (p) => <TermsBar parts={p.parts} domain={domain} /> },
        {
          id: 'why',
          header: 'Why',
          className: 'why',
          cellProps: () => ({ 'data-cell': 'why' }),
          cell: (p) => {
            const sources = (route.verdict.penaltySources[p.to] ?? []).map((pos) => byPosition.get(pos)!);
            if (!resolved.has(p.to) && !sources.length)
              return (
                <span className="faint" title="Utility, novelty, weight, bias and cost: no context match, no dead end">
                  edge terms only
                </span>
              );
            return (
              <>
                {resolved.has(p.to) ? <span className="badge ok">in context</span> : null}{' '}
                {sources.length ? <PenaltyWhy to={p.to} sources={sources} matches={route.verdict.matches} /> : null}
              </>
            );
          },
        },
      ]}
    />
  );
}

/** The recomputed advisory next to the stored one of the same context. */
function StoredComparison({ route, stored, others }: { route: RouteResult; stored: StoredSample; others: number }) {
  const now = route.suggested;
  const rows = Math.max(now.length, stored.paths.length);
  const same =
    stored.cursor === route.cursor &&
    stored.paths.length === now.length &&
    stored.paths.every((p, k) => p.to === now[k]?.to && p.score === now[k]?.printed.score);
  const storedParts = stored.paths.map((p) => printedPathParts(p));
  const domain = termsDomain([...now.map((p) => p.parts), ...storedParts]);
  return (
    <div className="consult-compare" data-testid="stored-advisory">
      <div className="consult-compare-head">
        <span className="label-sm">
          Beside the stored advisory #{stored.i}
          {others > 0 ? ` (${others} other stored sample${others > 1 ? 's' : ''} with this context)` : ''}
        </span>
        {same ? (
          <span className="badge ok" data-testid="advice-match">
            same paths and printed scores
          </span>
        ) : (
          <span className="badge" data-testid="advice-match">
            {stored.cursor !== route.cursor
              ? `differs: it was given from ${stored.cursor ?? '—'}, the cursor is now ${route.cursor}`
              : 'differs: the weights and biases have moved since'}
          </span>
        )}
      </div>
      <table className="data compact">
        <thead>
          <tr>
            <th className="num">#</th>
            <th colSpan={3}>Now, from {route.cursor}</th>
            <th colSpan={3}>Stored, from {stored.cursor ?? '—'}</th>
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, k) => {
            const a = now[k];
            const b = stored.paths[k];
            return (
              <tr key={k}>
                <td className="num faint">{k + 1}</td>
                {/* A long name breaks at its joints ("foundry_apply_/improvement"): the bars keep their width. */}
                <td className="mono">{a ? <Breakable text={a.to} /> : null}</td>
                <td className="num mono">{a ? a.printed.score.toFixed(4) : ''}</td>
                <td style={{ width: '18%' }}>{a ? <TermsBar parts={a.parts} domain={domain} /> : null}</td>
                <td className="mono">{b ? <Breakable text={b.to} /> : null}</td>
                <td className="num mono">{b ? b.score.toFixed(4) : ''}</td>
                <td style={{ width: '18%' }}>{b ? <TermsBar parts={storedParts[k]!} domain={domain} /> : null}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
