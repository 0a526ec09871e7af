'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { KINDS, SCOPES } from '@/lib/curation/pipeline';
import { fmtDateTime, fmtInt } from '@/lib/format';
import { useTRPC } from '@/components/trpc/provider';
import { MemoryText } from '@/components/ui/memory-text';
import { EmptyState, ErrorBox, SkeletonRows } from '@/components/ui/states';
import { TextDiff } from './text-diff';

type Status = 'pending' | 'approved' | 'rejected';
const CONF: Record<string, string> = { high: 'ok', medium: 'warn', low: 'danger' };

/**
 * The review inbox: proposals the curator may not write itself, one at a time with everything
 * needed to decide. Keyboard first: j/k move, a approve, r reject, e edit, x select, A approve selected.
 */
export function Inbox() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const params = useSearchParams();
  const [status, setStatus] = useState<Status>('pending');
  const [filters, setFilters] = useState({ scope: '', kind: '', agent: '', confidence: '' });
  const list = useQuery({
    ...trpc.curation.inbox.queryOptions({
      status,
      scope: filters.scope || null,
      kind: filters.kind || null,
      agent: filters.agent || null,
      confidence: filters.confidence || null,
    }),
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => list.data?.items ?? [], [list.data]);
  const wanted = params.get('proposal');
  const [cursor, setCursor] = useState(0);
  const at = wanted
    ? Math.max(
        0,
        items.findIndex((i) => i.id === wanted),
      )
    : Math.min(cursor, Math.max(0, items.length - 1));
  const current = items[at];
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [mode, setMode] = useState<'view' | 'reject' | 'edit'>('view');
  const [banner, setBanner] = useState<{ tone: 'ok' | 'warn' | 'danger'; text: string } | null>(null);
  const detail = useQuery({
    ...trpc.curation.proposal.queryOptions({ id: current?.id ?? '00000000-0000-0000-0000-000000000000' }),
    enabled: !!current,
  });

  const select = (i: number) => {
    setCursor(i);
    setMode('view');
    const id = items[i]?.id;
    if (id) router.replace(`/curation?proposal=${id}`, { scroll: false });
  };
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.curation.pathKey() });
  const decide = useMutation(
    trpc.curation.decide.mutationOptions({
      onSuccess: (r, v) => {
        setBanner({
          tone: 'ok',
          text:
            r.status === 'approved'
              ? `Approved${v.decision.edits ? ' with your edits' : ''}: written to memory.`
              : 'Rejected; nothing was written.',
        });
        setMode('view');
        router.replace('/curation', { scroll: false });
        void refresh();
      },
      onError: (e) => {
        setBanner({ tone: e.data?.code === 'CONFLICT' ? 'warn' : 'danger', text: e.message });
        void refresh();
      },
    }),
  );
  const bulk = useMutation(
    trpc.curation.decideMany.mutationOptions({
      onSuccess: (r) => {
        const failed = r.filter((x) => !x.ok);
        setBanner({
          tone: failed.length ? 'warn' : 'ok',
          text: `${r.length - failed.length} decided${failed.length ? `; ${failed.length} not: ${failed[0]!.message}` : ''}`,
        });
        setChecked(new Set());
        void refresh();
      },
    }),
  );

  // The window listener calls the latest handler (it reads this render's state).
  const onKeyRef = useRef<(e: KeyboardEvent) => void>(() => {});
  useEffect(() => {
    onKeyRef.current = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [contenteditable]') || e.ctrlKey || e.metaKey || e.altKey) return;
      if (!items.length) return;
      if (e.key === 'j' || e.key === 'ArrowDown') select(Math.min(at + 1, items.length - 1));
      else if (e.key === 'k' || e.key === 'ArrowUp') select(Math.max(at - 1, 0));
      else if (status !== 'pending') return;
      else if (e.key === 'a' && current) decide.mutate({ id: current.id, decision: { action: 'approve' } });
      else if (e.key === 'r' && current) setMode('reject');
      else if (e.key === 'e' && current) setMode('edit');
      else if (e.key === 'x' && current) setChecked((c) => toggle(c, current.id));
      else if (e.key === 'A' && checked.size) bulk.mutate({ ids: [...checked], decision: { action: 'approve' } });
      else return;
      e.preventDefault();
    };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => onKeyRef.current(e);
    window.addEventListener('keydown', onKey);
    document.documentElement.dataset.inboxKeys = '1';
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const facets = list.data?.facets;
  const facet = (name: 'scope' | 'kind' | 'agent' | 'confidence', all: string[]) => (
    <select
      className="select"
      aria-label={`Filter by ${name}`}
      value={filters[name]}
      onChange={(e) => setFilters((f) => ({ ...f, [name]: e.target.value }))}
    >
      <option value="">all {name === 'agent' ? 'agents' : name === 'confidence' ? 'confidence' : `${name}s`}</option>
      {[...new Set([...all, ...Object.keys(facets?.[name] ?? {})])].map((v) => (
        <option key={v} value={v}>
          {v} {facets?.[name][v] ? `(${facets[name][v]})` : ''}
        </option>
      ))}
    </select>
  );
  return (
    <>
      <div className="toolbar" style={{ flexWrap: 'wrap', marginBottom: 10 }}>
        <div className="seg" role="group" aria-label="Status">
          {(['pending', 'approved', 'rejected'] as const).map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={status === s}
              onClick={() => (setStatus(s), setCursor(0), setChecked(new Set()))}
            >
              {s} <span className="muted">{fmtInt(list.data?.totals[s] ?? 0)}</span>
            </button>
          ))}
        </div>
        {facet('scope', [...SCOPES])}
        {facet('kind', [...KINDS])}
        {facet('agent', [])}
        {facet('confidence', ['high', 'medium', 'low'])}
        {checked.size ? (
          <>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => bulk.mutate({ ids: [...checked], decision: { action: 'approve' } })}
            >
              Approve {checked.size} selected
            </button>
            <BulkReject
              count={checked.size}
              onReject={(reason) => bulk.mutate({ ids: [...checked], decision: { action: 'reject', reason } })}
            />
          </>
        ) : null}
      </div>
      {banner ? (
        <div className={`banner ${banner.tone}`} role="status" data-testid="inbox-banner">
          {banner.text}
        </div>
      ) : null}
      <div
        className="hint-bar"
        style={{
          position: 'static',
          marginBottom: 8,
          borderRadius: 'var(--radius)',
          border: '1px solid var(--border)',
        }}
        data-testid="hint-bar"
      >
        <span>
          <kbd>j</kbd>/<kbd>k</kbd> move
        </span>
        <span>
          <kbd>a</kbd> approve
        </span>
        <span>
          <kbd>r</kbd> reject
        </span>
        <span>
          <kbd>e</kbd> edit
        </span>
        <span>
          <kbd>x</kbd> select · <kbd>A</kbd> approve selected
        </span>
      </div>
      {list.error ? <ErrorBox error={list.error} /> : null}
      <div className="inbox">
        <div className="panel inbox-list" role="listbox" aria-label="Proposals" data-testid="inbox-list">
          {list.isPending ? (
            <table className="data">
              <SkeletonRows cols={2} />
            </table>
          ) : !items.length ? (
            <EmptyState title={status === 'pending' ? 'Nothing waits for review' : `No ${status} proposals`}>
              {status === 'pending'
                ? 'The curator queues writes here when a scope needs approval, the emitter asked for review, or a write would change existing memory.'
                : 'Decisions appear here with who made them.'}
            </EmptyState>
          ) : (
            items.map((p, i) => (
              <div
                key={p.id}
                className="inbox-row"
                role="option"
                aria-selected={i === at}
                data-proposal={p.id}
                onClick={() => select(i)}
              >
                <input
                  type="checkbox"
                  aria-label="Select for a bulk decision"
                  checked={checked.has(p.id)}
                  onChange={() => setChecked((c) => toggle(c, p.id))}
                  onClick={(e) => e.stopPropagation()}
                  disabled={status !== 'pending'}
                />
                <div>
                  <MemoryText className="clip" text={p.content} />
                  <div className="meta">
                    <span className="badge accent">{p.operation}</span>
                    <span className="badge">{p.scope}</span>
                    <span className="badge">{p.kind}</span>
                    {p.confidence ? <span className={`badge ${CONF[p.confidence] ?? ''}`}>{p.confidence}</span> : null}
                    {p.conflicts ? <span className="badge danger">{p.conflicts} conflict</span> : null}
                    <span>{p.sourceAgent}</span>
                    {p.decidedBy ? (
                      <span>
                        · {status} by {p.decidedBy}
                      </span>
                    ) : null}
                  </div>
                </div>
              </div>
            ))
          )}
        </div>
        <div className="panel detail" data-testid="proposal-detail">
          {current && detail.data ? (
            <ProposalDetail
              data={detail.data}
              mode={status === 'pending' ? mode : 'view'}
              busy={decide.isPending}
              onCancel={() => setMode('view')}
              onApprove={(edits) => decide.mutate({ id: current.id, decision: { action: 'approve', edits } })}
              onReject={(reason) => decide.mutate({ id: current.id, decision: { action: 'reject', reason } })}
              onMode={setMode}
              pending={status === 'pending'}
            />
          ) : current ? (
            <div className="panel-body muted">Loading the proposal…</div>
          ) : (
            <EmptyState title="Select a proposal">Use j and k to move through the list.</EmptyState>
          )}
        </div>
      </div>
    </>
  );
}

