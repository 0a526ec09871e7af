'use client';

import * as Tabs from '@radix-ui/react-tabs';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { inReviewOrder, type CcsTerms } from '@/lib/ccs/contract';
import type { CcsDiff } from '@/lib/ccs/diff';
import type { TermEvent } from '@/lib/ccs/provenance';
import { fmtInt } from '@/lib/format';
import { MemoryText } from '@/components/ui/memory-text';
import { TermChip } from './term-chip';
import { useReplay } from './store';

const TYPED = new Set(['focal_entities']);

/**
 * One event of a term's history, said from the term's side: a change brings it in ("in at turn 9, was level(medium)")
 * or takes it out ("out at turn 15, became level(medium)"); "changed from … / changed to …" read alike in a row.
 */
export const termEventLabel = (e: Pick<TermEvent, 'turn' | 'kind'> & { other?: string | null }) =>
  e.kind === 'added'
    ? `added at turn ${e.turn}`
    : e.kind === 'removed'
      ? `dropped at turn ${e.turn}`
      : e.kind === 'changed_to'
        ? `in at turn ${e.turn}, was ${e.other}`
        : `out at turn ${e.turn}, became ${e.other}`;

export interface CcsPanelProps {
  turn: number;
  ccs: CcsTerms;
  /** The CCS as sent; undefined while the turn's window is loading. */
  ccsRaw: unknown;
  diff: CcsDiff;
  /** The turn the diff is against (null at the first turn). */
  baseTurn: number | null;
  /** Where a term of this turn came from (the turn that brought it in) and its history; undefined while loading. */
  blame: (field: string, term: string) => { introduced: number | null; history: string } | undefined;
  onJump: (turn: number) => void;
}

const VIEWS = [
  ['state', 'State'],
  ['diff', 'Diff'],
  ['raw', 'Raw'],
] as const;
type View = (typeof VIEWS)[number][0];

/**
 * A panel of a turn's state with its State / Diff / Raw tabs (Radix Tabs: arrow keys move between them, `d` cycles
 * them from anywhere): one choice for the CCS and for a graph state (state-panel.tsx). `before` goes above the view.
 */
export function ViewPanel({
  title,
  testId,
  before,
  views,
}: {
  title: ReactNode;
  testId: string;
  before?: ReactNode;
  views: Record<View, () => ReactNode>;
}) {
  const { tab, set } = useReplay();
  return (
    <Tabs.Root value={tab} onValueChange={(v) => set({ tab: v as View })} asChild>
      <div className="panel" data-testid={testId}>
        <div className="panel-head">
          <span>{title}</span>
          <Tabs.List className="tabs" aria-label="View">
            {VIEWS.map(([v, label]) => (
              <Tabs.Trigger key={v} value={v} className="tab">
                {label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </div>
        {VIEWS.map(([v]) => (
          <Tabs.Content key={v} value={v} className="panel-body">
            {tab === v ? (
              <>
                {before}
                {views[v]()}
              </>
            ) : null}
          </Tabs.Content>
        ))}
      </div>
    </Tabs.Root>
  );
}

export function CcsPanel(p: CcsPanelProps) {
  return (
    <ViewPanel
      testId="ccs-panel"
      title={
        <>
          CCS at turn <span className="mono">{fmtInt(p.turn)}</span>
        </>
      }
      views={{ state: () => <StateView {...p} />, diff: () => <DiffView {...p} />, raw: () => <RawView {...p} /> }}
    />
  );
}

const chipKey = (field: string, term: string) => `${field}\u0000${term}`;

/** The term whose chip was followed to the turn that introduced it (kept across the panel's remount meanwhile). */
let following: { field: string; term: string; turn: number } | null = null;

function StateView({ turn, ccs, diff, blame, onJump }: CcsPanelProps) {
  // The history of the term under the pointer or the keyboard, in words on the page (not only in a tooltip).
  const [shown, setShown] = useState<string | null>(null);
  // The chips that link to an earlier turn are one Tab stop (the last one focused, else the first); ↑ ↓ move among
  // them, as ← → are the player's. Keyed by field and term.
  const [current, setCurrent] = useState<string | null>(null);
  // A chip followed to the turn that introduced its term: focus stays on that term there (the chip followed is gone).
  const grid = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const f = following;
    if (!f || f.turn !== turn) return; // not there yet: tried again when this view shows that turn
    following = null;
    const chips = grid.current?.querySelectorAll<HTMLElement>(`[data-field="${CSS.escape(f.field)}"] .chip`) ?? [];
    [...chips].find((c) => c.dataset.term === f.term)?.focus();
  });
  const byField = new Map(diff.fields.map((f) => [f.field, f]));
  const fields = inReviewOrder(Object.keys(ccs).filter((f) => ccs[f]?.length || byField.get(f)?.removed.length));
  const linkOf = (f: string, t: string) => {
    const intro = blame(f, t)?.introduced ?? null;
    return intro !== null && intro !== turn ? intro : null;
  };
  const links = fields.flatMap((f) => (ccs[f] ?? []).filter((t) => linkOf(f, t) !== null).map((t) => chipKey(f, t)));
  const stop = current !== null && links.includes(current) ? current : links[0];
  if (!fields.length)
    return (
      <div className="faint" data-testid="ccs-none">
        No CCS at this turn: the agent sent none (<code>{'{}'}</code>), as an agent traced by OpenTelemetry or one that
        keeps no compressed state does.
      </div>
    );
  return (
    <>
      <div
        className="ccs-grid"
        data-testid="ccs-state"
        ref={grid}
        onFocus={(e) => {
          const el = e.target as HTMLElement;
          const f = el.closest<HTMLElement>('[data-field]')?.dataset.field;
          if (el.classList.contains('chip-link') && f && el.dataset.term) setCurrent(chipKey(f, el.dataset.term));
        }}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
          const chips = [...(grid.current?.querySelectorAll<HTMLElement>('.chip-link') ?? [])];
          const at = chips.indexOf(e.target as HTMLElement);
          if (at < 0) return;
          e.preventDefault();
          chips[Math.max(0, Math.min(chips.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))]?.focus();
        }}
      >
        {fields.map((f) => {
          const d = byField.get(f);
          const added = new Set(d?.added);
          const changed = new Map(d?.changed.map((c) => [c.to, c.from]));
          return (
            <div key={f} style={{ display: 'contents' }}>
              <div className="field">{f}</div>
              <div data-field={f}>
                {(ccs[f] ?? []).map((t) => {
                  const b = blame(f, t);
                  const intro = linkOf(f, t);
                  const mark = added.has(t) ? 'added' : changed.has(t) ? 'changed' : null;
                  const history = [mark === 'changed' ? `was ${changed.get(t)}` : null, b?.history]
                    .filter(Boolean)
                    .join(' · ');
                  return (
                    <TermChip
                      key={t}
                      term={t}
                      typed={TYPED.has(f)}
                      mark={mark}
                      badge={intro !== null ? String(intro) : undefined}
                      title={history}
                      onShow={() => setShown(history ? `${t}: ${history}` : null)}
                      tabbable={chipKey(f, t) === stop}
                      onClick={
                        intro !== null
                          ? () => {
                              following = { field: f, term: t, turn: intro };
                              onJump(intro);
                            }
                          : undefined
                      }
                    />
                  );
                })}
                {d?.removed.map((t) => (
                  <TermChip key={`-${t}`} term={t} typed={TYPED.has(f)} mark="removed" title="dropped at this turn" />
                ))}
              </div>
            </div>
          );
        })}
      </div>
      <div className="term-history faint" data-testid="term-history" aria-live="polite">
        {shown ? (
          <MemoryText text={shown} />
        ) : (
          'Point at a term, or Tab to one with a turn number (↑ ↓ for the next), for its history.'
        )}
      </div>
    </>
  );
}

