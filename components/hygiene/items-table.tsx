'use client';

import { useState } from 'react';
import { MemoryText } from '@/components/ui/memory-text';
import { fmtInt } from '@/lib/format';
import { f2, filterItems, type ItemFilter } from '@/lib/hygiene/lab-view';
import { RecallStrip } from './charts';
import type { LabItem } from './types';

/** Every memory item of the lab, filtered and searched; a row selects its item. */
export function ItemsTable({
  items,
  inChains,
  selected,
  onSelect,
  turns,
}: {
  items: LabItem[];
  inChains: ReadonlySet<string>;
  selected: string | null;
  onSelect: (id: string) => void;
  /** Steps in the agent's timeline (the recall strips' width). */
  turns: number;
}) {
  const [filter, setFilter] = useState<ItemFilter>('all');
  const [q, setQ] = useState('');
  const rows = filterItems(items, filter, q, inChains);
  return (
    <section className="panel">
      <div className="panel-head">
        <span>Memory items ({fmtInt(rows.length)})</span>
        <span className="toolbar">
          <input
            className="input"
            placeholder="Filter by id or text"
            aria-label="Filter memory items"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
          <select
            className="select"
            aria-label="Show"
            value={filter}
            onChange={(e) => setFilter(e.target.value as ItemFilter)}
          >
            <option value="all">all</option>
            <option value="misaligned">misaligned</option>
            <option value="chains">in error chains</option>
            <option value="recalled">recalled</option>
            <option value="never">never recalled</option>
            <option value="entries">durable entries</option>
          </select>
        </span>
      </div>
      <div style={{ maxHeight: 480, overflow: 'auto' }} tabIndex={0}>
        <table className="data compact" data-testid="items-table">
          <thead>
            <tr>
              <th>Item</th>
              <th className="num">Added</th>
              <th className="num">Recalled</th>
              <th className="num">Let in</th>
              <th className="num">Utility</th>
              <th className="num">In sim</th>
              <th className="num">Out sim</th>
              <th>Recalls over time</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.id}
                className={`clickable${r.id === selected ? ' row-on' : ''}`}
                onClick={() => onSelect(r.id)}
              >
                <td>
                  <span className="mono">{r.id}</span>{' '}
                  {r.misaligned ? <span className="badge danger">misaligned</span> : null}{' '}
                  {inChains.has(r.id) ? <span className="badge warn">error chain</span> : null}{' '}
                  {r.status !== 'active' ? <span className="badge">{r.status}</span> : null}{' '}
                  {r.source === 'entry' ? <span className="badge accent">entry</span> : null}
                  <div className="cell-sub clip" style={{ maxWidth: 420 }}>
                    <MemoryText text={r.content} />
                  </div>
                </td>
                <td className="num">{r.addedStep}</td>
                <td className="num">{r.recalled}</td>
                <td className="num">{r.qualified}</td>
                <td className="num">{f2(r.meanUtility)}</td>
                <td className="num">{f2(r.meanInputSim)}</td>
                <td className="num">{f2(r.meanOutputSim)}</td>
                <td>
                  <RecallStrip retrievals={r.retrievals} total={turns} added={r.addedStep} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
