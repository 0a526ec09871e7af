'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { LengthNote, lengthProps } from '@/components/ui/length-note';
import { useTRPC } from '@/components/trpc/provider';
import { DataTable } from '@/components/ui/data-table';
import { Panel } from '@/components/ui/panel';
import { refocus, sameSpot } from '@/components/ui/refocus';
import { MemoryText } from '@/components/ui/memory-text';
import { showBidiControls } from '@/lib/bidi';
import { EmptyState, ErrorBox, QueryError } from '@/components/ui/states';
import { fmtAgo, fmtDateTime } from '@/lib/format';
import { AdminsOnly } from './admins-only';
import { KEY_NAME_MAX } from '@/lib/api/contract';
import { useRole } from '@/components/ui/use-role';

export function ApiKeys() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { notAdmin, role: myRole } = useRole();
  const keys = useQuery({ ...trpc.apiKeys.list.queryOptions(), enabled: !notAdmin });
  const [name, setName] = useState('');
  const lengthId = useId();
  const [role, setRole] = useState<'agent' | 'admin'>('agent');
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  const invalidate = () => qc.invalidateQueries({ queryKey: trpc.apiKeys.pathKey() });
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (r) => {
        setShown({ name: r.apiKey.name, key: r.key });
        setName('');
        setRole('agent');
        void invalidate();
      },
    }),
  );
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: () => invalidate() }));

  if (notAdmin) return <AdminsOnly title="API keys" what="make and revoke the keys agents send with" role={myRole} />;
  return (
    <Panel as="div" heading testId="api-keys" title="API keys" body={false}>
      <div className="panel-body">
        <p className="muted" style={{ marginTop: 0 }}>
          Agents send memory with <code>Authorization: Bearer &lt;key&gt;</code>. Keys are stored hashed: a new key is
          shown once. An <b>agent</b> key sends sessions and memory, searches memory over MCP and exports single
          sessions; an <b>admin</b> key can also export and import the whole project.
        </p>
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            // The key is what comes next: copying it (the button, disabled while it was sent, lost the focus).
            create.mutate({ name, role }, { onSuccess: () => refocus(() => copyButton.current, { always: true }) });
          }}
        >
          <input
            className="input"
            placeholder="Key name, e.g. itops-agent"
            aria-label="Key name"
            ref={nameField}
            value={name}
            onChange={(e) => setName(e.target.value)}
            style={{ width: 260 }}
            // The server trims the name before it measures it.
            {...lengthProps(lengthId, name.trim(), KEY_NAME_MAX)}
          />
          <LengthNote id={lengthId} value={name.trim()} max={KEY_NAME_MAX} />
          <select
            className="input"
            aria-label="Key role"
            value={role}
            onChange={(e) => setRole(e.target.value as 'agent' | 'admin')}
          >
            <option value="agent">agent</option>
            <option value="admin">admin (whole-project export and import)</option>
          </select>
          <button
            className="btn btn-primary"
            type="submit"
            disabled={!name.trim() || name.trim().length > KEY_NAME_MAX || create.isPending}
          >
            Create key
          </button>
        </form>
        {keys.data?.some((k) => !k.revokedAt && k.name === name.trim()) ? (
          <p className="muted" style={{ margin: '6px 0 0', fontSize: 12 }} data-testid="key-name-taken" role="status">
            An active key is already named “{name.trim()}”. That is how a key is rotated (make the new one, deploy it,
            revoke the old); the two are told apart by their prefixes.
          </p>
        ) : null}
        {create.error ? (
          <div style={{ marginTop: 8 }}>
            <ErrorBox error={create.error} doing="create the key" />
          </div>
        ) : null}
        {shown ? (
          <div style={{ marginTop: 10 }}>
            <div className="muted" style={{ marginBottom: 4 }}>
              Key “<MemoryText text={shown.name} />” — copy it now, it will not be shown again:
            </div>
            <div className="toolbar">
              <code className="secret-once" data-testid="new-key">
                {shown.key}
              </code>
              <button
                className="btn"
                type="button"
                ref={copyButton}
                onClick={() => void navigator.clipboard?.writeText(shown.key)}
              >
                Copy
              </button>
              <button
                className="btn"
                type="button"
                onClick={() => {
                  setShown(null);
                  refocus(() => nameField.current);
                }}
              >
                Done
              </button>
            </div>
          </div>
        ) : null}
      </div>
      <QueryError query={keys} />
      <DataTable
        rows={keys.data ?? []}
        rowKey={(k) => k.id}
        columns={[
          // A name is whatever was typed: it wraps (one long word included) and a bidirectional control in it is
          // shown, not applied.
          { id: 'name', header: 'Name', cell: (k) => <MemoryText className="cell-title" text={k.name} /> },
          { id: 'key', header: 'Key', className: 'mono', cell: (k) => `${k.prefix}…` },
          {
            id: 'role',
            header: 'Role',
            cell: (k) =>
              k.role === 'admin' ? <span className="badge warn">admin</span> : <span className="badge">agent</span>,
          },
          { id: 'created', header: 'Created', className: 'nowrap', cell: (k) => fmtDateTime(k.createdAt) },
          { id: 'used', header: 'Last used', className: 'nowrap', cell: (k) => fmtAgo(k.lastUsedAt) },
          {
            id: 'status',
            header: 'Status',
            cell: (k) =>
              k.revokedAt ? <span className="badge danger">revoked</span> : <span className="badge ok">active</span>,
          },
          {
            id: 'revoke',
            header: '',
            className: 'right',
            cell: (k) =>
              !k.revokedAt ? (
                <button
                  className="btn btn-danger"
                  type="button"
                  disabled={revoke.isPending}
                  aria-label={`Revoke ${showBidiControls(k.name)} (key ${k.prefix}…)`}
                  data-revoke
                  onClick={(e) => {
                    const named = `“${showBidiControls(k.name)}” (key ${k.prefix}…)`;
                    if (!confirm(`Revoke ${named}? Agents using it will get 401.`)) return;
                    // The button goes with the key: the focus goes on to the next key's.
                    const next = sameSpot(e.currentTarget, '[data-revoke]', document, () => nameField.current);
                    revoke.mutate({ id: k.id }, { onSuccess: () => refocus(next) });
                  }}
                >
                  Revoke
                </button>
              ) : null,
          },
        ]}
      />
      {keys.data && !keys.data.length ? (
        <EmptyState title="No API keys yet">
          Create one above, or start the server with MNEMOSCOPE_API_KEY set.
        </EmptyState>
      ) : null}
    </Panel>
  );
}
