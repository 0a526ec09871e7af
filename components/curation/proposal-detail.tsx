'use client';

import { entryHref, eventHref } from '@/lib/pages';
import Link from 'next/link';
import { useState } from 'react';
import { KINDS, SCOPES, type Kind, type Scope } from '@/lib/curation/pipeline';
import { fmtDateTime } from '@/lib/format';
import type { RouterInputs, RouterOutputs } from '@/components/trpc/outputs';
import { submitOnCtrlEnter } from '@/components/ui/forms';
import { DataTable } from '@/components/ui/data-table';
import { MemoryText } from '@/components/ui/memory-text';
import { TextDiff } from './text-diff';

export type DetailMode = 'view' | 'reject' | 'edit';
type Edits = NonNullable<RouterInputs['curation']['decide']['decision']['edits']>;

/** Badge tone of each confidence level. */
export const CONFIDENCE_TONE: Record<string, string> = { high: 'ok', medium: 'warn', low: 'danger' };

/**
 * One proposal of the review inbox with everything needed to decide it: the content (editable before
 * approving), what it would supersede or conflict with, the nearest entries, the curator's steps, and the
 * event as sent. The decision bar calls back; the inbox owns the mutations.
 */
export function ProposalDetail({
  data,
  mode,
  busy,
  pending,
  onApprove,
  onReject,
  onCancel,
  onMode,
  onKeepBoth,
  onApproveAnyway,
  draft,
}: {
  data: RouterOutputs['curation']['proposal'];
  /** What the form starts with: a decision undone comes back with its edits or its reason. */
  draft?: { edits?: Edits; reason?: string };
  mode: DetailMode;
  busy: boolean;
  pending: boolean;
  onApprove: (edits?: Edits) => void;
  onReject: (reason: string) => void;
  onCancel: () => void;
  onMode: (m: DetailMode) => void;
  /** A proposed merge approved as a separate entry. */
  onKeepBoth: () => void;
  /** Approved although an entry says the same already (`data.sameAs`). */
  onApproveAnyway: () => void;
}) {
  const { proposal: p, event: e } = data;
  const steps = (p.rationale.steps ?? []) as { step: string; outcome: string; detail?: string }[];
  // Its own state per proposal: the inbox mounts one for each (keyed by id), so no form shows another's words.
  const twin = data.sameAs;
  // Untouched (null), a rejection of a proposal whose twin is an entry has its reason written already (the twin may
  // be found after the detail first showed: once a colleague's approval of it comes in).
  const [typed, setTyped] = useState<string | null>(draft?.reason ?? null);
  const reason = typed ?? (twin ? `a duplicate of entry ${twin.entryId}` : '');
  const [edit, setEdit] = useState({
    content: draft?.edits?.content ?? p.content,
    scope: draft?.edits?.scope ?? p.scope,
    kind: draft?.edits?.kind ?? p.kind,
  });
  const ctx = e?.requestContext ?? null;
  return (
    <div className="panel-body">
      <div className="toolbar" style={{ justifyContent: 'space-between' }}>
        <span>
          <span className="badge accent">{p.operation}</span> <span className="badge">{p.scope}</span>{' '}
          <span className="badge">{p.kind}</span>{' '}
          {p.confidence ? (
            <span className={`badge ${CONFIDENCE_TONE[p.confidence] ?? ''}`}>{p.confidence} confidence</span>
          ) : null}
        </span>
        <Link className="mono muted" href={eventHref(p.eventId)}>
          {p.eventId}
        </Link>
      </div>
      {mode === 'edit' ? (
        <form
          className="decision-bar"
          style={{ display: 'grid', gap: 8, gridTemplateColumns: 'minmax(0, 1fr)' }}
          onSubmit={(ev) => {
            ev.preventDefault();
            // Ctrl+Enter submits past the disabled button: an empty entry is not a decision to hold.
            if (!edit.content.trim()) return;
            onApprove({
              content: edit.content !== p.content ? edit.content : undefined,
              scope: edit.scope !== p.scope ? (edit.scope as Scope) : undefined,
              kind: edit.kind !== p.kind ? (edit.kind as Kind) : undefined,
            });
          }}
          onKeyDown={(ev) => {
            if (ev.key === 'Escape') onCancel();
            submitOnCtrlEnter(ev);
          }}
        >
          <textarea
            className="input"
            aria-label="Content"
            autoFocus
            value={edit.content}
            onChange={(ev) => setEdit({ ...edit, content: ev.target.value })}
            aria-invalid={!edit.content.trim() || undefined}
            aria-describedby={!edit.content.trim() ? 'edit-empty' : undefined}
          />
          {!edit.content.trim() ? (
            <div id="edit-empty" className="field-error" role="alert">
              Content: must not be empty (to write nothing, reject it).
            </div>
          ) : null}
          <div className="toolbar" style={{ flexWrap: 'wrap' }}>
            <select
              className="select"
              aria-label="Scope"
              value={edit.scope}
              onChange={(ev) => setEdit({ ...edit, scope: ev.target.value })}
            >
              {SCOPES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            <select
              className="select"
              aria-label="Kind"
              value={edit.kind}
              onChange={(ev) => setEdit({ ...edit, kind: ev.target.value })}
            >
              {KINDS.map((k) => (
                <option key={k}>{k}</option>
              ))}
            </select>
            <button type="submit" className="btn btn-primary" disabled={busy || !edit.content.trim()}>
              Approve edited <kbd>Ctrl</kbd>+<kbd>Enter</kbd>
            </button>
            <button type="button" className="btn" onClick={onCancel}>
              Cancel <kbd>Esc</kbd>
            </button>
          </div>
          {edit.content !== p.content ? (
            <div style={{ fontSize: 13 }}>
              <TextDiff before={p.content} after={edit.content} />
            </div>
          ) : null}
        </form>
      ) : (
        <p style={{ fontSize: 15, lineHeight: 1.5, margin: '10px 0' }} data-testid="proposal-content">
          <MemoryText text={p.content} />
        </p>
      )}
      {twin && p.status === 'pending' ? (
        <div className="banner warn" data-testid="same-as">
          <b>An entry says this already</b>, written since it was proposed:{' '}
          <Link className="u-link" href={entryHref(twin.entryId)}>
            “<MemoryText text={twin.content.length > 160 ? `${twin.content.slice(0, 160)}…` : twin.content} />”
          </Link>{' '}
          (cosine {twin.cosine.toFixed(3)}: {twin.because}). Approving would write the same fact twice.
        </div>
      ) : null}
      {p.status !== 'pending' ? (
        <div className={`banner ${p.status === 'approved' ? 'ok' : 'danger'}`}>
          {p.status} by {p.decidedBy} {p.decidedAt ? fmtDateTime(new Date(p.decidedAt).toISOString()) : ''}{' '}
          {p.decisionNote ? `— ${p.decisionNote}` : ''}
          {data.written.map((id) => (
            <span key={id} data-testid="written-entry">
              {' '}
              · wrote{' '}
              <Link className="u-link" href={entryHref(id)}>
                the entry
              </Link>
            </span>
          ))}
        </div>
      ) : mode === 'reject' ? (
        <form
          className="decision-bar"
          onSubmit={(ev) => {
            ev.preventDefault();
            if (reason.trim()) onReject(reason);
          }}
          // Enter or Ctrl+Enter rejects (as in the edit form), Escape cancels.
          onKeyDown={(ev) => (ev.key === 'Escape' ? onCancel() : submitOnCtrlEnter(ev))}
        >
          <input
            className="input"
            autoFocus
            aria-label="Reason for rejecting"
            placeholder="Why not? (audit log) · Enter rejects, Esc cancels"
            value={reason}
            onChange={(ev) => setTyped(ev.target.value)}
            style={{ flex: 1 }}
          />
          <button type="submit" className="btn btn-danger" disabled={busy || !reason.trim()}>
            Reject
          </button>
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        </form>
      ) : mode === 'view' && pending ? (
        <div className="decision-bar">
          {twin ? (
            <button type="button" className="btn" disabled={busy} onClick={onApproveAnyway}>
              Approve anyway
            </button>
          ) : (
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => onApprove()}>
              {p.operation === 'merge' ? 'Merge' : 'Approve'} <kbd>a</kbd>
            </button>
          )}
          {p.operation === 'merge' ? (
            <button type="button" className="btn" disabled={busy} onClick={onKeepBoth}>
              Keep both <kbd>b</kbd>
            </button>
          ) : null}
          <button type="button" className="btn" onClick={() => onMode('edit')}>
            Edit <kbd>e</kbd>
          </button>
          <button type="button" className="btn btn-danger" onClick={() => onMode('reject')}>
            {twin ? 'Reject as a duplicate' : 'Reject'} <kbd>r</kbd>
          </button>
          <span className="muted" style={{ fontSize: 12 }}>
            {String(p.rationale.reviewBecause ?? '')}
          </span>
        </div>
      ) : null}

      {data.target ? (
        <>
          <h3>
            {p.operation === 'deprecate'
              ? 'Would deprecate'
              : p.operation === 'merge'
                ? 'Restates (merge into, or keep both)'
                : 'Would supersede'}{' '}
            (entry v{data.target.version})
          </h3>
          <div className="compare" data-testid="target-diff">
            <div>
              <MemoryText text={data.target.content} />
            </div>
            <div>
              {p.operation === 'update' || p.operation === 'merge' ? (
                <TextDiff before={data.target.content} after={p.content} />
              ) : (
                <MemoryText text={p.content} />
              )}
            </div>
          </div>
        </>
      ) : null}
      {data.targetArtifact ? (
        <>
          <h3>Would deprecate a record of the external store</h3>
          <div className="compare" data-testid="target-artifact">
            <div>
              <span className="badge mono">{data.targetArtifact.id}</span>{' '}
              <span className="badge">
                {data.targetArtifact.kind ?? 'record'} · {data.targetArtifact.status}
              </span>
              {data.targetArtifact.session ? <span className="muted"> in {data.targetArtifact.session}</span> : null}
              <div style={{ marginTop: 6 }}>
                <MemoryText text={data.targetArtifact.content} />
              </div>
            </div>
            <div className="muted">
              Approving marks it deprecated: it stays in the store and its history, and the hygiene lab counts it as
              removed.
            </div>
          </div>
        </>
      ) : null}
      {data.conflicting.length ? (
        <>
          <h3>Conflicts with — approving keeps both and links them</h3>
          {data.conflicting.map((c) => (
            <div className="compare" key={c.id} data-testid="conflict-diff" style={{ marginBottom: 6 }}>
              <div>
                <span className="badge">existing · {c.status.replace('_', ' ')}</span> <MemoryText text={c.content} />
              </div>
              <div>
                <TextDiff before={c.content} after={p.content} />
              </div>
            </div>
          ))}
        </>
      ) : null}
      <h3>
        Nearest {data.written.length ? 'other' : 'existing'} entries in {p.scope}
      </h3>
      {data.nearest.length ? (
        <DataTable
          compact
          testId="nearest"
          headless
          rows={data.nearest}
          rowKey={(n) => n.id}
          columns={[
            {
              id: 'cosine',
              header: 'Cosine',
              num: true,
              className: 'nowrap',
              width: 1,
              cell: (n) => <>cos {n.cosine.toFixed(2)}</>,
            },
            {
              id: 'content',
              header: 'Content',
              cell: (n) => (
                <Link href={entryHref(n.id)}>
                  {n.cosine >= 0.8 ? (
                    <TextDiff before={n.content} after={p.content} />
                  ) : (
                    <MemoryText text={n.content} />
                  )}
                </Link>
              ),
            },
            {
              id: 'kind',
              header: 'Kind',
              className: 'nowrap',
              width: 1,
              cell: (n) => (
                <>
                  <span className="badge">{n.kind}</span>{' '}
                  {n.status !== 'active' ? <span className="badge warn">{n.status}</span> : null}
                </>
              ),
            },
          ]}
        />
      ) : (
        <p className="muted" style={{ fontSize: 12 }}>
          {data.written.length ? `No other entries in ${p.scope}.` : `No entries in ${p.scope} yet.`}
        </p>
      )}

      <h3>Curator&apos;s rationale</h3>
      <p className="muted" style={{ fontSize: 12, margin: '0 0 6px' }}>
        As it stood when the event was curated ({fmtDateTime(p.createdAt)}); entries written since show among the
        nearest above.
      </p>
      <ol className="steps" data-testid="steps">
        {steps.map((s, i) => (
          <li key={i}>
            <b>{s.step}</b>
            <span>{s.outcome}</span>
            <MemoryText className="muted" text={s.detail ?? ''} />
          </li>
        ))}
      </ol>
      {e ? (
        <>
          <h3>Evidence</h3>
          {e.evidenceRefs.length ? (
            <ul style={{ margin: 0, paddingLeft: 18, fontSize: 13 }}>
              {e.evidenceRefs.map((r, i) => (
                <li key={i}>
                  <span className="badge">{r.type}</span> <span className="mono">{r.ref}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted" style={{ fontSize: 12 }}>
              No evidence refs.
            </p>
          )}
          <h3>Request context</h3>
          {ctx ? (
            <dl className="kv" data-testid="request-context">
              {Object.entries(ctx).map(([k, v]) => (
                <FragmentKV key={k} k={k} v={v} />
              ))}
            </dl>
          ) : (
            <p className="muted" style={{ fontSize: 12 }}>
              The emitter sent no request-context capsule.
            </p>
          )}
          <h3>Event</h3>
          <dl className="kv">
            <dt>from</dt>
            <dd>
              {e.sourceAgent}
              {e.taskId ? ` · task ${e.taskId}` : ''}
            </dd>
            <dt>suggested</dt>
            <dd>
              {e.suggestedScope} · {e.kind}
            </dd>
            <dt>sensitivity · ttl</dt>
            <dd>
              {e.sensitivity ?? '—'} · {e.ttl ?? '—'}
            </dd>
            <dt>sent</dt>
            <dd>{e.timestamp}</dd>
            <dt>redactions</dt>
            <dd>
              {e.redactions.length
                ? e.redactions.map((r) => `${r.count} × ${r.type} in ${r.path || 'event'}`).join('; ')
                : 'none'}
            </dd>
            <dt>shape</dt>
            <dd>{e.shape}</dd>
          </dl>
        </>
      ) : null}
    </div>
  );
}

function FragmentKV({ k, v }: { k: string; v: unknown }) {
  return (
    <>
      <dt>{k.replace(/_/g, ' ')}</dt>
      <dd>
        {v === null || v === undefined ? (
          '—'
        ) : Array.isArray(v) ? (
          v.join(', ')
        ) : typeof v === 'object' ? (
          JSON.stringify(v)
        ) : (
          <MemoryText text={String(v)} />
        )}
      </dd>
    </>
  );
}
