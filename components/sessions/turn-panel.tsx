'use client';

import { useState } from 'react';
import type { RouterOutputs } from '@/components/trpc/outputs';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import type { TurnCall, TurnUsage } from '@/lib/otel/otlp';
import type { LangGraphTurn } from '@/lib/import/langgraph';
import { LangGraphStep } from './langgraph-step';
import { TurnCalls, UsageLine, usageParts } from './turn-calls';
import { TurnEvents, type TurnEvent } from './turn-events';

type Ref = string | { id: string; score?: number; [k: string]: unknown };
const refId = (r: Ref) => (typeof r === 'string' ? r : r.id);

type Artifact = RouterOutputs['sessions']['artifacts'][number];

/** The turn itself: input x_t, the output, and recalled A_t next to qualified A_t+, each artifact openable. */
export function TurnPanel({
  input,
  output,
  recalled,
  qualified,
  artifacts,
  focus = null,
  calls = null,
  usage = null,
  langgraph = null,
  events = null,
  others = null,
}: {
  input: string;
  output: string;
  recalled: Ref[];
  qualified: Ref[];
  artifacts: Map<string, Artifact>;
  /** The artifact a link points at: its row is marked, and opened when the panel first shows it. */
  focus?: string | null;
  /** A traced agent's LLM and tool calls in the turn, and their totals (whole OTLP traces). */
  calls?: TurnCall[] | null;
  usage?: TurnUsage | null;
  /** A LangGraph turn's super-step: the node(s) that ran, messages in and out, next, interrupts. */
  langgraph?: LangGraphTurn | null;
  /**
   * The memory events emitted at this turn, or that they are too many near it to list (`unlisted`); null when none
   * near it named their turn (the section is left out).
   */
  events?: { turn: number; items: TurnEvent[]; unlisted: boolean } | null;
  /** The fields the agent sent that a turn does not define (`extra`), but those drawn elsewhere; null when none. */
  others?: Record<string, unknown> | null;
}) {
  const all = [...recalled, ...qualified.filter((q) => !recalled.some((r) => refId(r) === refId(q)))];
  // What the reader opened (null: closed); until they choose, the linked artifact is open wherever it shows.
  const [chosen, setOpen] = useState<string | null | undefined>(undefined);
  const open = chosen !== undefined ? chosen : focus && all.some((r) => refId(r) === focus) ? focus : null;
  const kept = new Set(qualified.map(refId));
  const opened = open ? artifacts.get(open) : null;
  // `calls` is the turn's extra field as stored: an agent may have sent it in any shape.
  const shownCalls = Array.isArray(calls) ? calls.filter((c) => !!c && typeof c === 'object') : [];
  return (
    <Panel as="div" testId="turn-panel" title="The turn">
      <div className="label-sm">Input x_t</div>
      <MemoryText className="pre" text={input} />
      <div className="label-sm" style={{ marginTop: 10 }}>
        Output
      </div>
      <MemoryText className="pre" text={output} />
      {shownCalls.length ? (
        <TurnCalls calls={shownCalls} usage={usage && typeof usage === 'object' ? usage : null} />
      ) : usage && typeof usage === 'object' && usageParts(usage).length ? (
        // A turn whose agent reported its work without the calls (an OTLP span with no child spans, or `usage`).
        <div className="label-sm" style={{ marginTop: 12 }} data-testid="turn-work">
          The turn&apos;s work <UsageLine usage={usage} />
        </div>
      ) : null}
      {langgraph ? <LangGraphStep lg={langgraph} /> : null}
      {others && Object.keys(others).length ? <OwnFields fields={others} /> : null}
      <div className="label-sm" style={{ marginTop: 12 }}>
        Recalled A_t ({recalled.length}) → let in A_t+ ({qualified.length})
      </div>
      {all.length ? (
        <DataTable
          compact
          testId="artifacts"
          headless
          rows={all}
          rowKey={refId}
          rowProps={(r) => {
            const id = refId(r);
            return {
              className: id === focus ? 'clickable focus-target' : 'clickable',
              onClick: () => setOpen(open === id ? null : id),
              // Focusable, and opened with Enter or Space, like a button.
              tabIndex: 0,
              onKeyDown: (e) => {
                if (e.key !== 'Enter' && e.key !== ' ') return;
                e.preventDefault();
                e.stopPropagation();
                setOpen(open === id ? null : id);
              },
              'data-artifact': id,
            };
          }}
          columns={[
            {
              id: 'kept',
              header: 'Let in',
              width: 1,
              cell: (r) =>
                kept.has(refId(r)) ? <span className="badge ok">let in</span> : <span className="badge">kept out</span>,
            },
            { id: 'id', header: 'Artifact', className: 'mono', cell: (r) => refId(r) },
            {
              id: 'score',
              header: 'Score',
              num: true,
              className: 'faint',
              cell: (r) => {
                const score = typeof r === 'string' ? undefined : r.score;
                return typeof score === 'number' ? score.toFixed(2) : '';
              },
            },
            { id: 'kind', header: 'Kind', className: 'faint', cell: (r) => artifacts.get(refId(r))?.kind ?? '' },
          ]}
        />
      ) : (
        <div className="faint">Nothing recalled at this turn.</div>
      )}
      {open ? (
        <div className="artifact-box" data-testid="artifact-content">
          <div className="mono" style={{ marginBottom: 4 }}>
            {open}{' '}
            {opened?.provenance ? (
              <span className="faint">
                ·{' '}
                {Object.entries(opened.provenance)
                  .map(([k, v]) => `${k}: ${String(v)}`)
                  .join(' · ')}
              </span>
            ) : null}
          </div>
          {opened ? (
            <MemoryText className="pre" text={opened.content} />
          ) : (
            <span className="faint">Not in this session&apos;s artifact store (only referenced).</span>
          )}
        </div>
      ) : null}
      {events ? <TurnEvents turn={events.turn} events={events.items} unlisted={events.unlisted} /> : null}
    </Panel>
  );
}

/** A value longer than this shows its start (the export has it whole). */
const OWN_CLIP = 600;

/** The agent's own fields of the turn, each as stored: a string as text, anything else as its JSON. Never HTML. */
function OwnFields({ fields }: { fields: Record<string, unknown> }) {
  // By name (as stored, jsonb orders them by length).
  const rows = Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return (
    <>
      <div className="label-sm" style={{ marginTop: 12 }}>
        The agent&apos;s own fields ({rows.length})
      </div>
      <DataTable
        compact
        headless
        testId="own-fields"
        rows={rows}
        rowKey={([k]) => k}
        columns={[
          { id: 'name', header: 'Field', className: 'mono', width: 1, cell: ([k]) => k },
          {
            id: 'value',
            header: 'Value',
            cell: ([, v]) => {
              const text = typeof v === 'string' ? v : JSON.stringify(v);
              return (
                <MemoryText
                  className={typeof v === 'string' ? 'pre' : 'pre mono'}
                  text={text.length > OWN_CLIP ? `${text.slice(0, OWN_CLIP)}…` : text}
                />
              );
            },
          },
        ]}
      />
    </>
  );
}
