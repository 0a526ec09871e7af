'use client';

import { DataTable } from '@/components/ui/data-table';
import { Panel } from '@/components/ui/panel';
import { EmptyState } from '@/components/ui/states';
import { fmtInt } from '@/lib/format';
import { f2 } from '@/lib/hygiene/lab-view';
import { LineChart } from '@/components/ui/line-chart';
import type { Lab } from './types';

/**
 * The addition report ("How Memory Management Impacts LLM Agents: An Empirical Study of Experience-Following
 * Behavior"): add-all against the evaluator's selection, and the quality of what was added over time.
 */
export function AdditionTab({ lab }: { lab: Lab }) {
  const a = lab.addition;
  if (!a.reported)
    return (
      <EmptyState title="No addition decisions reported">
        Send <code>{'"addition": {"decision": "added" | "skipped", "evaluator": "…"}'}</code> on each turn to compare
        add-all with the evaluator&apos;s selection.
      </EmptyState>
    );
  const t = a.total;
  return (
    <>
      <div className="stats" data-testid="addition-stats">
        <div className="stat">
          <div className="label">Executions (add-all)</div>
          <div className="value">{fmtInt(t.executions)}</div>
        </div>
        <div className="stat">
          <div className="label" title="stored: by add-all where no evaluator ran, else as the evaluator chose">
            Added
          </div>
          <div className="value">{fmtInt(t.added)}</div>
        </div>
        <div className="stat">
          <div className="label">Skipped</div>
          <div className="value">{fmtInt(t.skipped)}</div>
        </div>
        <div className="stat">
          <div className="label">Utility: all / added / skipped</div>
          <div className="value">
            {f2(t.meanUtilityAll)} / {f2(t.meanUtilityAdded)} / {f2(t.meanUtilitySkipped)}
          </div>
        </div>
        <div className="stat">
          <div className="label">Wrong executions stored</div>
          <div className="value">{fmtInt(t.errorsAdded)}</div>
        </div>
      </div>
      <Panel
        style={{ marginTop: 14 }}
        title={
          <>
            Quality of what was added, over time <span className="muted">evaluators: {t.evaluators.join(', ')}</span>
          </>
        }
      >
        <LineChart
          testId="addition-chart"
          yMax={1}
          xLabel="step (end of window)"
          yLabel="mean utility"
          lastLabel="last window"
          series={[
            {
              key: 'all',
              label: 'all executions (add-all)',
              color: 'var(--faint)',
              dashed: true,
              values: a.windows
                .filter((w) => w.meanUtilityAll !== null)
                .map((w) => ({ x: w.to, y: w.meanUtilityAll! })),
            },
            {
              key: 'added',
              label: 'added',
              color: 'var(--series-1)',
              values: a.windows
                .filter((w) => w.meanUtilityAdded !== null)
                .map((w) => ({ x: w.to, y: w.meanUtilityAdded! })),
            },
          ]}
        />
        <DataTable
          compact
          rows={a.windows}
          rowKey={(w) => w.from}
          columns={[
            { id: 'steps', header: 'Steps', cell: (w) => `${w.from}–${w.to}` },
            { id: 'evaluator', header: 'Evaluator', cell: (w) => w.evaluators.join(', ') },
            { id: 'executions', header: 'Executions', num: true, cell: (w) => w.executions },
            { id: 'added', header: 'Added', num: true, cell: (w) => w.added },
            { id: 'skipped', header: 'Skipped', num: true, cell: (w) => w.skipped },
            { id: 'utility-added', header: 'Utility added', num: true, cell: (w) => f2(w.meanUtilityAdded) },
            { id: 'utility-all', header: 'Utility all', num: true, cell: (w) => f2(w.meanUtilityAll) },
            {
              id: 'wrong',
              header: 'Wrong stored',
              num: true,
              cellProps: (w) => ({ style: { color: w.errorsAdded ? 'var(--danger)' : undefined } }),
              cell: (w) => w.errorsAdded,
            },
          ]}
        />
      </Panel>
    </>
  );
}
