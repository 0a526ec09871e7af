'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { DataTable } from '@/components/ui/data-table';
import { Panel } from '@/components/ui/panel';
import { refocus, sameSpot } from '@/components/ui/refocus';
import { EmptyState, ErrorBox } from '@/components/ui/states';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, type WebhookEvent } from '@/lib/webhooks/contract';
import { fmtAgo, fmtDateTime, fmtDuration, fmtInt } from '@/lib/format';
import { AdminsOnly } from './admins-only';
import { useRole } from '@/components/ui/use-role';

const STATUS_BADGE = { delivered: 'ok', pending: 'warn', failed: 'danger' } as const;

const nextTry = (at: string) => {
  const ms = new Date(at).getTime() - Date.now();
  return ms < 1000 ? 'now' : `in ${fmtDuration(ms)}`;
};

/**
 * Webhooks (admins): a URL called, signed with HMAC-SHA256, when the curator asks for a review, a reviewer decides or
 * an entry is deprecated; with the log of every call, retried with backoff, and a way to send one again.
 */
export function Webhooks() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { notAdmin, role } = useRole();
  const hooks = useQuery(trpc.webhooks.list.queryOptions(undefined, { refetchInterval: 10_000, enabled: !notAdmin }));
  const deliveries = useQuery(trpc.webhooks.deliveries.queryOptions({}, { refetchInterval: 5000, enabled: !notAdmin }));
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['proposal.decided']);
  const [shownSecret, setShownSecret] = useState<string | null>(null);
  const secret = useQuery(
    trpc.webhooks.secret.queryOptions(
      { id: shownSecret ?? '' },
      { enabled: shownSecret !== null, staleTime: Infinity },
    ),
  );
  const invalidate = () => qc.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const urlField = useRef<HTMLInputElement>(null);
  const offId = useId();
  const off = !events.length
    ? 'Tick at least one event to add a webhook'
    : !url.trim()
      ? 'Enter the URL to call to add a webhook'
      : null;
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (w) => {
        setUrl('');
        setShownSecret(w.id);
        void invalidate();
      },
    }),
  );
  const setEnabled = useMutation(trpc.webhooks.setEnabled.mutationOptions({ onSuccess: () => invalidate() }));
  const remove = useMutation(trpc.webhooks.remove.mutationOptions({ onSuccess: () => invalidate() }));
  const again = useMutation(trpc.webhooks.redeliver.mutationOptions({ onSuccess: () => void invalidate() }));
  const error = create.error ?? setEnabled.error ?? remove.error ?? again.error ?? hooks.error ?? deliveries.error;
  if (notAdmin) return <AdminsOnly title="Webhooks" what="add the URLs told of decisions" role={role} />;
  return (
    <Panel as="div" heading testId="webhooks" title="Webhooks" body={false}>
      <div className="panel-body">
        <p className="muted" style={{ marginTop: 0 }}>
          Other systems hear of decisions: each call is a JSON <code>POST</code> signed in{' '}
          <code>Mnemoscope-Signature: t=&lt;unix time&gt;,v1=&lt;HMAC-SHA256 of “t.body”&gt;</code> with the webhook’s
          secret (check it with <code>verifyWebhook</code> from the SDK). A call that fails is tried again, waiting 10
          s, then twice as long each time, 10 tries over about 85 minutes. An agent can also ask for one event’s
          decision, or wait: <code>GET /api/v1/memory-events/&#123;id&#125;?wait=30</code>.
        </p>
        <form
          className="toolbar"
          style={{ flexWrap: 'wrap' }}
          // A refusal is about what was sent: it goes once the form is changed.
          onChange={() => create.error && create.reset()}
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ url: url.trim(), events }, { onSuccess: () => refocus(() => urlField.current) });
          }}
        >
          <input
            className="input"
            type="url"
            placeholder="https://example.org/hooks/mnemoscope"
            aria-label="Webhook URL"
            ref={urlField}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            style={{ width: 320 }}
          />
          <fieldset className="toolbar" style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="sr-only">Events</legend>
            {WEBHOOK_EVENTS.map((ev) => (
              <label key={ev} className="nowrap" title={WEBHOOK_EVENT_LABELS[ev]}>
                <input
                  type="checkbox"
                  checked={events.includes(ev)}
                  onChange={(e) => setEvents((cur) => (e.target.checked ? [...cur, ev] : cur.filter((x) => x !== ev)))}
                />{' '}
                <code>{ev}</code>
              </label>
            ))}
          </fieldset>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!!off || create.isPending}
            aria-describedby={off ? offId : undefined}
          >
            Add webhook
          </button>
          {/* Why it is off: the missing URL is plain to see, so said to screen readers only. */}
          {off ? (
            <span id={offId} className={events.length ? 'sr-only' : 'field-error'}>
              {off}
            </span>
          ) : null}
        </form>
        {error ? (
          <div style={{ marginTop: 8 }}>
            <ErrorBox error={error} doing={hooks.error || deliveries.error ? 'load this' : 'save the change'} />
          </div>
        ) : null}
      </div>
      {hooks.data && !hooks.data.length ? (
        <EmptyState title="No webhooks">
          Add a URL above to be told when a reviewer approves or rejects a memory an agent proposed.
        </EmptyState>
      ) : (
        <DataTable
          compact
          rows={hooks.data ?? []}
          rowKey={(w) => w.id}
          columns={[
            {
              id: 'url',
              header: 'URL',
              className: 'mono',
              cellProps: () => ({ style: { overflowWrap: 'anywhere' } }),
              cell: (w) => w.url,
            },
            {
              id: 'events',
              header: 'Events',
              cell: (w) =>
                w.events.map((e) => (
                  <span key={e} className="badge" style={{ marginRight: 4 }}>
                    {e}
                  </span>
                )),
            },
            { id: 'delivered', header: 'Delivered', num: true, cell: (w) => fmtInt(w.delivered) },
            { id: 'pending', header: 'Waiting', num: true, cell: (w) => fmtInt(w.pending) },
            { id: 'failed', header: 'Failed', num: true, cell: (w) => fmtInt(w.failed) },
            {
              id: 'secret',
              header: 'Secret',
              cell: (w) =>
                shownSecret === w.id && secret.data ? (
                  <span className="nowrap">
                    <code className="secret-once" data-testid="webhook-secret">
                      {secret.data}
                    </code>{' '}
                    <button
                      className="btn btn-small"
                      type="button"
                      aria-label={`Hide the secret of the webhook to ${w.url}`}
                      onClick={() => setShownSecret(null)}
                    >
                      Hide
                    </button>
                  </span>
                ) : (
                  <button
                    className="btn"
                    type="button"
                    aria-label={`Show the secret of the webhook to ${w.url}`}
                    onClick={() => setShownSecret(w.id)}
                  >
                    Show
                  </button>
                ),
            },
            {
              id: 'status',
              header: 'Status',
              cell: (w) => (w.enabled ? <span className="badge ok">on</span> : <span className="badge">off</span>),
            },
            {
              id: 'actions',
              header: '',
              className: 'right nowrap',
              cell: (w) => (
                <>
                  <button
                    className="btn"
                    type="button"
                    disabled={setEnabled.isPending}
                    data-toggle
                    onClick={(e) => {
                      // Disabled while it is sent, the button lost the focus: it gets it back.
                      const back = sameSpot(e.currentTarget, '[data-toggle]', document, () => urlField.current);
                      setEnabled.mutate({ id: w.id, enabled: !w.enabled }, { onSuccess: () => refocus(back) });
                    }}
                  >
                    {w.enabled ? 'Turn off' : 'Turn on'}
                  </button>{' '}
                  <button
                    className="btn btn-danger"
                    type="button"
                    disabled={remove.isPending}
                    data-remove
                    onClick={(e) => {
                      if (!confirm(`Remove the webhook to ${w.url} and its delivery log?`)) return;
                      const next = sameSpot(e.currentTarget, '[data-remove]', document, () => urlField.current);
                      remove.mutate({ id: w.id }, { onSuccess: () => refocus(next) });
                    }}
                  >
                    Remove
                  </button>
                </>
              ),
            },
          ]}
        />
      )}
      {deliveries.data?.length ? (
        <>
          <div className="panel-head" style={{ borderTop: '1px solid var(--border)' }}>
            Deliveries <span className="muted">(latest {deliveries.data.length})</span>
          </div>
          <DataTable
            compact
            testId="webhook-deliveries"
            rows={deliveries.data}
            rowKey={(d) => d.id}
            columns={[
              {
                id: 'queued',
                header: 'Queued',
                className: 'nowrap',
                title: (d) => fmtDateTime(d.createdAt),
                cell: (d) => fmtAgo(d.createdAt),
              },
              {
                id: 'event',
                header: 'Event and URL',
                className: 'ellipsis',
                title: (d) => d.url,
                cellProps: () => ({ style: { maxWidth: 240 } }),
                cell: (d) => (
                  <>
                    <code>{d.event}</code>
                    <div className="faint mono ellipsis">{d.url}</div>
                  </>
                ),
              },
              {
                id: 'status',
                header: 'Status',
                cell: (d) => <span className={`badge ${STATUS_BADGE[d.status]}`}>{d.status}</span>,
              },
              { id: 'attempts', header: 'Tries', num: true, cell: (d) => d.attempts },
              {
                id: 'answer',
                header: 'Last answer',
                className: 'ellipsis',
                title: (d) => d.lastError ?? undefined,
                cellProps: () => ({ style: { maxWidth: 260 } }),
                cell: (d) => (d.lastStatus && !d.lastError ? `HTTP ${d.lastStatus}` : (d.lastError ?? '—')),
              },
              {
                id: 'next',
                header: 'Next try',
                className: 'nowrap',
                title: (d) => (d.status === 'pending' ? fmtDateTime(d.nextAttemptAt) : undefined),
                cell: (d) => (d.status === 'pending' ? nextTry(d.nextAttemptAt) : '—'),
              },
              {
                id: 'again',
                header: '',
                className: 'right',
                cell: (d) => (
                  <button
                    className="btn"
                    type="button"
                    disabled={again.isPending}
                    onClick={() => again.mutate({ id: d.id })}
                  >
                    Send again
                  </button>
                ),
              },
            ]}
          />
        </>
      ) : null}
    </Panel>
  );
}
