'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useMemo, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { submitOnCtrlEnter } from '@/components/ui/forms';
import { checkEditedCcs, editableCcs } from '@/lib/ccs/fork';
import type { CcsTerms } from '@/lib/ccs/contract';
import { plural } from '@/lib/format';
import { useRole } from '@/components/ui/use-role';

/**
 * Fork at a turn: the turn's CCS as text to correct (checked by the parser as it is typed, each bad term named), saved
 * as a new session linked to this one for the agent to resume from (like LangGraph Studio's fork from a checkpoint).
 */
export function ForkButton({ sessionId, turn, ccs }: { sessionId: string; turn: number; ccs: CcsTerms | null }) {
  const [open, setOpen] = useState(false);
  const { viewer } = useRole();
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        className="btn"
        disabled={!ccs || viewer}
        title={viewer ? 'Reviewers and admins fork sessions; you are a viewer here' : undefined}
        data-testid="fork-open"
      >
        Fork at turn {turn}…
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay">
          <Dialog.Content className="dialog panel fork-dialog" data-testid="fork-dialog" aria-describedby={undefined}>
            <Dialog.Title className="panel-head">
              Fork {sessionId} at turn {turn}
            </Dialog.Title>
            {ccs ? <ForkForm sessionId={sessionId} turn={turn} ccs={ccs} /> : null}
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ForkForm({ sessionId, turn, ccs }: { sessionId: string; turn: number; ccs: CcsTerms }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const ids = useId();
  const [text, setText] = useState(() => editableCcs(ccs));
  const [forkId, setForkId] = useState('');
  const [note, setNote] = useState('');
  const checked = useMemo(() => checkEditedCcs(text), [text]);
  const fork = useMutation(
    trpc.sessions.fork.mutationOptions({
      onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.sessions.pathKey() }),
    }),
  );
  if (fork.data) {
    const id = fork.data.id;
    return (
      <div className="panel-body form-col" data-testid="fork-done">
        <div className="banner ok" role="status">
          Saved as <b className="mono">{id}</b>, linked to turn {turn} of {sessionId}.
        </div>
        <p className="muted" style={{ margin: 0 }}>
          The agent resumes from it with the MCP tool <code>get_session_state</code> (<code>session_id: {id}</code>),
          the SDK&apos;s <code>state(&apos;{id}&apos;)</code> or{' '}
          <code>GET /api/v1/sessions/{encodeURIComponent(id)}/state</code>, and sends its next turns (from {turn + 1})
          to the fork.
        </p>
        <div className="toolbar" style={{ justifyContent: 'flex-end' }}>
          <Dialog.Close className="btn">Close</Dialog.Close>
          <Link className="btn btn-primary" href={`/sessions/${encodeURIComponent(id)}`}>
            Open the fork
          </Link>
        </div>
      </div>
    );
  }
  const save = () => {
    if (checked.problems.length || fork.isPending) return;
    fork.mutate({
      id: sessionId,
      turn,
      ccs: text,
      ...(forkId.trim() ? { forkId: forkId.trim() } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    });
  };
  return (
    <form
      className="panel-body form-col"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onKeyDown={submitOnCtrlEnter}
    >
      <label className="field-col">
        <span className="label-sm">
          The CCS to resume from (each field at the margin, its terms one a line below it)
        </span>
        <textarea
          className="input mono"
          rows={12}
          style={{ minHeight: 260 }}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          aria-invalid={checked.problems.length ? true : undefined}
          aria-describedby={checked.problems.length ? `${ids}-problems` : undefined}
          data-testid="fork-ccs"
        />
      </label>
      {checked.problems.length ? (
        <ul id={`${ids}-problems`} className="danger-text" data-testid="fork-problems" style={{ margin: 0 }}>
          {checked.problems.slice(0, 8).map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : (
        <span className="faint">
          {plural(
            Object.values(checked.ccs).reduce((n, t) => n + (t?.length ?? 0), 0),
            'term',
          )}{' '}
          in {plural(Object.keys(checked.ccs).length, 'field')}
        </span>
      )}
      <div className="grid-2">
        <label className="field-col">
          <span className="label-sm">Fork id (optional)</span>
          <input
            className="input mono"
            value={forkId}
            onChange={(e) => setForkId(e.target.value)}
            placeholder={`${sessionId}~fork-1`}
          />
        </label>
        <label className="field-col">
          <span className="label-sm">Why (optional, the fork&apos;s first input)</span>
          <input className="input" value={note} onChange={(e) => setNote(e.target.value)} />
        </label>
      </div>
      {fork.error ? (
        <div className="banner danger" role="alert">
          {fork.error.message}
        </div>
      ) : null}
      <div className="toolbar" style={{ justifyContent: 'flex-end' }}>
        <span className="faint grow">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> saves
        </span>
        <Dialog.Close className="btn" type="button">
          Cancel
        </Dialog.Close>
        <button type="submit" className="btn btn-primary" disabled={!!checked.problems.length || fork.isPending}>
          {fork.isPending ? 'Saving…' : 'Save fork'}
        </button>
      </div>
    </form>
  );
}
