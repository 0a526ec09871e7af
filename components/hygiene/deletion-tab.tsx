'use client';

import { fmtInt, plural } from '@/lib/format';
import { PAPER_DEFAULTS, type DeletionParams } from '@/lib/hygiene/deletion';
import { DataTable } from '@/components/ui/data-table';
import { LineChart } from '@/components/ui/line-chart';
import { Panel } from '@/components/ui/panel';
import { POLICY_COLOR, POLICY_LABEL } from './labels';
import { NumberField } from './number-field';
import { ProposeButton } from './propose-button';
import type { Lab, Raise } from './types';
import { Paper } from '@/components/ui/paper';

/**
 * The deletion policies of "How Memory Management Impacts LLM Agents: An Empirical Study of
 * Experience-Following Behavior": their parameters, memory size over the history, and what each removes today.
 */
export function DeletionTab({
  lab,
  params: p,
  setParams,
  onSelect,
  raise,
  busy,
}: {
  lab: Lab;
  params: DeletionParams;
  setParams: (p: DeletionParams) => void;
  onSelect: (id: string) => void;
  raise: Raise;
  busy: boolean;
}) {
  const s = lab.deletion.sizes;
  // "No deletion" last, drawn over the others: a policy that removes nothing lies under its dashes, not over them.
  const series = (['periodic', 'history', 'combined', 'product', 'capacity', 'none'] as const).map((k) => ({
    key: k,
    label: k === 'none' ? 'no deletion' : POLICY_LABEL[k],
    color: POLICY_COLOR[k],
    dashed: k === 'none',
    values: s.map((pt) => ({ x: pt.step, y: pt[k] })),
  }));
  return (
    <>
      <Panel title="Parameters">
        <div className="toolbar" style={{ flexWrap: 'wrap', gap: 14 }}>
          <NumberField
            label="Period P (steps)"
            value={p.period}
            min={1}
            max={1_000_000}
            onChange={(v) => setParams({ ...p, period: Math.min(1_000_000, Math.max(1, Math.round(v))) })}
          />
          <NumberField
            label="α (max recalls in P)"
            value={p.alpha}
            max={1000}
            onChange={(v) => setParams({ ...p, alpha: Math.min(1000, Math.max(0, Math.round(v))) })}
          />
          <NumberField
            label="n (recalls before judged)"
            value={p.n}
            max={1000}
            onChange={(v) => setParams({ ...p, n: Math.min(1000, Math.max(0, Math.round(v))) })}
          />
          <NumberField
            label="β (mean utility ≤)"
            value={p.beta}
            step={0.05}
            max={1}
            onChange={(v) => setParams({ ...p, beta: Math.min(1, Math.max(0, v)) })}
          />
          <NumberField
            label="Capacity C"
            value={p.capacity}
            min={1}
            max={1_000_000}
            onChange={(v) => setParams({ ...p, capacity: Math.min(1_000_000, Math.max(1, Math.round(v))) })}
          />
          <button type="button" className="btn btn-small" onClick={() => setParams({ ...PAPER_DEFAULTS })}>
            Paper&apos;s values
          </button>
        </div>
        <p className="muted" style={{ marginBottom: 0, fontSize: 12 }} data-testid="deletion-params">
          <Paper id="additionDeletion" at="§5.1, §6.2, Appendix A.2" /> uses P = 200–300 steps, α = 0–1, n = 5, β =
          0.3–0.7 and C = 100. Periodic: retrieved ≤ α times in the last P steps (items younger than P are not judged).
          History-based: retrieved more than n times with mean utility ≤ β. The paper gives combined deletion two
          readings (§5.1): &ldquo;applied together&rdquo; (either rule removes; the only reading that agrees with its
          Table 2, where combined keeps the smallest memory) and the formula it prints, φ<sub>period</sub> × φ
          <sub>history</sub> (both rules must fire, checked every P steps). Capacity: periodic, then the least useful
          until C fit.
        </p>
        {p.period > lab.timeline.turns ? (
          <p className="banner warn" style={{ margin: '8px 0 0' }} data-testid="period-note">
            P = {fmtInt(p.period)} is longer than this agent&apos;s history ({plural(lab.timeline.turns, 'step')}): no
            item is ever old enough to be judged, so periodic deletion (and capacity&apos;s periodic pass) removes
            nothing here. Try a P below {fmtInt(lab.timeline.turns)}.
          </p>
        ) : null}
      </Panel>
      <Panel
        style={{ marginTop: 14 }}
        title={
          <>
            Memory size over the recorded history{' '}
            <span className="muted">recalls replayed as recorded; a removed item&apos;s later recalls are dropped</span>
          </>
        }
      >
        <LineChart
          series={series}
          xLabel="step (turns of this agent, in time order)"
          yLabel="items in memory"
          testId="size-chart"
        />
        <p className="muted" style={{ margin: '6px 0 0', fontSize: 12 }} data-testid="size-note">
          Each figure in the legend is the memory that policy would hold after the last step, had it run over the whole
          history; the cards below apply each rule once, to the {fmtInt(lab.deletion.activeItems)} items in the
          agent&apos;s store today (curated entries are left to review).
        </p>
      </Panel>
      <div className="lab-columns" style={{ marginTop: 14 }} data-testid="deletion-now">
        {(['periodic', 'history', 'combined', 'product', 'capacity'] as const).map((k) => {
          const list = lab.deletion.now[k];
          return (
            <Panel
              key={k}
              testId={`remove-${k}`}
              body={false}
              title={POLICY_LABEL[k]}
              actions={
                <span className="muted">
                  removes <b>{fmtInt(list.length)}</b> of {fmtInt(lab.deletion.activeItems)} today
                </span>
              }
            >
              <div style={{ maxHeight: 360, overflow: 'auto' }} tabIndex={0}>
                {list.length ? (
                  <DataTable
                    compact
                    headless
                    rows={list}
                    rowKey={(v) => v.id}
                    columns={[
                      {
                        id: 'item',
                        header: 'Item',
                        cell: (v) => (
                          <>
                            <button type="button" className="link-btn mono" onClick={() => onSelect(v.id)}>
                              {v.id}
                            </button>
                            <div className="cell-sub">{v.reason}</div>
                          </>
                        ),
                      },
                      {
                        id: 'propose',
                        header: 'Propose',
                        className: 'right',
                        cell: (v) => (
                          <ProposeButton
                            item={v.id}
                            policy={k}
                            raise={raise}
                            busy={busy}
                            label="Propose"
                            // Named by its policy: an item another policy removes too has a button in each panel.
                            name={`Propose deprecation (${POLICY_LABEL[k].toLowerCase()})`}
                          />
                        ),
                      },
                    ]}
                  />
                ) : (
                  <p className="muted panel-body" style={{ margin: 0 }}>
                    Nothing to remove with these parameters.
                  </p>
                )}
              </div>
            </Panel>
          );
        })}
      </div>
    </>
  );
}
