'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import type { RouterOutputs } from '@/components/trpc/outputs';
import { DataTable } from '@/components/ui/data-table';
import { Panel } from '@/components/ui/panel';
import { EmptyState, QueryError } from '@/components/ui/states';
import { fmtDateTime, fmtInt, plural } from '@/lib/format';
import { AUDIT_RULES, type DisagreementKind } from '@/lib/ucs/audit';
import { SubstrateCrumbs, SubstrateTabs } from './tabs';
import { Paper } from '@/components/ui/paper';

type Audit = RouterOutputs['substrate']['audit'];
type Differentiation = NonNullable<Audit['differentiation']>;

const KIND_LABEL: Record<DisagreementKind, string> = {
  edge_weight: 'edge weight',
  weight_clamp: 'weight outside ±2.5',
  policy_bias: 'policy bias',
  artifact: 'artifact',
  reward: 'logged reward',
  routing: 'routed flag',
  cursor: 'cursor',
};

/** A stored or expected value as text (never HTML): numbers to 6 significant digits, objects as JSON. */
function valueText(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 159)}…` : s;
}

/**
 * The agent's substrate audited (lib/ucs/audit.ts, on the server): its action log replayed by the reference's rules
 * from the earliest stored state, each later state compared with what they imply; and the paper's advisory
 * differentiation of its consult outputs.
 */
export function AuditView({ agent }: { agent: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.substrate.audit.queryOptions({ agent }));
  const [kind, setKind] = useState<DisagreementKind | null>(null);
  const a = q.data;
  const shown = a ? a.disagreements.filter((d) => kind === null || d.kind === kind) : [];
  return (
    <>
      <SubstrateCrumbs agent={agent} page="Audit" />
      <div className="page-head">
        <div>
          <h1>Audit</h1>
          <div className="sub">
            The action log replayed by the reference’s learning rules from the earliest stored state, and every later
            state compared with what they imply
          </div>
        </div>
      </div>
      <SubstrateTabs agent={agent} />
      <QueryError query={q} />
      {q.isPending ? (
        <Panel as="div" padded busy>
          <div className="skeleton" style={{ height: 22, width: '45%' }} />
          <div className="skeleton" style={{ height: 120, marginTop: 12 }} />
        </Panel>
      ) : null}
      {a ? (
        <>
          <div
            className={a.disagreementCount ? 'banner danger audit-verdict' : 'banner ok audit-verdict'}
            data-testid="audit-verdict"
            role="status"
          >
            <b>{plural(a.disagreementCount, 'disagreement')}</b> across {plural(a.states, 'state')} and{' '}
            {plural(a.lines, 'log line')}
            {a.storedStates > a.states ? ` (the latest ${fmtInt(a.states)} of ${fmtInt(a.storedStates)} states)` : ''}
          </div>
          <Replayed audit={a} />
          {a.disagreementCount ? (
            <Panel
              as="div"
              style={{ marginTop: 14 }}
              testId="disagreements"
              body={false}
              title={
                <>
                  <h2 className="panel-title">Disagreements</h2>
                  <div className="seg" role="group" aria-label="Show disagreements of one kind">
                    <button type="button" aria-pressed={kind === null} onClick={() => setKind(null)}>
                      all {fmtInt(a.disagreementCount)}
                    </button>
                    {(Object.entries(a.byKind) as [DisagreementKind, number][]).map(([k, n]) => (
                      <button key={k} type="button" aria-pressed={kind === k} onClick={() => setKind(k)}>
                        {KIND_LABEL[k]} {fmtInt(n)}
                      </button>
                    ))}
                  </div>
                </>
              }
            >
              <DataTable
                compact
                rows={shown}
                rowKey={(_, k) => k}
                rowProps={(d) => ({ 'data-kind': d.kind })}
                columns={[
                  {
                    id: 'kind',
                    header: 'Kind',
                    className: 'nowrap',
                    cell: (d) => <span className="badge danger">{KIND_LABEL[d.kind]}</span>,
                  },
                  { id: 'at', header: 'Where', className: 'mono cell-sub', cell: (d) => d.at },
                  { id: 't', header: 't', num: true, className: 'mono', cell: (d) => d.t },
                  { id: 'subject', header: 'What', className: 'mono', cell: (d) => d.subject },
                  {
                    id: 'stored',
                    header: 'Stored',
                    num: true,
                    className: 'mono clip-cell',
                    cell: (d) => valueText(d.stored),
                  },
                  {
                    id: 'expected',
                    header: 'Expected',
                    num: true,
                    className: 'mono clip-cell',
                    cell: (d) => valueText(d.expected),
                  },
                  { id: 'rule', header: 'Rule', className: 'cell-sub', cell: (d) => d.rule },
                ]}
              />
              {a.disagreementCount > a.disagreements.length ? (
                <div className="table-foot faint">
                  The first {fmtInt(a.disagreements.length)} of {fmtInt(a.disagreementCount)} shown (counts by kind
                  above are of all).
                </div>
              ) : null}
            </Panel>
          ) : null}
          <DifferentiationPanel audit={a} />
          <Panel as="div" style={{ marginTop: 14 }} heading title="Rules checked" body={false}>
            <ul className="rules-list">
              {Object.entries(AUDIT_RULES).map(([k, r]) => (
                <li key={k}>{r}</li>
              ))}
            </ul>
          </Panel>
          <p className="faint">Computed {fmtDateTime(a.computedAt)}; recomputed when the stored data change.</p>
        </>
      ) : null}
    </>
  );
}

/** What was replayed and compared. */
function Replayed({ audit: a }: { audit: Audit }) {
  const nothing = a.replayed === 0;
  return (
    <Panel as="div" padded testId="audit-replayed">
      <div className="stats">
        <div className="stat">
          <div className="label">Replayed from</div>
          <div className="value mono">t {a.base.t}</div>
          <div className="faint cell-sub">{a.base.label}</div>
        </div>
        <div className="stat">
          <div className="label">Log lines replayed</div>
          <div className="value">{fmtInt(a.replayed)}</div>
          <div className="faint cell-sub">
            {fmtInt(a.routed)} along an edge · {fmtInt(a.jumps)} jumps · {fmtInt(a.unknown)} unknown
            {a.lines > a.replayed
              ? ` · ${fmtInt(a.lines - a.replayed)} of the ${fmtInt(a.lines)} at or before t ` +
                `${a.base.t}, already in the state replayed from`
              : ''}
          </div>
        </div>
        <div className="stat">
          <div className="label">Weights clamped</div>
          <div className="value">{fmtInt(a.clamped)}</div>
        </div>
        <div className="stat">
          <div className="label">φ-cycles</div>
          <div className="value">{fmtInt(a.phiCycles)}</div>
          <div className="faint cell-sub">
            last at t {a.lastPhiT.t}
            {a.lastPhiT.from === 'assumed' ? ' (assumed: no index stored)' : ', from the index'} ·{' '}
            {plural(a.artifacts, 'artifact')} at the end
          </div>
        </div>
        <div className="stat">
          <div className="label">Compared</div>
          <div className="value">{plural(a.checked.states, 'later state')}</div>
          <div className="faint cell-sub">
            {fmtInt(a.checked.weights)} weights · {fmtInt(a.checked.biases)} biases · {fmtInt(a.checked.artifacts)}{' '}
            artifacts
          </div>
        </div>
      </div>
      {nothing ? (
        <p className="muted" style={{ marginBottom: 0 }}>
          Nothing to replay: no action-log line comes after the earliest stored state
          {a.states < 2 ? ', and there is no later state to compare' : ''}. Only the clamp on the stored weights was
          checked.
        </p>
      ) : null}
    </Panel>
  );
}

const VERDICT: Record<Differentiation['verdict'], string> = { works: 'ok', partial: 'warn', fails: 'danger' };

function DifferentiationFigures({
  d,
  title,
  testid,
  across = false,
}: {
  d: Differentiation;
  title: string;
  testid: string;
  /** Its advisories were given at different states. */
  across?: boolean;
}) {
  return (
    <div data-testid={testid}>
      <div className="label-sm">{title}</div>
      <p className="diff-figures">
        <span className={`badge ${VERDICT[d.verdict]}`} data-testid="differentiation-verdict">
          {d.verdict}
        </span>{' '}
        advisory variance <b className="mono">{d.variance.toFixed(4)}</b> · distinct top-1{' '}
        <b>
          {d.uniqueTop1} of {d.contexts}
        </b>{' '}
        {d.distinctContexts === d.contexts ? (
          'contexts'
        ) : (
          <>
            consult outputs, of {plural(d.distinctContexts, 'distinct context')}
            {across ? (
              <span className="muted" data-testid="differentiation-caveat">
                {' '}
                · each output from its own state, so a context repeated later counts the field’s drift as
                differentiation: the paper compares contexts at one state (as on the right)
              </span>
            ) : null}
          </>
        )}
      </p>
      <DataTable
        compact
        headless
        rows={d.top1}
        rowKey={(_, k) => k}
        columns={[
          { id: 'context', header: 'Context', className: 'cell-sub', cell: (x) => x.context },
          { id: 'to', header: 'Top 1', className: 'mono', cell: (x) => x.to ?? '—' },
        ]}
      />
    </div>
  );
}

/** The paper's advisory differentiation, of what the bridge advised and of the same contexts consulted now. */
function DifferentiationPanel({ audit: a }: { audit: Audit }) {
  return (
    <Panel
      as="div"
      style={{ marginTop: 14 }}
      testId="differentiation"
      title={
        <>
          <h2 className="panel-title">Advisory differentiation</h2>
          <span className="faint head-note">
            <Paper id="ucs" at="§5.3–5.4, Table 2" />; experiments/option_b_test.py: ≥ 3 distinct top-1 works, 2 partial
          </span>
        </>
      }
    >
      {a.differentiation || a.current ? (
        <div className="grid-2">
          {a.differentiation ? (
            <DifferentiationFigures
              d={a.differentiation}
              title="The stored consult outputs, as the bridge gave them (their top 6)"
              testid="differentiation-stored"
              across
            />
          ) : null}
          {a.current ? (
            <DifferentiationFigures
              d={a.current}
              title={`The same contexts consulted now on t ${a.current.t} (every candidate)`}
              testid="differentiation-current"
            />
          ) : null}
        </div>
      ) : (
        <EmptyState title="No consult outputs stored">
          The metric compares the advisories of several contexts: import the workspace’s consult_samples.json.
        </EmptyState>
      )}
      <p className="faint" style={{ marginBottom: 0 }}>
        Advisory variance: the mean over pairs of contexts of 1 − the cosine similarity of their score vectors (by
        destination). The paper reports 0.031 and 3 distinct top-1 of 5 contexts with the separated context field.
      </p>
    </Panel>
  );
}