function toggle(set: Set<string>, id: string): Set<string> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

function BulkReject({ count, onReject }: { count: number; onReject: (reason: string) => void }) {
  const [reason, setReason] = useState('');
  return (
    <span className="toolbar">
      <input
        className="input"
        placeholder="reason for rejecting them"
        aria-label="Reason for rejecting the selected proposals"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="button" className="btn btn-danger" disabled={!reason.trim()} onClick={() => onReject(reason)}>
        Reject {count}
      </button>
    </span>
  );
}

type Detail = {
  proposal: {
    id: string;
    eventId: string;
    operation: string;
    scope: string;
    kind: string;
    content: string;
    confidence: string | null;
    sourceAgent: string | null;
    rationale: Record<string, unknown>;
    status: string;
    decidedBy: string | null;
    decidedAt: Date | null;
    decisionNote: string | null;
    createdAt: Date;
  };
  event: {
    eventId: string;
    shape: string;
    sourceAgent: string;
    taskId: string | null;
    kind: string;
    suggestedScope: string;
    sensitivity: string | null;
    ttl: string | null;
    evidenceRefs: { type: string; ref: string }[];
    requestContext: Record<string, unknown> | null;
    redactions: { path: string; type: string; count: number }[];
    timestamp: string;
    humanReviewRequired: boolean;
  } | null;
  target: { id: string; content: string; scope: string; kind: string; status: string; version: number } | null;
  targetArtifact: { id: string; kind: string | null; content: string; session: string | null; status: string } | null;
  conflicting: { id: string; content: string; scope: string; kind: string; status: string; version: number }[];
  nearest: { id: string; content: string; scope: string; kind: string; status: string; cosine: number }[];
};

