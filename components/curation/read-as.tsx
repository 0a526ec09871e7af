'use client';

import { entryHref } from '@/lib/pages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import type { RouterOutputs } from '@/components/trpc/outputs';
import { MemoryText } from '@/components/ui/memory-text';
import { Panel } from '@/components/ui/panel';
import { EmptyState, QueryError, SkeletonRows } from '@/components/ui/states';
import {
  isAnonymous,
  READ_AS_MAX,
  READER_KEYS,
  readerFromParams,
  readerProblems,
  readerToParams,
  SCOPE_READER_KEY,
  type ReadScope,
  type Reader,
  type ReaderKey,
} from '@/lib/curation/read-as';
import { fmtDateTime, fmtInt } from '@/lib/format';

type Result = RouterOutputs['curation']['readAs'];
type Section = Result['scopes'][number];

/** Each of a reader's fields: its label, the event field an owner is matched on, and what other owners are. */
const FIELDS: Record<ReaderKey, { label: string; matched: string; other: string }> = {
  user: { label: 'User', matched: 'user_id', other: 'user' },
  team: { label: 'Team', matched: 'team_id', other: 'team' },
  project: { label: 'Project', matched: 'project_id', other: 'project' },
  agentRepo: { label: 'Agent repo', matched: 'agent_repo, else its agent', other: 'repo' },
  task: { label: 'Task', matched: 'task_id, else session_id', other: 'task' },
};
const entries = (n: number) => `${fmtInt(n)} ${n === 1 ? 'entry' : 'entries'}`;
const others = (n: number, what: string) => `${fmtInt(n)} other ${what}${n === 1 ? '' : 's'}`;

/**
 * Curation → Read as: choose a reader (user, team, project, agent repo, task) and see, scope by scope in the order
 * an agent reads them, exactly the live entries it reads, and how many it does not. The reader lives in the URL.
 */
export function ReadAsView() {
  const trpc = useTRPC();
  const params = useSearchParams();
  const reader = readerFromParams(params);
  const query = params.get('q')?.trim() ?? '';
  const key = readerToParams(reader, query).toString();
  // Entries listed per scope: more when asked, back to the first page for another reader (the key resets them).
  const [limits, setLimits] = useState<{ key: string; more: Partial<Record<ReadScope, number>> }>({ key, more: {} });
  const more = limits.key === key ? limits.more : {};
  const q = useQuery({
    ...trpc.curation.readAs.queryOptions({ ...reader, query: query || null, limits: more }),
    placeholderData: keepPreviousData,
  });
  const data = q.data;
  const anonymous = isAnonymous(reader);
  return (
    <>
      <ReaderForm key={key} reader={reader} query={query} known={data?.known} />
      {readerProblems(params).map((p) => (
        <p key={p} className="banner warn" role="status" data-testid="reader-problem">
          {p}
        </p>
      ))}
      <QueryError query={q} />
      {anonymous ? (
        <Panel as="div" body={false}>
          <EmptyState title="Choose a reader">
            Give a user, a team, a project, an agent repo or a task — or several: an agent has all five — and this
            shows, scope by scope in the order an agent reads them, exactly the memory it reads and how much it does
            not. An entry belongs to whom its source event names; one whose event names no owner, or that a reviewer
            wrote, is shared: every reader of its scope reads it — except a session entry, which is one task&apos;s own:
            one that names no task is read by none. An agent&apos;s <code>search_memory</code> with the same{' '}
            <code>reader</code> searches exactly what is listed here.
          </EmptyState>
        </Panel>
      ) : (
        <Results
          data={data}
          stale={q.isPlaceholderData}
          onMore={(scope, n) => setLimits({ key, more: { ...more, [scope]: n } })}
        />
      )}
    </>
  );
}

/**
 * The name of the form's control that had the focus when the reader changed: the form is made anew for the new reader
 * (its fields start from the URL), and that control gets the focus back instead of the top of the page.
 */
let focusedBefore: string | null = null;

