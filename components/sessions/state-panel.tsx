'use client';

import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { fmtInt, plural } from '@/lib/format';
import type { LangGraphTurn } from '@/lib/import/langgraph';
import {
  changeMarks,
  countChanges,
  preview,
  wholeValue,
  type ChangeKind,
  type StateChange,
} from '@/lib/json-state/diff';
import { flattenTree, openTopLevel, summarize, treeKey, type TreeRow, type ValueRow } from '@/lib/json-state/tree';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { ViewPanel } from './ccs-panel';

/** A string longer than this shows its start; Enter or a click on its row shows it whole. */
const STRING_CLIP = 240;
/** Changes listed before a "show all". */
const DIFF_ROWS = 300;

export interface StatePanelProps {
  turn: number;
  /** The turn's graph state, as stored. */
  state: unknown;
  /** What changed against `baseTurn`; null while the base turn is loading. */
  changes: StateChange[] | null;
  /** The turn the diff is against (null at the first turn). */
  baseTurn: number | null;
  langgraph: LangGraphTurn | null;
}

/**
 * A turn that carries a graph state instead of a CCS (a LangGraph turn): the same State / Diff / Raw tabs, keys and
 * compare control as the CCS panel. State is the JSON as a tree (marked where it changed since the previous turn),
 * Diff each changed path against the previous turn or the compare turn, Raw the state as stored. Memory content is
 * untrusted: every key and value is rendered as text.
 */
export function StatePanel(p: StatePanelProps) {
  return (
    <ViewPanel
      testId="state-panel"
      title={
        <>
          Graph state at turn <span className="mono">{p.turn}</span>
        </>
      }
      before={p.langgraph?.bounded ? <Bounded b={p.langgraph.bounded} /> : null}
      views={{
        state: () => <StateTree {...p} />,
        diff: () => <StateDiff {...p} />,
        raw: () => <StateRaw {...p} />,
      }}
    />
  );
}

function Bounded({ b }: { b: NonNullable<LangGraphTurn['bounded']> }) {
  const cut = [
    b.whole ? 'not stored: too large' : null,
    b.strings_clipped ? `${fmtInt(b.strings_clipped)} long strings clipped` : null,
    b.items_dropped ? `${fmtInt(b.items_dropped)} oldest array items not stored` : null,
    b.deep_cut ? `${fmtInt(b.deep_cut)} values nested too deep not stored` : null,
  ].filter(Boolean);
  return (
    <div className="faint" style={{ marginBottom: 6 }} data-testid="state-bounded">
      Stored bounded: the state was {fmtInt(b.chars)} characters of JSON; {cut.join(', ')}.
    </div>
  );
}

function StateTree({ turn, state, changes, baseTurn }: StatePanelProps) {
  // What the reader opened or closed (the rest: the top level open), kept while stepping through turns.
  const [opened, setOpened] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [showAll, setShowAll] = useState<ReadonlySet<string>>(new Set());
  const [whole, setWhole] = useState<ReadonlySet<string>>(new Set());
  const [active, setActive] = useState<string | null>(null);
  const refs = useRef(new Map<string, HTMLDivElement>());
  const rows = useMemo(
    () => flattenTree(state, { isOpen: (path, depth) => opened.get(path) ?? openTopLevel(path, depth), showAll }),
    [state, opened, showAll],
  );
  // Marks against the turn the diff is against (the previous one, or the compare turn); the first turn, all new, has
  // none.
  const marks = useMemo(() => changeMarks(baseTurn !== null && changes ? changes : []), [changes, baseTurn]);
  const counts = changes && baseTurn !== null ? countChanges(changes) : null;
  const at = Math.max(
    0,
    rows.findIndex((r) => r.path === active),
  );
  const isLong = (r: ValueRow) => r.kind === 'string' && r.size > STRING_CLIP;

  const act = (i: number, key: string, e?: KeyboardEvent) => {
    const a = treeKey(rows, i, key, isLong);
    if (!a) return;
    // The key is the tree's: the player's listener (use-replay-keys.ts) leaves a handled key alone.
    e?.preventDefault();
    if ('focus' in a) {
      const r = rows[a.focus]!;
      setActive(r.path);
      refs.current.get(r.path)?.focus();
    } else if ('showAll' in a) setShowAll(new Set([...showAll, a.showAll]));
    else if ('toggle' in a) {
      const r = rows[i] as ValueRow;
      if (r.kind === 'string') setWhole(toggled(whole, r.path));
      else setOpened(new Map([...opened, [r.path, !r.open]]));
    }
  };

  if (!rows.length) return <div className="faint">The graph state at this turn is empty.</div>;
  return (
    <>
      {counts ? (
        <div className="diff-summary" data-testid="state-changes">
          {changes!.length ? (
            <>
              <Counts n={counts} />{' '}
              <span className="muted">since turn {baseTurn}; marked below, listed under Diff</span>
            </>
          ) : (
            <span className="badge">no change from turn {baseTurn}</span>
          )}
        </div>
      ) : null}
      <div className="json-tree" role="tree" aria-label={`Graph state at turn ${turn}`} data-testid="state-tree">
        {rows.map((r, i) => (
          <Row
            key={r.path}
            row={r}
            active={i === at}
            mark={marks.at.get(r.path)}
            within={marks.within.get(r.path)}
            whole={whole.has(r.path)}
            long={r.kind !== 'more' && isLong(r)}
            bind={(el) => {
              if (el) refs.current.set(r.path, el);
              else refs.current.delete(r.path);
            }}
            onKey={(e) => act(i, e.key, e)}
            onClick={() => {
              setActive(r.path);
              act(i, 'Enter');
            }}
          />
        ))}
      </div>
    </>
  );
}