function ProposalDetail({
  data,
  mode,
  busy,
  pending,
  onApprove,
  onReject,
  onCancel,
  onMode,
}: {
  data: Detail;
  mode: 'view' | 'reject' | 'edit';
  busy: boolean;
  pending: boolean;
  onApprove: (edits?: { content?: string; scope?: (typeof SCOPES)[number]; kind?: (typeof KINDS)[number] }) => void;
  onReject: (reason: string) => void;
  onCancel: () => void;
  onMode: (m: 'view' | 'reject' | 'edit') => void;
}) {
  const { proposal: p, event: e } = data;
  const steps = (p.rationale.steps ?? []) as { step: string; outcome: string; detail?: string }[];
  const [reason, setReason] = useState('');
  const [edit, setEdit] = useState({ content: p.content, scope: p.scope, kind: p.kind });
  const ctx = e?.requestContext ?? null;
  return (
    <div className="panel-body">
      <div className="toolbar" style={{ justifyContent: 'space-between' }}>
        <span>
          <span className="badge accent">{p.operation}</span> <span className="badge">{p.scope}</span>{' '}
          <span className="badge">{p.kind}</span>{' '}
          {p.confidence ? <span className={`badge ${CONF[p.confidence] ?? ''}`}>{p.confidence} confidence</span> : null}
        </span>
        <Link className="mono muted" href={`/curation/events?focus=${encodeURIComponent(p.eventId)}`}>
          {p.eventId}
        </Link>
      </div>
      {mode === 'edit' ? (
        <form
          className="decision-bar"
          style={{ display: 'grid', gap: 8 }}
          onSubmit={(ev) => {
            ev.preventDefault();
            onApprove({
              content: edit.content !== p.content ? edit.content : undefined,
              scope: edit.scope !== p.scope ? (edit.scope as (typeof SCOPES)[number]) : undefined,
              kind: edit.kind !== p.kind ? (edit.kind as (typeof KINDS)[number]) : undefined,
            });
          }}
          onKeyDown={(ev) => {
            if (ev.key === 'Escape') onCancel();
            if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) ev.currentTarget.requestSubmit();
          }}
        >
          <textarea
            className="input"
            aria-label="Content"
            autoFocus
            value={edit.content}
            onChange={(ev) => setEdit({ ...edit, content: ev.target.value })}
          />
          <div className="toolbar">
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
      {p.status !== 'pending' ? (
        <div className={`banner ${p.status === 'approved' ? 'ok' : 'danger'}`}>
          {p.status} by {p.decidedBy} {p.decidedAt ? fmtDateTime(new Date(p.decidedAt).toISOString()) : ''}{' '}
          {p.decisionNote ? `— ${p.decisionNote}` : ''}
        </div>
      ) : mode === 'reject' ? (
        <form
          className="decision-bar"
          onSubmit={(ev) => {
            ev.preventDefault();
            onReject(reason);
          }}
          onKeyDown={(ev) => ev.key === 'Escape' && onCancel()}
        >
          <input
            className="input"
            autoFocus
            aria-label="Reason for rejecting"
            placeholder="Why not? (kept in the audit log)"
            value={reason}
            onChange={(ev) => setReason(ev.target.value)}
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
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => onApprove()}>
            Approve <kbd>a</kbd>
          </button>
          <button type="button" className="btn" onClick={() => onMode('edit')}>
            Edit <kbd>e</kbd>
          </button>
          <button type="button" className="btn btn-danger" onClick={() => onMode('reject')}>
            Reject <kbd>r</kbd>
          </button>
          <span className="muted" style={{ fontSize: 12 }}>
            {String(p.rationale.reviewBecause ?? '')}
          </span>
        </div>
      ) : null}

      {data.target ? (
        <>
          <h3>
            {p.operation === 'deprecate' ? 'Would deprecate' : 'Would supersede'} (entry v{data.target.version})
          </h3>
          <div className="compare" data-testid="target-diff">
            <div>
              <MemoryText text={data.target.content} />
            </div>
            <div>
              {p.operation === 'update' ? (
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
      <h3>Nearest existing entries in {p.scope}</h3>
      {data.nearest.length ? (
        <table className="data compact" data-testid="nearest">
          <tbody>
            {data.nearest.map((n) => (
              <tr key={n.id}>
                <td className="num nowrap" style={{ width: 1 }}>
                  cos {n.cosine.toFixed(2)}
                </td>
                <td>
                  <Link href={`/curation/entries?entry=${n.id}`}>
                    {n.cosine >= 0.8 ? (
                      <TextDiff before={n.content} after={p.content} />
                    ) : (
                      <MemoryText text={n.content} />
                    )}
                  </Link>
                </td>
                <td className="nowrap" style={{ width: 1 }}>
                  <span className="badge">{n.kind}</span>{' '}
                  {n.status !== 'active' ? <span className="badge warn">{n.status}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted" style={{ fontSize: 12 }}>
          No entries in {p.scope} yet.
        </p>
      )}

      <h3>Curator&apos;s rationale</h3>
      <ol className="steps" data-testid="steps">
        {steps.map((s, i) => (
          <li key={i}>
            <b>{s.step}</b>
            <span>{s.outcome}</span>
            <span className="muted">{s.detail ?? ''}</span>
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