function DiffView({ diff, baseTurn, ccs }: CcsPanelProps) {
  const { expandUnchanged, set } = useReplay();
  if (baseTurn === null) return <div className="faint">The first turn: everything in it is new.</div>;
  const changedFields = diff.fields.filter((f) => f.added.length || f.removed.length || f.changed.length);
  const quiet = diff.fields.filter((f) => !changedFields.includes(f));
  return (
    <div data-testid="ccs-diff">
      <div className="diff-summary">
        {diff.same ? (
          <span className="badge">no change from turn {baseTurn}</span>
        ) : (
          <>
            <span className="badge ok">+{diff.counts.added}</span>{' '}
            <span className="badge danger">−{diff.counts.removed}</span>{' '}
            <span className="badge warn">~{diff.counts.changed}</span>{' '}
            <span className="muted">against turn {baseTurn}</span>
          </>
        )}
      </div>
      <div className="ccs-grid">
        {inReviewOrder(changedFields.map((f) => f.field)).map((name) => {
          const f = changedFields.find((x) => x.field === name)!;
          return (
            <div key={name} style={{ display: 'contents' }}>
              <div className="field">{name}</div>
              <div data-field={name}>
                {f.added.map((t) => (
                  <TermChip key={`+${t}`} term={t} mark="added" typed={TYPED.has(name)} />
                ))}
                {f.changed.map((c) => (
                  <span key={`~${c.to}`} className="change-pair">
                    <TermChip term={c.from} mark="removed" />
                    <span className="arrow">→</span>
                    <TermChip term={c.to} mark="changed" />
                  </span>
                ))}
                {f.removed.map((t) => (
                  <TermChip key={`-${t}`} term={t} mark="removed" typed={TYPED.has(name)} />
                ))}
                {f.unchanged.length ? (
                  expandUnchanged ? (
                    f.unchanged.map((t) => <TermChip key={`=${t}`} term={t} typed={TYPED.has(name)} />)
                  ) : (
                    <button type="button" className="link-btn" onClick={() => set({ expandUnchanged: true })}>
                      {f.unchanged.length} unchanged
                    </button>
                  )
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
      {quiet.length ? (
        <div className="muted" style={{ marginTop: 10 }}>
          Unchanged: {quiet.map((f) => `${f.field} (${(ccs[f.field] ?? []).length})`).join(' · ')}
          {expandUnchanged ? (
            <button type="button" className="link-btn" onClick={() => set({ expandUnchanged: false })}>
              collapse
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function RawView({ ccsRaw }: CcsPanelProps) {
  if (ccsRaw === undefined) return <div className="skeleton" />;
  const raw = ccsRaw;
  return (
    <div>
      <div className="muted" style={{ marginBottom: 6 }}>
        {typeof raw === 'string' ? 'As sent, in the TOON-style text notation' : 'As sent, JSON'}
      </div>
      <pre className="raw" data-testid="ccs-raw">
        {typeof raw === 'string' ? raw : JSON.stringify(raw, null, 2)}
      </pre>
    </div>
  );
}
