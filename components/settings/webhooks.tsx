'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { EmptyState, ErrorBox } from '@/components/ui/states';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, type WebhookEvent } from '@/lib/webhooks/contract';
import { fmtAgo, fmtDateTime, fmtDuration, fmtInt } from '@/lib/format';

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
  const hooks = useQuery(trpc.webhooks.list.queryOptions(undefined, { refetchInterval: 10_000 }));
  const deliveries = useQuery(trpc.webhooks.deliveries.queryOptions({}, { refetchInterval: 5000 }));
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
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (w) => {
        setUrl('');
        setShownSecret(w.id);
        void invalidate();
      },
    }),
  );
  const setEnabled = useMutation(trpc.webhooks.setEnabled.mutationOptions({ onSuccess: () => void invalidate() }));
  const remove = useMutation(trpc.webhooks.remove.mutationOptions({ onSuccess: () => void invalidate() }));
  const again = useMutation(trpc.webhooks.redeliver.mutationOptions({ onSuccess: () => void invalidate() }));
  const error = create.error ?? setEnabled.error ?? remove.error ?? again.error ?? hooks.error ?? deliveries.error;
  return (
    <div className="panel" data-testid="webhooks">
      <div className="panel-head">Webhooks</div>
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
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ url: url.trim(), events });
          }}
        >
          <input
            className="input"
            type="url"
            placeholder="https://example.org/hooks/mnemoscope"
            aria-label="Webhook URL"
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
            disabled={!url.trim() || !events.length || create.isPending}
          >
            Add webhook
          </button>
        </form>
        {error ? (
          <div style={{ marginTop: 8 }}>
            <ErrorBox error={error} />
          </div>
        ) : null}
      </div>
      {hooks.data && !hooks.data.length ? (
        <EmptyState title="No webhooks">
          Add a URL above to be told when a reviewer approves or rejects a memory an agent proposed.
        </EmptyState>
      ) : (
        <table className="data compact">
          <thead>
            <tr>
              <th>URL</th>
              <th>Events</th>
              <th className="num">Delivered</th>
              <th className="num">Waiting</th>
              <th className="num">Failed</th>
              <th>Secret</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(hooks.data ?? []).map((w) => (
              <tr key={w.id}>
                <td className="mono" style={{ overflowWrap: 'anywhere' }}>
                  {w.url}
                </td>
                <td>
                  {w.events.map((e) => (
                    <span key={e} className="badge" style={{ marginRight: 4 }}>
                      {e}
                    </span>
                  ))}
                </td>
                <td className="num">{fmtInt(w.delivered)}</td>
                <td className="num">{fmtInt(w.pending)}</td>
                <td className="num">{fmtInt(w.failed)}</td>
                <td>
                  {shownSecret === w.id && secret.data ? (
                    <code className="secret-once" data-testid="webhook-secret">
                      {secret.data}
                    </code>
                  ) : (
                    <button className="btn" type="button" onClick={() => setShownSecret(w.id)}>
                      Show
                    </button>
                  )}
                </td>
                <td>{w.enabled ? <span className="badge ok">on</span> : <span className="badge">off</span>}</td>
                <td className="right nowrap">
                  <button
                    className="btn"
                    type="button"
                    disabled={setEnabled.isPending}
                    onClick={() => setEnabled.mutate({ id: w.id, enabled: !w.enabled })}
                  >
                    {w.enabled ? 'Turn off' : 'Turn on'}
                  </button>{' '}
                  <button
                    className="btn btn-danger"
                    type="button"
                    disabled={remove.isPending}
                    onClick={() => {
                      if (confirm(`Remove the webhook to ${w.url} and its delivery log?`)) remove.mutate({ id: w.id });
                    }}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deliveries.data?.length ? (
        <>
          <div className="panel-head" style={{ borderTop: '1px solid var(--border)' }}>
            Deliveries <span className="muted">(latest {deliveries.data.length})</span>
          </div>
          <table className="data compact" data-testid="webhook-deliveries">
            <thead>
              <tr>
                <th>Queued</th>
                <th>Event and URL</th>
                <th>Status</th>
                <th className="num">Tries</th>
                <th>Last answer</th>
                <th>Next try</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((d) => (
                <tr key={d.id}>
                  <td className="nowrap" title={fmtDateTime(d.createdAt)}>
                    {fmtAgo(d.createdAt)}
                  </td>
                  <td className="ellipsis" style={{ maxWidth: 240 }} title={d.url}>
                    <code>{d.event}</code>
                    <div className="faint mono ellipsis">{d.url}</div>
                  </td>
                  <td>
                    <span className={`badge ${STATUS_BADGE[d.status]}`}>{d.status}</span>
                  </td>
                  <td className="num">{d.attempts}</td>
                  <td className="ellipsis" style={{ maxWidth: 260 }} title={d.lastError ?? undefined}>
                    {d.lastStatus && !d.lastError ? `HTTP ${d.lastStatus}` : (d.lastError ?? '—')}
                  </td>
                  <td className="nowrap" title={d.status === 'pending' ? fmtDateTime(d.nextAttemptAt) : undefined}>
                    {d.status === 'pending' ? nextTry(d.nextAttemptAt) : '—'}
                  </td>
                  <td className="right">
                    <button
                      className="btn"
                      type="button"
                      disabled={again.isPending}
                      onClick={() => again.mutate({ id: d.id })}
                    >
                      Send again
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}
