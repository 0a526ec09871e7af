'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { Panel } from '@/components/ui/panel';
import { convertFiles, type ConvertResult, type SourceFile } from '@/lib/import/files';
import { batchEnvelopes } from '@/lib/import/batches';
import { groupWarnings, locateRecord, tallyByFile } from '@/lib/import/tally';
import type { IngestResult } from '@/lib/ingest/contract';
import { fmtInt } from '@/lib/format';
import { Breakable } from '@/components/ui/breakable';

/** How a file refused for want of its agent says to give it. */
const ASK_AGENT = 'name it in “Agent of UCS files” above, then import again';

/** One import of chosen files: what they converted to, what the server answered, and a failure that stopped it. */
interface Run {
  /** The agent typed, when this run imported again the files of the one before that needed it. */
  again: string | null;
  plan: ConvertResult;
  progress: Progress;
  error: string | null;
}

interface Progress {
  sent: number;
  total: number;
  /** One answer per envelope, in the files' order (each request's answers at its offset). */
  results: (IngestResult | undefined)[];
}

/** Files a person picks are converted in the browser and sent through the same ingest service as the API. */
export function ImportFiles() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const ingest = useMutation(trpc.ingest.batch.mutationOptions());
  // The last choice's import and, when its files that needed an agent were imported again, that one after it.
  const [runs, setRuns] = useState<Run[]>([]);
  // The agent of UCS files that name none (an action log, consult samples, a state file alone), and the files of the
  // last choice that were not imported for want of it.
  const [agent, setAgent] = useState('');
  const [needAgent, setNeedAgent] = useState<SourceFile[]>([]);

  async function onFiles(list: File[]) {
    if (!list.length) return;
    const files = await Promise.all(
      [...list].map(async (f) => ({
        path: (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name,
        text: await f.text(),
      })),
    );
    await importFiles(files);
  }

  async function importFiles(files: SourceFile[], again = false) {
    const converted = convertFiles(files, {
      agent: agent.trim() || undefined,
      workspaceFirst: true,
      askAgent: ASK_AGENT,
    });
    const missing = new Set(converted.errors.filter((e) => e.needsAgent).map((e) => e.path));
    setNeedAgent(files.filter((f) => missing.has(f.path)));
    const envelopes = converted.files.flatMap((f) => f.envelopes);
    const run: Run = {
      again: again ? agent.trim() : null,
      plan: converted,
      progress: { sent: 0, total: envelopes.length, results: [] },
      error: null,
    };
    const show = () => setRuns((rs) => [...(again ? rs.slice(0, 1) : []), { ...run, progress: { ...run.progress } }]);
    show();
    try {
      for (const batch of batchEnvelopes(envelopes)) {
        const r = await ingest.mutateAsync({ records: batch });
        for (const x of r.results) run.progress.results[run.progress.sent + x.index] = x;
        run.progress.sent += batch.length;
        run.progress.results = [...run.progress.results];
        show();
      }
    } catch (e) {
      run.error = (e as Error).message;
      show();
    }
    await qc.invalidateQueries();
  }

  return (
    <Panel as="div" heading testId="import-files" title="Import files">
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
            className="sr-only"
            accept=".json,.jsonl,.ndjson,.md"
            onChange={(e) => {
              void onFiles([...(e.target.files ?? [])]);
              // The same file can be chosen again (a change event comes only for a new choice).
              e.target.value = '';
            }}
            data-testid="import-input"
          />
        </label>
        <label className="btn">
          Choose a folder…
          <input
            type="file"
            className="sr-only"
            {...{ webkitdirectory: '' }}
            onChange={(e) => {
              void onFiles([...(e.target.files ?? [])]);
              // The same file can be chosen again (a change event comes only for a new choice).
              e.target.value = '';
            }}
          />
        </label>
      </div>
      <div className="toolbar import-agent">
        <label className="label-sm nowrap" htmlFor="import-agent">
          Agent of UCS files
        </label>
        <input
          id="import-agent"
          className="input"
          value={agent}
          onChange={(e) => setAgent(e.target.value)}
          placeholder="when the files name none"
          aria-describedby="import-agent-help"
        />
        {needAgent.length ? (
          <button
            type="button"
            className="btn btn-primary"
            disabled={!agent.trim() || ingest.isPending}
            onClick={() => void importFiles(needAgent, true)}
          >
            Import {needAgent.length === 1 ? 'the file' : `the ${needAgent.length} files`} that need it
          </button>
        ) : null}
      </div>
      <p id="import-agent-help" className="faint" style={{ margin: '6px 0 0' }}>
        A workspace’s export or status names its agent; its other files (an action log, consult samples, a state file,
        the index, PP history or knowledge notes) chosen alone do not, and are imported as the agent named here, as is a
        LangGraph history without a graph_id.
      </p>
      {runs.map((r, k) => (
        <ImportReport key={k} run={r} next={runs[k + 1]} />
      ))}
    </Panel>
  );
}

