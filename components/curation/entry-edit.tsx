'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState, type KeyboardEvent } from 'react';
import { LengthNote, lengthProps } from '@/components/ui/length-note';
import { useTRPC } from '@/components/trpc/provider';
import { ENTRY_CONTENT_MAX, KINDS, SCOPES, type Kind, type Scope } from '@/lib/curation/pipeline';

const RELATIONS = ['related_to', 'supports', 'contradicts', 'supersedes'] as const;

function useRefreshCuration() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: trpc.curation.pathKey() });
}

function ScopeKind({
  scope,
  kind,
  onScope,
  onKind,
  kinds = KINDS,
}: {
  scope: Scope;
  kind: Kind;
  onScope: (s: Scope) => void;
  onKind: (k: Kind) => void;
  /** The kinds offered (a new entry: not those another action writes, with the entries they refer to). */
  kinds?: readonly Kind[];
}) {
  return (
    <div className="toolbar">
      <Choice label="Scope" value={scope} options={SCOPES} onChange={onScope} />
      <Choice label="Kind" value={kind} options={kinds} onChange={onKind} />
    </div>
  );
}

/** A select with its visible label ("Scope"; "Entry scope" to a screen reader, as the tests and forms name it). */
function Choice<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (v: T) => void;
}) {
  return (
    <label className="toolbar">
      <span className="label-sm">{label}</span>
      <select
        className="select"
        aria-label={`Entry ${label.toLowerCase()}`}
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A deprecation is written by Deprecate… and a conflict by Link… (contradicts), each naming the entries it is about:
 * a new entry is of the other kinds.
 */
const NEW_ENTRY_KINDS = KINDS.filter((k) => k !== 'deprecation' && k !== 'conflict');

/** A person writes an entry directly (an append, like the curator's, audited with them as author). */
export function NewEntryButton() {
  const trpc = useTRPC();
  const router = useRouter();
  const refresh = useRefreshCuration();
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<Scope>('project');
  const [kind, setKind] = useState<Kind>('fact');
  const [content, setContent] = useState('');
  const [note, setNote] = useState('');
  const lengthId = useId();
  const create = useMutation(
    trpc.curation.createEntry.mutationOptions({
      onSuccess: (r) => {
        void refresh();
        setOpen(false);
        setContent('');
        setNote('');
        router.replace(inEntries({ entry: r.id }), { scroll: false });
      },
    }),
  );
  return (
    <Dialog.Root open={open} onOpenChange={(o) => (setOpen(o), create.reset())}>
      <Dialog.Trigger className="btn btn-primary" data-testid="new-entry">
        New entry…
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay">
          <Dialog.Content
            className="dialog panel annotate-dialog"
            aria-describedby={undefined}
            data-testid="new-entry-dialog"
          >
            <Dialog.Title className="panel-head">New memory entry</Dialog.Title>
            <form
              className="panel-body form-col"
              onSubmit={(e) => {
                e.preventDefault();
                create.mutate({ scope, kind, content, ...(note.trim() ? { note } : {}) });
              }}
            >
              <ScopeKind scope={scope} kind={kind} onScope={setScope} onKind={setKind} kinds={NEW_ENTRY_KINDS} />
              <label className="field-col">
                <span className="label-sm">Content</span>
                <textarea
                  className="input"
                  rows={4}
                  value={content}
                  onChange={(e) => setContent(e.target.value)}
                  aria-label="Entry content"
                  {...lengthProps(lengthId, content, ENTRY_CONTENT_MAX)}
                />
              </label>
              <LengthNote id={lengthId} value={content} max={ENTRY_CONTENT_MAX} />
              <label className="field-col">
                <span className="label-sm">Why (optional, in the audit log)</span>
                <input className="input" value={note} onChange={(e) => setNote(e.target.value)} aria-label="Why" />
              </label>
              {create.error ? (
                <div className="banner danger" role="alert">
                  {create.error.message}
                </div>
              ) : null}
              <div className="toolbar" style={{ justifyContent: 'flex-end' }}>
                <Dialog.Close className="btn" type="button">
                  Cancel
                </Dialog.Close>
                <button
                  type="submit"
                  className="btn btn-primary"
                  disabled={!content.trim() || content.length > ENTRY_CONTENT_MAX || create.isPending}
                >
                  Write entry
                </button>
              </div>
            </form>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * The Entries page as it is (its scope, status and words) with `changes` made: a value set, or removed when empty.
 * An entry opened keeps the list's filters (`entryHref` is the entry alone, for links from elsewhere).
 */
export function inEntries(changes: Record<string, string>): string {
  const next = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v) next.set(k, v);
    else next.delete(k);
  }
  return `/curation/entries${next.size ? `?${next}` : ''}`;
}

/** Edits an entry: a new version with the reason as its note; refused if someone else's edit landed meanwhile. */
export function EditEntryForm({
  entry,
  onDone,
}: {
  entry: { id: string; content: string; scope: string; kind: string; version: number };
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshCuration();
  const [content, setContent] = useState(entry.content);
  const lengthId = useId();
  const [scope, setScope] = useState(entry.scope as Scope);
  const [kind, setKind] = useState(entry.kind as Kind);
  const [reason, setReason] = useState('');
  const edit = useMutation(
    trpc.curation.editEntry.mutationOptions({
      onSuccess: () => {
        void refresh();
        onDone();
      },
    }),
  );
  return (
    <form
      className="form-col"
      data-testid="edit-entry"
      onKeyDown={(e) => escapeCloses(e, onDone)}
      onSubmit={(e) => {
        e.preventDefault();
        edit.mutate({ id: entry.id, content, scope, kind, reason, version: entry.version });
      }}
    >
      <ScopeKind scope={scope} kind={kind} onScope={setScope} onKind={setKind} />
      <textarea
        className="input"
        rows={4}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        aria-label="Entry content"
        {...lengthProps(lengthId, content, ENTRY_CONTENT_MAX)}
        // Opened by Edit…, which goes with it: the focus comes here (it fell to the page's body).
        autoFocus
      />
      <LengthNote id={lengthId} value={content} max={ENTRY_CONTENT_MAX} />
      <input
        className="input"
        placeholder="why it changes (kept in the version history)"
        aria-label="Why it changes"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {edit.error ? (
        <div className="banner danger" role="alert">
          {edit.error.message}
        </div>
      ) : null}
      <div className="toolbar">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!reason.trim() || content.length > ENTRY_CONTENT_MAX || edit.isPending}
        >
          Save version {entry.version + 1}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Escape in an entry's form closes it, as Cancel would (the inbox's reject field does the same). */
export function escapeCloses(e: KeyboardEvent, close: () => void) {
  if (e.key !== 'Escape') return;
  e.preventDefault();
  close();
}

/** Links the entry to another, found by words in its content. */
export function LinkEntryForm({ id, onDone }: { id: string; onDone: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshCuration();
  const [query, setQuery] = useState('');
  const [other, setOther] = useState('');
  const [relation, setRelation] = useState<(typeof RELATIONS)[number]>('related_to');
  const found = useQuery({
    ...trpc.curation.entries.queryOptions({ query: query.trim() || null, limit: 20 }),
    enabled: query.trim().length > 1,
  });
  const link = useMutation(
    trpc.curation.linkEntries.mutationOptions({
      onSuccess: () => {
        void refresh();
        onDone();
      },
    }),
  );
  const choices = (found.data?.items ?? []).filter((e) => e.id !== id);
  return (
    <form
      className="form-col"
      data-testid="link-entry"
      onKeyDown={(e) => escapeCloses(e, onDone)}
      onSubmit={(e) => {
        e.preventDefault();
        if (other) link.mutate({ id, otherId: other, relation });
      }}
    >
      <div className="toolbar">
        <select
          className="select"
          aria-label="Relation"
          autoFocus
          value={relation}
          onChange={(e) => setRelation(e.target.value as (typeof RELATIONS)[number])}
        >
          {RELATIONS.map((r) => (
            <option key={r} value={r}>
              {r.replace('_', ' ')}
            </option>
          ))}
        </select>
        <input
          className="input grow"
          placeholder="words in the other entry"
          aria-label="Find the other entry"
          value={query}
          onChange={(e) => (setQuery(e.target.value), setOther(''))}
        />
      </div>
      <select
        className="select"
        aria-label="Other entry"
        value={other}
        onChange={(e) => setOther(e.target.value)}
        disabled={!choices.length}
      >
        <option value="">
          {query.trim().length > 1 ? `${choices.length} found: pick one` : 'type to find an entry'}
        </option>
        {choices.map((e) => (
          <option key={e.id} value={e.id}>
            {e.scope} · {e.content.slice(0, 90)}
          </option>
        ))}
      </select>
      {link.error ? (
        <div className="banner danger" role="alert">
          {link.error.message}
        </div>
      ) : null}
      <div className="toolbar">
        <button type="submit" className="btn btn-primary" disabled={!other || link.isPending}>
          Link
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