/** Added, removed and changed paths, as the CCS diff counts its terms. */
function Counts({ n }: { n: Record<ChangeKind, number> }) {
  return (
    <>
      <span className="badge ok">+{n.added}</span> <span className="badge danger">−{n.removed}</span>{' '}
      <span className="badge warn">~{n.changed}</span>
    </>
  );
}

function toggled(s: ReadonlySet<string>, k: string): ReadonlySet<string> {
  const next = new Set(s);
  if (!next.delete(k)) next.add(k);
  return next;
}

function Row({
  row: r,
  active,
  mark,
  within,
  whole,
  long,
  bind,
  onKey,
  onClick,
}: {
  row: TreeRow;
  active: boolean;
  mark: string | undefined;
  within: number | undefined;
  whole: boolean;
  long: boolean;
  bind: (el: HTMLDivElement | null) => void;
  onKey: (e: KeyboardEvent) => void;
  onClick: () => void;
}) {
  const common = {
    ref: bind,
    role: 'treeitem',
    'aria-level': r.depth + 1,
    'aria-selected': active,
    tabIndex: active ? 0 : -1,
    'data-path': r.path,
    onKeyDown: onKey,
    onClick,
    style: { paddingLeft: 8 + r.depth * 14 },
  } as const;
  if (r.kind === 'more')
    return (
      <div {...common} className="jt-row jt-more" data-kind="more">
        <span className="jt-caret" aria-hidden="true" />
        show {fmtInt(r.hidden)} more
      </div>
    );
  const container = r.kind === 'object' || r.kind === 'array';
  return (
    <div
      {...common}
      aria-expanded={container && r.size ? r.open : undefined}
      className="jt-row"
      data-kind={r.kind}
      data-mark={mark}
    >
      <span className="jt-caret" aria-hidden="true">
        {container && r.size ? (r.open ? '▾' : '▸') : ''}
      </span>
      {mark === 'added' || mark === 'changed' ? (
        <span className={`jt-sign jt-${mark}`} title={mark === 'added' ? 'added at this turn' : 'changed at this turn'}>
          {mark === 'added' ? '+' : '~'}
        </span>
      ) : null}
      {r.path ? (
        <span className={typeof r.key === 'number' ? 'jt-key jt-index' : 'jt-key'}>
          {typeof r.key === 'number' ? r.key : <MemoryText text={r.key} />}
        </span>
      ) : null}
      <span className="jt-value">
        <Value row={r} whole={whole} long={long} />
      </span>
      {within ? (
        <span
          className="jt-within"
          title={`${plural(within, 'path')} inside added, removed or changed since the turn before`}
        >
          {plural(within, 'change')} inside
        </span>
      ) : null}
      <span className="jt-type">
        {r.kind}
        {container || r.kind === 'string' ? ` ${fmtInt(r.size)}` : ''}
      </span>
    </div>
  );
}

