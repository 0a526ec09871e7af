'use client';

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
          <div className="label">Added by the evaluator</div>
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
      <section className="panel" style={{ marginTop: 14 }}>
        <div className="panel-head">
          Quality of what was added, over time <span className="muted">evaluators: {t.evaluators.join(', ')}</span>
        </div>
        <div className="panel-body">
          <LineChart
            testId="addition-chart"
            yMax={1}
            xLabel="step (end of window)"
            yLabel="mean utility"
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
          <table className="data compact">
            <thead>
              <tr>
                <th>Steps</th>
                <th>Evaluator</th>
                <th className="num">Executions</th>
                <th className="num">Added</th>
                <th className="num">Skipped</th>
                <th className="num">Utility added</th>
                <th className="num">Utility all</th>
                <th className="num">Wrong stored</th>
              </tr>
            </thead>
            <tbody>
              {a.windows.map((w) => (
                <tr key={w.from}>
                  <td>
                    {w.from}–{w.to}
                  </td>
                  <td>{w.evaluators.join(', ')}</td>
                  <td className="num">{w.executions}</td>
                  <td className="num">{w.added}</td>
                  <td className="num">{w.skipped}</td>
                  <td className="num">{f2(w.meanUtilityAdded)}</td>
                  <td className="num">{f2(w.meanUtilityAll)}</td>
                  <td className="num" style={{ color: w.errorsAdded ? 'var(--danger)' : undefined }}>
                    {w.errorsAdded}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
