'use client';

import { useMemo } from 'react';
import { fmtInt, plural } from '@/lib/format';
import type { MisalignmentRule } from '@/lib/hygiene/items';
import { groupChains, itemsInChains } from '@/lib/hygiene/lab-view';
import { scatterPoints } from '@/lib/hygiene/prepare-charts';
import { LineChart } from '@/components/ui/line-chart';
import { Panel } from '@/components/ui/panel';
import { Scatter } from './charts';
import { FlaggedPanel } from './flagged-panel';
import { ItemDetail } from './item-detail';
import { ItemsTable } from './items-table';
import { NumberField } from './number-field';
import type { Lab, Raise } from './types';
import { Paper } from '@/components/ui/paper';

/**
 * Memory item health: the experience-following plot with the misalignment rule, the flagged items
 * (misaligned, error chains), every item, and the selected one in detail.
 */
export function ItemHealthTab({
  lab,
  selected,
  onSelect,
  mis,
  setMis,
  raise,
  busy,
}: {
  lab: Lab;
  selected: string | null;
  onSelect: (id: string | null) => void;
  mis: MisalignmentRule;
  setMis: (m: MisalignmentRule) => void;
  raise: Raise;
  busy: boolean;
}) {
  const inChains = useMemo(() => itemsInChains(lab.chains), [lab.chains]);
  const chains = useMemo(() => groupChains(lab.chains), [lab.chains]);
  const points = useMemo(() => scatterPoints(lab.items), [lab.items]);
  const misaligned = lab.items.filter((r) => r.misaligned);
  const sel = lab.items.find((r) => r.id === selected) ?? null;
  return (
    <>
      <div className="grid-2" style={{ gridTemplateColumns: 'minmax(420px, 3fr) minmax(340px, 2fr)' }}>
        <Panel
          title={
            <>
              Experience following <span className="muted">{plural(points.length, 'retrieval')}</span>
            </>
          }
          actions={
            <span className="muted" data-testid="experience-r">
              {lab.experience.r === null
                ? 'r: too few turns'
                : `r = ${lab.experience.r.toFixed(3).replace('-', '−')} over ${fmtInt(lab.experience.turns)} turns`}
              {lab.experience.rRecalls === null
                ? ''
                : ` · ${lab.experience.rRecalls.toFixed(3).replace('-', '−')} over every recall`}
            </span>
          }
        >
          <Scatter
            points={points}
            inputMin={mis.inputMin}
            outputMax={mis.outputMax}
            selected={selected}
            onSelect={onSelect}
          />
          <div className="toolbar" style={{ flexWrap: 'wrap', fontSize: 12 }}>
            <span className="muted">Misaligned when input ≥</span>
            <NumberField
              label="Input similarity at least"
              showLabel={false}
              width={64}
              step={0.05}
              max={1}
              value={mis.inputMin}
              onChange={(v) => setMis({ ...mis, inputMin: v })}
            />
            <span className="muted">and output ≤</span>
            <NumberField
              label="Output similarity at most"
              showLabel={false}
              width={64}
              step={0.05}
              max={1}
              value={mis.outputMax}
              onChange={(v) => setMis({ ...mis, outputMax: v })}
            />
            <span className="muted">in at least</span>
            <NumberField
              label="Misaligned retrievals at least"
              showLabel={false}
              width={64}
              min={1}
              max={1000}
              value={mis.minHits}
              onChange={(v) => setMis({ ...mis, minHits: Math.max(1, Math.round(v)) })}
            />
            <span className="muted">retrievals, and half of its retrievals.</span>
          </div>
        </Panel>
        <FlaggedPanel misaligned={misaligned} chains={chains} onSelect={onSelect} />
      </div>
      <CumulativeCurves lab={lab} />

      <div
        className="grid-2"
        style={{ marginTop: 14, gridTemplateColumns: sel ? 'minmax(480px, 3fr) minmax(340px, 2fr)' : '1fr' }}
      >
        <ItemsTable
          items={lab.items}
          inChains={inChains}
          selected={selected}
          onSelect={onSelect}
          turns={lab.timeline.turns}
        />
        {sel ? (
          <ItemDetail
            r={sel}
            lab={lab}
            inChain={inChains.has(sel.id)}
            onClose={() => onSelect(null)}
            raise={raise}
            busy={busy}
          />
        ) : null}
      </div>
    </>
  );
}

/**
 * The paper's Figure 4: cumulative mean output similarity, and cumulative performance (the turns' utility), against
 * cumulative mean input similarity, over the agent's turns in time order.
 */
function CumulativeCurves({ lab }: { lab: Lab }) {
  const c = lab.experience.cumulative;
  if (c.length < 2) return null;
  const last = c.at(-1)!;
  const curves = [
    { key: 'output', label: 'cumulative output similarity', color: 'var(--series-1)', y: 'output' },
    { key: 'performance', label: 'cumulative utility', color: 'var(--series-2)', y: 'performance' },
  ] as const;
  return (
    <Panel
      style={{ marginTop: 14 }}
      testId="experience-curves"
      bodyClassName="grid-2"
      title={
        <>
          Cumulative averages over {fmtInt(last.n)} turns{' '}
          <span className="muted">
            Figure 4 of <Paper id="additionDeletion" />: a turn&apos;s input similarity is its closest recall&apos;s
            (Appendix A.2), its output similarity that recall&apos;s
          </span>
        </>
      }
    >
      {curves.map((k) => {
        const points = c.filter((p) => p[k.y] !== null);
        const after = (n: number) => `after ${fmtInt(n)} turn${n === 1 ? '' : 's'}`;
        return (
          <LineChart
            key={k.key}
            series={[
              {
                key: k.key,
                label: k.label,
                color: k.color,
                values: points.map((p) => ({ x: p.input, y: p[k.y]! })),
                // In time order, as the paper draws it: the curve doubles back while few turns are averaged.
                ends: points.length ? { first: after(points[0]!.n), last: after(points.at(-1)!.n) } : undefined,
              },
            ]}
            xLabel="cumulative mean input similarity"
            yLabel={k.key === 'output' ? 'cumulative mean output similarity' : 'cumulative mean utility'}
            yMax={1}
            height={200}
            testId={`cumulative-${k.key}`}
            fitX
          />
        );
      })}
    </Panel>
  );
}