function ReaderForm({ reader, query, known }: { reader: Reader; query: string; known: Result['known'] | undefined }) {
  const router = useRouter();
  const pathname = usePathname();
  const [values, setValues] = useState<Reader>(reader);
  const [words, setWords] = useState(query);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const name = focusedBefore;
    focusedBefore = null;
    if (name) form.current?.querySelector<HTMLElement>(`[name="${CSS.escape(name)}"]`)?.focus();
  }, []);
  const go = (r: Reader, w: string) => {
    const at = document.activeElement;
    focusedBefore = at instanceof HTMLElement && form.current?.contains(at) ? at.getAttribute('name') : null;
    const next = readerToParams(r, w);
    router.replace(`${pathname}${next.size ? `?${next}` : ''}`, { scroll: false });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go(values, words);
  };
  return (
    <form className="panel panel-body" ref={form} onSubmit={submit} aria-label="Reader" style={{ marginBottom: 12 }}>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))', gap: '8px 10px' }}>
        {READER_KEYS.map((k) => {
          const of = known?.[k];
          return (
            <label key={k} className="field-col">
              <span className="label-sm">{FIELDS[k].label}</span>
              <input
                className="input"
                name={k}
                list={`read-as-${k}`}
                autoComplete="off"
                spellCheck={false}
                placeholder={of ? `${fmtInt(of.total)} known` : ''}
                value={values[k] ?? ''}
                onChange={(e) => setValues({ ...values, [k]: e.target.value })}
              />
              <datalist id={`read-as-${k}`}>
                {of?.values.map((v) => (
                  <option key={v} value={v} />
                ))}
              </datalist>
            </label>
          );
        })}
      </div>
      <div className="toolbar" style={{ marginTop: 8, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <label className="field-col" style={{ flex: '0 1 260px' }}>
          <span className="label-sm">Words in the entry</span>
          <input className="input" type="search" name="q" value={words} onChange={(e) => setWords(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-primary" name="read">
          Read as this agent
        </button>
        <button
          type="button"
          name="clear"
          className="btn"
          onClick={() => {
            setValues({});
            setWords('');
            go({}, '');
          }}
        >
          Clear
        </button>
        <span className="muted" style={{ fontSize: 12, lineHeight: '30px' }}>
          Suggestions: the values memory events carry, most recent first.
        </span>
      </div>
    </form>
  );
}

function Results({
  data,
  stale,
  onMore,
}: {
  data: Result | undefined;
  stale: boolean;
  onMore: (scope: ReadScope, limit: number) => void;
}) {
  if (!data)
    return (
      <Panel as="div" busy body={false}>
        <table className="data compact">
          <caption className="sr-only">Loading what this reader reads</caption>
          <SkeletonRows rows={5} cols={5} />
        </table>
      </Panel>
    );
  const read = data.scopes.reduce((n, s) => n + s.visible, 0);
  const hidden = data.scopes.reduce((n, s) => n + s.hidden, 0);
  const shared = data.scopes.reduce((n, s) => n + s.shared, 0);
  const words = data.query ? ` with “${data.query}”` : '';
  return (
    <div data-testid="read-as" aria-busy={stale} style={{ opacity: stale ? 0.6 : 1 }}>
      <p className="muted" style={{ margin: '0 0 4px' }} data-testid="read-as-summary">
        Reads {entries(read)}
        {words}
        {shared ? ` (${fmtInt(shared)} shared)` : ''} · does not read {entries(hidden)}
        {words} that {hidden === 1 ? 'belongs' : 'belong'} to other owners.
      </p>
      <p className="faint" style={{ margin: '0 0 10px', fontSize: 12 }}>
        An entry belongs to whom its source event names in its scope&apos;s field: <code>user_id</code>,{' '}
        <code>team_id</code>, <code>project_id</code>, <code>agent_repo</code> (else the emitting agent),{' '}
        <code>task_id</code> (else <code>session_id</code>). One whose event names no owner, or that a reviewer wrote,
        is <b>shared</b>: every reader of its scope reads it, except in <code>session</code>, where it is read by no
        task. Live entries only (active or in conflict); deprecated ones are never read. An agent&apos;s{' '}
        <code>search_memory</code> given this reader searches these entries.
      </p>
      {!read ? (
        <Panel as="div" style={{ marginBottom: 12 }} body={false}>
          <EmptyState title="Nothing to read">
            No live entry{words} is this reader’s own or shared in any scope. What it does not read is counted below.
          </EmptyState>
        </Panel>
      ) : null}
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        {data.scopes.map((s, i) => (
          <ScopeSection key={s.scope} n={i + 1} s={s} onMore={onMore} />
        ))}
      </div>
    </div>
  );
}

function ScopeSection({ n, s, onMore }: { n: number; s: Section; onMore: (scope: ReadScope, limit: number) => void }) {
  const f = FIELDS[SCOPE_READER_KEY[s.scope]];
  const id = `read-as-${s.scope}`;
  const left = s.visible - s.items.length;
  const next = Math.min(s.limit + 100, READ_AS_MAX);
  return (
    <section className="panel" aria-labelledby={id} data-scope={s.scope}>
      <div className="panel-head" style={{ flexWrap: 'wrap', gap: '4px 12px' }}>
        <h2 className="panel-title" id={id}>
          {n}. {s.scope}{' '}
          <span className="muted" style={{ fontWeight: 400 }}>
            {s.value ? (
              <>
                as {f.label.toLowerCase()} <b className="mono">{s.value}</b>
              </>
            ) : (
              `no ${f.label.toLowerCase()} given: shared entries only`
            )}
          </span>
        </h2>
        <span className="muted" style={{ fontWeight: 400, fontSize: 12 }} data-testid="scope-counts">
          reads {entries(s.visible)}
          {s.shared ? ` (${fmtInt(s.shared)} shared)` : ''} · not read: {entries(s.hidden)}
          {s.hidden ? ` of ${others(s.hiddenOwners, f.other)}` : ''}
        </span>
      </div>
      {s.items.length ? (
        <table className="data compact" style={{ tableLayout: 'fixed' }}>
          <caption className="sr-only">
            {s.scope} entries read as {s.value ?? 'a reader with no ' + f.label.toLowerCase()}; owner matched on{' '}
            {f.matched}
          </caption>
          <colgroup>
            <col style={{ width: 104 }} />
            <col />
            <col style={{ width: 132 }} />
            <col style={{ width: 44 }} />
            <col style={{ width: 176 }} />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Content</th>
              <th scope="col">Owner</th>
              <th scope="col">Ver.</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {s.items.map((e) => (
              <tr key={e.id} data-entry={e.id}>
                <td>
                  <span className="badge">{e.kind}</span>
                  {e.status === 'in_conflict' ? (
                    <span className="badge danger" style={{ marginTop: 2 }}>
                      in conflict
                    </span>
                  ) : null}
                </td>
                <td style={{ overflowWrap: 'anywhere' }}>
                  <Link href={entryHref(e.id)} className="hit-link" title={e.content}>
                    <MemoryText className="clip" text={e.content} />
                  </Link>
                </td>
                <td>
                  {e.owner === null ? (
                    <span className="badge" title="Its source event names no owner, or a reviewer wrote it">
                      shared
                    </span>
                  ) : (
                    <span className="mono ellipsis" style={{ display: 'block', fontSize: 12 }} title={e.owner}>
                      {e.owner}
                    </span>
                  )}
                </td>
                <td className="num">v{e.version}</td>
                <td className="nowrap" style={{ fontSize: 12 }}>
                  {fmtDateTime(e.updatedAt)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className="panel-body muted" style={{ fontSize: 12 }}>
          Reads nothing in {s.scope}
          {s.hidden
            ? `; ${entries(s.hidden)} here belong${s.hidden === 1 ? 's' : ''} to ${others(s.hiddenOwners, f.other)}`
            : ''}
          .
        </div>
      )}
      {left > 0 ? (
        <div className="table-foot">
          <span className="muted">
            Showing {fmtInt(s.items.length)} of {entries(s.visible)} read
          </span>
          {s.limit < READ_AS_MAX ? (
            <button type="button" className="btn" onClick={() => onMore(s.scope, next)}>
              Show {fmtInt(Math.min(next - s.limit, left))} more
            </button>
          ) : (
            <span className="muted">at most {fmtInt(READ_AS_MAX)} listed: add words to narrow</span>
          )}
        </div>
      ) : null}
    </section>
  );
}
