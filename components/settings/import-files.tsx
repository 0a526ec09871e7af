'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { Panel } from '@/components/ui/panel';
import { convertFiles, type ConvertResult } from '@/lib/import/files';
import { batchEnvelopes } from '@/lib/import/batches';
import type { IngestResult } from '@/lib/ingest/contract';
import { fmtInt } from '@/lib/format';

interface Progress {
  sent: number;
  total: number;
  accepted: number;
  duplicates: number;
  rejected: (IngestResult & { status: 'rejected' })[];
}

/** Files a person picks are converted in the browser and sent through the same ingest service as the API. */
export function ImportFiles() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const ingest = useMutation(trpc.ingest.batch.mutationOptions());
  const [plan, setPlan] = useState<ConvertResult | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onFiles(list: FileList | null) {
    if (!list?.length) return;
    setError(null);
    setProgress(null);
    const files = await Promise.all(
      [...list].map(async (f) => ({
        path: (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name,
        text: await f.text(),
      })),
    );
    const converted = convertFiles(files);
    setPlan(converted);
    const envelopes = converted.files.flatMap((f) => f.envelopes);
    const p: Progress = { sent: 0, total: envelopes.length, accepted: 0, duplicates: 0, rejected: [] };
    setProgress({ ...p });
    try {
      for (const batch of batchEnvelopes(envelopes)) {
        const r = await ingest.mutateAsync({ records: batch });
        p.sent += batch.length;
        p.accepted += r.accepted;
        p.duplicates += r.duplicates;
        p.rejected.push(...(r.results.filter((x) => x.status === 'rejected') as Progress['rejected']));
        setProgress({ ...p });
      }
    } catch (e) {
      setError((e as Error).message);
    }
    await qc.invalidateQueries();
  }

  return (
    <Panel as="div" testId="import-files" title="Import files">
      <p className="muted" style={{ marginTop: 0 }}>
        UCS workspaces and exports, curator memory events (.json, .jsonl, Markdown with a “## Memory Events” block),
        sessions as JSON/NDJSON of turns.
      </p>
      <div className="toolbar">
        <label className="btn">
          Choose files…
          <input
            type="file"
            multiple
            hidden
            accept=".json,.jsonl,.ndjson,.md"
            onChange={(e) => void onFiles(e.target.files)}
            data-testid="import-input"
          />
        </label>
        <label className="btn">
          Choose a folder…
          <input type="file" hidden {...{ webkitdirectory: '' }} onChange={(e) => void onFiles(e.target.files)} />
        </label>
      </div>
      {progress ? (
        <div style={{ marginTop: 12 }}>
          <div className="progress" aria-label="Import progress">
            <div style={{ width: `${progress.total ? (100 * progress.sent) / progress.total : 100}%` }} />
          </div>
          <div className="muted" style={{ marginTop: 6 }} data-testid="import-summary">
            {fmtInt(progress.sent)} / {fmtInt(progress.total)} records · {fmtInt(progress.accepted)} accepted ·{' '}
            {fmtInt(progress.duplicates)} already stored · {fmtInt(progress.rejected.length)} rejected
          </div>
        </div>
      ) : null}
      {error ? (
        <div className="error-box" style={{ marginTop: 8 }}>
          {error}
        </div>
      ) : null}
      {plan && (plan.errors.length || plan.skipped.length || progress?.rejected.length) ? (
        <ul style={{ margin: '10px 0 0', paddingLeft: 18 }}>
          {plan.errors.map((e) => (
            <li key={e.path} style={{ color: 'var(--danger)' }}>
              <span className="mono">{e.path}</span>: {e.message}
            </li>
          ))}
          {progress?.rejected.slice(0, 20).map((r) => (
            <li key={r.index} style={{ color: 'var(--danger)' }}>
              record {r.index} {r.id ? <span className="mono">({r.id})</span> : null}:{' '}
              {r.errors.map((e) => `${e.path || 'record'}: ${e.message}`).join('; ')}
            </li>
          ))}
          {plan.skipped.map((s) => (
            <li key={s.path} className="muted">
              <span className="mono">{s.path}</span> skipped: {s.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </Panel>
  );
}
