'use client';

import { useState } from 'react';
import { DataTable } from '@/components/ui/data-table';
import { pickByArrows } from '@/components/ui/list-keys';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { fmtInt } from '@/lib/format';
import { f2, filterItems, type ItemFilter } from '@/lib/hygiene/lab-view';
import { RecallStrip } from './charts';
import type { LabItem } from './types';

/** Every memory item of the lab, filtered and searched; a row selects its item. */
/** What a filter with no item says: "No memory item …". */
const NONE: Record<ItemFilter, string> = {
  all: 'in this store',
  misaligned: 'is misaligned',
  chains: 'is in an error chain',
  recalled: 'was recalled',
  never: 'went unrecalled',
  entries: 'is a durable entry',
};

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
    <Panel
      body={false}
      title={`Memory items (${fmtInt(rows.length)})`}
      actions={
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
      }
    >
      {/* Each row's item is a button (Tab reaches it, Enter picks it; ↓ / ↑ go on to the next or previous row's). */}
      <div style={{ maxHeight: 480, overflow: 'auto' }} tabIndex={0} onKeyDown={(e) => pickByArrows(e, '.link-btn')}>
        <DataTable
          compact
          testId="items-table"
          rows={rows}
          empty={
            <span className="muted" data-testid="items-none">
              {q.trim()
                ? `No ${filter === 'all' ? '' : 'such '}memory item matches “${q.trim()}”.`
                : `No memory item ${NONE[filter]}.`}
            </span>
          }
          rowKey={(r) => r.id}
          rowProps={(r) => ({
            className: `clickable${r.id === selected ? ' row-on' : ''}`,
            onClick: () => onSelect(r.id),
          })}
          columns={[
            {
              id: 'item',
              header: 'Item',
              cell: (r) => (
                <>
                  <button
                    type="button"
                    className="link-btn mono"
                    aria-current={r.id === selected ? 'true' : undefined}
                    onClick={(e) => {
                      e.stopPropagation();
                      onSelect(r.id);
                    }}
                  >
                    {r.id}
                  </button>{' '}
                  {r.misaligned ? <span className="badge danger">misaligned</span> : null}{' '}
                  {inChains.has(r.id) ? <span className="badge warn">error chain</span> : null}{' '}
                  {r.status !== 'active' ? <span className="badge">{r.status}</span> : null}{' '}
                  {r.source === 'entry' ? <span className="badge accent">entry</span> : null}
                  <div className="cell-sub clip" style={{ maxWidth: 420 }}>
                    <MemoryText text={r.content} />
                  </div>
                </>
              ),
            },
            // A step of the agent's timeline (its turns across sessions, in time order), not a session's turn.
            { id: 'added', header: 'Added at step', num: true, cell: (r) => r.addedStep },
            { id: 'recalled', header: 'Recalled', num: true, cell: (r) => r.recalled },
            { id: 'qualified', header: 'Let in', num: true, cell: (r) => r.qualified },
            { id: 'utility', header: 'Utility', num: true, cell: (r) => f2(r.meanUtility) },
            { id: 'in', header: 'In sim', num: true, cell: (r) => f2(r.meanInputSim) },
            { id: 'out', header: 'Out sim', num: true, cell: (r) => f2(r.meanOutputSim) },
            {
              id: 'recalls',
              header: 'Recalls over time',
              cell: (r) => <RecallStrip retrievals={r.retrievals} total={turns} added={r.addedStep} />,
            },
          ]}
        />
      </div>
    </Panel>
  );
}