/** One import: its progress, what each file came to, and each record or file not stored anew, with why. */
function ImportReport({ run, next }: { run: Run; next?: Run }) {
  const { plan, progress, error } = run;
  // The files the next run imported again with the agent, once it has sent them all and none of their records was
  // refused: their error here is said to be mended there.
  const nextDone = next && !next.error && next.progress.sent === next.progress.total;
  const mended = new Set(
    nextDone ? tallyByFile(next.plan.files, next.progress.results).flatMap((t) => (t.rejected ? [] : [t.path])) : [],
  );
  const tally = tallyByFile(plan.files, progress.results);
  const sum = (k: 'accepted' | 'duplicate' | 'rejected' | 'conflict' | 'superseded') =>
    tally.reduce((a, t) => a + t[k], 0);
  // Files whose records were not all stored anew: which ones, and how many, so "1 already stored" can be found.
  const notNew = tally.filter((t) => t.duplicate || t.rejected || t.conflict || t.superseded);
  const rejected = progress.results.filter((r): r is IngestResult & { status: 'rejected' } => r?.status === 'rejected');
  // Records whose id holds another version, kept as stored: which, and what the server says to do.
  const conflicts = progress.results.filter(
    (r): r is IngestResult & { status: 'conflict' } => r?.status === 'conflict',
  );
  // Fields kept as the agent's own that look like slips for known ones: each said once, with where it was first met.
  const warnings = groupWarnings(progress.results);
  const where = (r: Pick<IngestResult, 'id'>, index = progress.results.indexOf(r as IngestResult)) => {
    const at = locateRecord(plan.files, index);
    return (
      <>
        {at ? (
          <>
            <span className="mono">{at.path}</span>, record {at.record}
          </>
        ) : (
          'a record'
        )}
        {r.id ? (
          <>
            {' '}
            <span className="mono">({r.id})</span>
          </>
        ) : null}
      </>
    );
  };
  return (
    <div data-testid="import-run">
      {run.again !== null ? (
        <div className="label-sm" style={{ marginTop: 14 }}>
          Imported again as <span className="mono">{run.again}</span>: the files that needed the agent
        </div>
      ) : null}
      <div style={{ marginTop: 12 }}>
        <div className="progress" aria-label="Import progress">
          <div style={{ width: `${progress.total ? (100 * progress.sent) / progress.total : 100}%` }} />
        </div>
        <div className="muted" style={{ marginTop: 6 }} data-testid="import-summary">
          {progress.total ? (
            <>
              {fmtInt(progress.sent)} / {fmtInt(progress.total)} records · {fmtInt(sum('accepted'))} accepted ·{' '}
              {fmtInt(sum('duplicate'))} already stored · {fmtInt(sum('rejected'))} rejected
              {sum('conflict') ? ` · ${fmtInt(sum('conflict'))} conflicting with a stored version (kept)` : ''}
              {sum('superseded') ? ` · ${fmtInt(sum('superseded'))} replaced a stored version` : ''}
            </>
          ) : (
            'Nothing sent: no file chosen could be converted (why, below)'
          )}
        </div>
        {notNew.length ? (
          <ul className="import-files" data-testid="import-files-table">
            {notNew.map((t) => (
              <li key={t.path}>
                <span className="mono">
                  <Breakable text={t.path} />
                </span>
                :{' '}
                {[
                  t.duplicate ? `${fmtInt(t.duplicate)} of ${fmtInt(t.records)} already stored` : '',
                  t.rejected ? `${fmtInt(t.rejected)} rejected` : '',
                  t.conflict ? `${fmtInt(t.conflict)} conflicting with a stored version (kept)` : '',
                  t.superseded ? `${fmtInt(t.superseded)} replaced a stored version` : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {error ? (
        <div className="error-box" style={{ marginTop: 8 }}>
          {error}
        </div>
      ) : null}
      {plan.errors.length || plan.skipped.length || rejected.length || conflicts.length || warnings.length ? (
        <ul style={{ margin: '10px 0 0', paddingLeft: 18 }}>
          {plan.errors.map((e) =>
            mended.has(e.path) ? (
              <li key={e.path} className="muted" data-mended>
                <span className="mono">{e.path}</span>: {e.needsAgent ?? e.message}; imported below as{' '}
                <span className="mono">{next?.again}</span>
              </li>
            ) : (
              <li key={e.path} style={{ color: 'var(--danger)' }}>
                <span className="mono">{e.path}</span>: {e.message}
              </li>
            ),
          )}
          {rejected.slice(0, 20).map((r, k) => (
            <li key={k} style={{ color: 'var(--danger)' }}>
              {where(r)}: {r.errors.map((e) => `${e.path || 'record'}: ${e.message}`).join('; ')}
            </li>
          ))}
          {rejected.length > 20 ? <li className="muted">and {fmtInt(rejected.length - 20)} more rejected</li> : null}
          {conflicts.slice(0, 20).map((r, k) => (
            <li key={`c${k}`} data-testid="import-conflict">
              {where(r)}: another version is stored under this id (
              {r.type === 'memory_event'
                ? 'the event sent differs from the one stored'
                : `it differs in ${r.fields.join(', ')}`}
              ); the stored one was kept.{' '}
              {r.type === 'memory_event' ? (
                'A memory event cannot be replaced once the curator has seen it: send a new event whose supersedes ' +
                'names this one.'
              ) : (
                <>
                  <code>npx mnemoscope import --supersede</code> replaces it (the old version is kept in its history).
                </>
              )}
            </li>
          ))}
          {conflicts.length > 20 ? (
            <li className="muted">and {fmtInt(conflicts.length - 20)} more conflicting</li>
          ) : null}
          {warnings.slice(0, 20).map((w) => (
            <li key={`w${w.path}${w.message}`} data-testid="import-warning" style={{ color: 'var(--warn)' }}>
              {where({ id: w.firstId }, w.first)}: <span className="mono">{w.path}</span> {w.message}
              {w.records > 1 ? ` (and in ${fmtInt(w.records - 1)} more ${w.records === 2 ? 'record' : 'records'})` : ''}
            </li>
          ))}
          {warnings.length > 20 ? <li className="muted">and {fmtInt(warnings.length - 20)} more warnings</li> : null}
          {plan.skipped.map((s) => (
            <li key={s.path} className="muted">
              <span className="mono">{s.path}</span> skipped: {s.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