function Value({ row: r, whole, long }: { row: ValueRow; whole: boolean; long: boolean }) {
  if (r.kind === 'object' || r.kind === 'array') {
    if (!r.size) return <span className="jt-sum">{r.kind === 'array' ? '[ ]' : '{ }'}</span>;
    // Closed, its contents on one line: a message can be read without opening it.
    return (
      <span className="jt-sum">
        {r.open ? (
          `${fmtInt(r.size)} ${r.kind === 'array' ? (r.size === 1 ? 'item' : 'items') : r.size === 1 ? 'key' : 'keys'}`
        ) : (
          <MemoryText text={summarize(r.node)} />
        )}
      </span>
    );
  }
  if (r.kind === 'string') {
    const text = r.value as string;
    return (
      <span className="jt-string">
        “<MemoryText text={long && !whole ? `${text.slice(0, STRING_CLIP)}…` : text} />”
        {long ? (
          <span className="jt-hint"> {whole ? 'Enter: less' : `${fmtInt(text.length)} characters, Enter: all`}</span>
        ) : null}
      </span>
    );
  }
  return <span className={`jt-${r.kind}`}>{String(r.value)}</span>;
}

function StateDiff({ changes, baseTurn }: StatePanelProps) {
  const [all, setAll] = useState(false);
  if (baseTurn === null) return <div className="faint">The first turn: everything in it is new.</div>;
  if (!changes) return <div className="skeleton" />;
  const n = countChanges(changes);
  const shown = all ? changes : changes.slice(0, DIFF_ROWS);
  return (
    <div data-testid="state-diff">
      <div className="diff-summary">
        {changes.length ? (
          <>
            <Counts n={n} /> <span className="muted">paths against turn {baseTurn}</span>
          </>
        ) : (
          <span className="badge">no change from turn {baseTurn}</span>
        )}
      </div>
      {changes.length ? (
        <DataTable
          compact
          className="state-diff"
          headless
          rows={shown}
          rowKey={(c) => `${c.kind}:${c.path}`}
          rowProps={(c) => ({ 'data-path': c.path, 'data-change': c.kind })}
          columns={[
            {
              id: 'kind',
              header: 'Change',
              width: 1,
              cell: (c) => <span className={`badge ${CHANGE_TONE[c.kind]}`}>{c.kind}</span>,
            },
            { id: 'path', header: 'Path', cell: (c) => <DiffChange c={c} /> },
          ]}
        />
      ) : null}
      {shown.length < changes.length ? (
        <button type="button" className="link-btn" onClick={() => setAll(true)}>
          show all {fmtInt(changes.length)} changes
        </button>
      ) : null}
    </div>
  );
}

const CHANGE_TONE = { added: 'ok', removed: 'danger', changed: 'warn' } as const;

/** A change's path, its values before and after, and the whole values on demand (a diff row's second cell). */
function DiffChange({ c }: { c: StateChange }) {
  const [open, setOpen] = useState(false);
  const from = preview(c.from);
  const to = preview(c.to);
  return (
    <>
      <div className="jt-diff-line mono">
        <span className="jt-path">{c.path ? <MemoryText text={c.path} /> : '(the whole state)'}</span>
        <span className="jt-change">
          {c.kind !== 'added' ? (
            <span className="jt-old" data-testid="change-from">
              <MemoryText text={from.text} />
            </span>
          ) : null}
          {c.kind === 'changed' ? <span className="arrow"> → </span> : null}
          {c.kind !== 'removed' ? (
            <span className="jt-new" data-testid="change-to">
              <MemoryText text={to.text} />
            </span>
          ) : null}
          {from.clipped || to.clipped ? (
            <button type="button" className="link-btn" aria-expanded={open} onClick={() => setOpen(!open)}>
              {open ? 'less' : 'whole value'}
            </button>
          ) : null}
        </span>
      </div>
      {open ? (
        <div className="jt-whole" data-testid="change-whole">
          {c.kind !== 'added' ? (
            <pre className="raw">
              <MemoryText text={wholeValue(c.from)} />
            </pre>
          ) : null}
          {c.kind !== 'removed' ? (
            <pre className="raw">
              <MemoryText text={wholeValue(c.to)} />
            </pre>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

function StateRaw({ state }: StatePanelProps) {
  return (
    <div>
      <div className="muted" style={{ marginBottom: 6 }}>
        The graph state as recorded, JSON
      </div>
      <pre className="raw" data-testid="state-raw">
        {JSON.stringify(state, null, 2)}
      </pre>
    </div>
  );
}
