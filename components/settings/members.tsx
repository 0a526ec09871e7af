'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { DataTable } from '@/components/ui/data-table';
import { Panel } from '@/components/ui/panel';
import { refocus, sameSpot } from '@/components/ui/refocus';
import { ErrorBox } from '@/components/ui/states';
import { fmtDateTime } from '@/lib/format';

const ROLES = ['viewer', 'reviewer', 'admin'] as const;

/** Who may open this project and as what; shown to admins when sign-in is on. */
export function Members() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const info = useQuery(trpc.system.info.queryOptions());
  const isAdmin = info.data?.auth.mode === 'users' && info.data.auth.role === 'admin';
  const members = useQuery({ ...trpc.members.list.queryOptions(), enabled: isAdmin });
  const [form, setForm] = useState({ username: '', role: 'viewer' as (typeof ROLES)[number], password: '' });
  const done = () => qc.invalidateQueries({ queryKey: trpc.members.pathKey() });
  const userField = useRef<HTMLInputElement>(null);
  const set = useMutation(
    trpc.members.set.mutationOptions({
      onSuccess: () => {
        setForm({ username: '', role: 'viewer', password: '' });
        void done();
      },
    }),
  );
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: () => done() }));
  if (info.data?.auth.mode !== 'users') {
    return (
      <Panel heading title="Members" bodyClassName="muted">
        Local single-user mode: no sign-in, loopback only. Start with <code>MNEMOSCOPE_AUTH=users</code> and{' '}
        <code>MNEMOSCOPE_ADMIN_USER</code> / <code>MNEMOSCOPE_ADMIN_PASSWORD</code> to let people sign in with roles.
      </Panel>
    );
  }
  if (!isAdmin) return null;
  return (
    <Panel heading testId="members" title="Members">
      <form
        className="toolbar"
        style={{ flexWrap: 'wrap', marginBottom: 10 }}
        onSubmit={(e) => {
          e.preventDefault();
          set.mutate(
            { username: form.username, role: form.role, password: form.password || null },
            { onSuccess: () => refocus(() => userField.current) },
          );
        }}
      >
        <input
          className="input"
          placeholder="username"
          aria-label="Username"
          ref={userField}
          value={form.username}
          onChange={(e) => setForm({ ...form, username: e.target.value })}
        />
        <select
          className="select"
          aria-label="Role"
          value={form.role}
          onChange={(e) => setForm({ ...form, role: e.target.value as (typeof ROLES)[number] })}
        >
          {ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
        <input
          className="input"
          type="password"
          placeholder="password (new users, 12+)"
          aria-label="Password for a new user"
          value={form.password}
          onChange={(e) => setForm({ ...form, password: e.target.value })}
        />
        <button className="btn btn-primary" type="submit" disabled={!form.username.trim() || set.isPending}>
          Add or change role
        </button>
      </form>
      {set.error ? <ErrorBox error={set.error} doing="save the member" /> : null}
      {remove.error ? <ErrorBox error={remove.error} doing="remove the member" /> : null}
      <DataTable
        compact
        headless
        rows={members.data ?? []}
        rowKey={(m) => m.userId}
        columns={[
          { id: 'username', header: 'Username', cell: (m) => m.username },
          { id: 'role', header: 'Role', cell: (m) => <span className="badge">{m.role}</span> },
          { id: 'since', header: 'Since', className: 'muted', cell: (m) => `since ${fmtDateTime(m.since)}` },
          {
            id: 'remove',
            header: '',
            width: 1,
            cell: (m) => (
              <button
                type="button"
                className="btn"
                data-remove
                onClick={(e) => {
                  const next = sameSpot(e.currentTarget, '[data-remove]', document, () => userField.current);
                  remove.mutate({ username: m.username }, { onSuccess: () => refocus(next) });
                }}
              >
                Remove
              </button>
            ),
          },
        ]}
      />
    </Panel>
  );
}
