'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';
import { Panel } from '@/components/ui/panel';
import { QueryError } from '@/components/ui/states';
import { fmtInt } from '@/lib/format';

const DRIVER_LABEL = { pglite: 'Embedded PGlite', postgres: 'PostgreSQL server' } as const;

export function DatabaseInfo() {
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions());
  // Counts over the project's rows: asked alone, so that a slow count holds up nothing else on the page.
  const storage = useQuery(trpc.system.storage.queryOptions(undefined, { trpc: { context: { alone: true } } }));
  const d = info.data;
  const count = (k: 'turns' | 'events' | 'snapshots' | 'audit') =>
    storage.data ? fmtInt(storage.data[k]) : storage.error ? '—' : '…';
  return (
    <Panel as="div" heading title="Storage">
      {d ? (
        <>
          <div style={{ marginBottom: 10 }}>
            <span className="badge accent">{DRIVER_LABEL[d.driver]}</span>{' '}
            <span className="mono muted">{d.location ?? 'location shown to admins'}</span>
          </div>
          <div className="stats" aria-busy={storage.isPending}>
            <div className="stat">
              <div className="label">Sessions</div>
              <div className="value">{fmtInt(d.counts.sessions)}</div>
            </div>
            <div className="stat">
              <div className="label">Turns</div>
              <div className="value">{count('turns')}</div>
            </div>
            <div className="stat">
              <div className="label">Memory events</div>
              <div className="value">{count('events')}</div>
            </div>
            <div className="stat">
              <div className="label">Field snapshots</div>
              <div className="value">{count('snapshots')}</div>
            </div>
            <div className="stat">
              <div className="label">Audit records</div>
              <div className="value">{count('audit')}</div>
            </div>
          </div>
          <QueryError query={storage} doing="count what the project stores" />
          <p className="muted">
            Set <code>DATABASE_URL=postgres://…</code> to use a PostgreSQL server;
            <code> MNEMOSCOPE_DATA_DIR</code> moves the embedded database.
          </p>
          {d.auth.role === 'admin' && (
            <div style={{ display: 'flex', gap: 10, alignItems: 'center', flexWrap: 'wrap' }}>
              <a className="btn" href="/api/project/export" download data-testid="export-project">
                Export project
              </a>
              <span className="muted" style={{ flex: 1, minWidth: 220 }}>
                One <code>.ndjson.gz</code> file: sessions, memory with its history, curation records and UCS data. Load
                it into an empty instance (for example one on PostgreSQL) with{' '}
                <code>npx mnemoscope import-project FILE --url URL</code>.
              </span>
            </div>
          )}
        </>
      ) : (
        <div className="skeleton" />
      )}
    </Panel>
  );
}
