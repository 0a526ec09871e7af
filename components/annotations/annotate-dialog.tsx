'use client';

import Link from 'next/link';
import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState } from 'react';
import { submitOnCtrlEnter } from '@/components/ui/forms';
import { LengthNote, lengthProps } from '@/components/ui/length-note';
import { useReturnFocus } from '@/components/ui/return-focus';
import { scoreProblem, type ScoreDefinition, type ScoreValue } from '@/lib/annotations/contract';
import { useAnnotate } from './store';
import { COMMENT_MAX } from '@/lib/ingest/contract';
import { useCreateAnnotation, useScoreDefinitions } from './use-annotations';

/** The value a person entered, as the score's kind reads it (null: nothing entered yet). */
function parseValue(def: ScoreDefinition | undefined, raw: string): ScoreValue | null {
  if (!def || raw === '') return null;
  if (def.kind === 'numeric') return Number(raw);
  if (def.kind === 'boolean') return raw === 'true';
  return raw;
}

/**
 * Score and/or comment on what the dialog was opened on (a turn, a term, an artifact, a proposal, an entry). The
 * score's input follows its definition (a number in its range, yes/no, one of its categories); the server checks it
 * again and its refusal is shown here. Ctrl/Cmd-Enter saves.
 */
export function AnnotateDialog() {
  const { open, close } = useAnnotate();
  const focus = useReturnFocus();
  const ids = useId();
  // The score last used stays chosen (reviewers score runs of turns alike); the rest of the form is new each time.
  const [name, setName] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <>
      <Dialog.Root open={open} onOpenChange={(o) => (o ? setSaved(null) : close())}>
        <Dialog.Portal>
          <Dialog.Overlay className="overlay">
            <Dialog.Content
              className="dialog panel annotate-dialog"
              aria-describedby={`${ids}-hint`}
              data-testid="annotate-dialog"
              {...focus}
            >
              <Dialog.Title className="panel-head">Annotate</Dialog.Title>
              <AnnotateForm
                ids={ids}
                name={name}
                setName={setName}
                onSaved={() => {
                  setSaved('Annotation saved.');
                  close();
                }}
              />
            </Dialog.Content>
          </Dialog.Overlay>
        </Dialog.Portal>
      </Dialog.Root>
      <span className="sr-only" role="status">
        {saved}
      </span>
    </>
  );
}

/** The dialog's form: mounted when the dialog opens, so each opening starts empty. */
function AnnotateForm({
  ids,
  name,
  setName,
  onSaved,
}: {
  ids: string;
  name: string;
  setName: (n: string) => void;
  onSaved: () => void;
}) {
  const { options, chosen, choose } = useAnnotate();
  const defs = useScoreDefinitions();
  const [raw, setRaw] = useState('');
  const [comment, setComment] = useState('');
  const create = useCreateAnnotation(onSaved);
  const def = defs.data?.find((d) => d.name === name);
  const value = parseValue(def, raw);
  const problem =
    def && raw !== ''
      ? def.kind === 'numeric' && !Number.isFinite(value)
        ? 'must be a number'
        : scoreProblem(def, value!)
      : null;
  const option = options.find((o) => o.key === chosen);
  const canSave =
    !!option &&
    !problem &&
    (def ? value !== null : comment.trim() !== '') &&
    comment.length <= COMMENT_MAX &&
    !create.isPending;
  const save = () => {
    if (!canSave) return;
    create.mutate({
      ...option.target,
      ...(def ? { name: def.name, value: value! } : {}),
      ...(comment.trim() ? { comment: comment.trim() } : {}),
    });
  };
  const groups = [...new Set(options.map((o) => o.group))];
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
        <span className="label-sm">About</span>
        <select
          className="select"
          value={chosen}
          onChange={(e) => choose(e.target.value)}
          data-testid="annotate-target"
        >
          {groups.map((g) => (
            <optgroup key={g} label={g}>
              {options
                .filter((o) => o.group === g)
                .map((o) => (
                  <option key={o.key} value={o.key}>
                    {o.label.length > 90 ? `${o.label.slice(0, 89)}…` : o.label}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </label>
      <label className="field-col">
        <span className="label-sm">Score</span>
        <select
          className="select"
          value={name}
          onChange={(e) => (setName(e.target.value), setRaw(''))}
          data-testid="annotate-score"
        >
          <option value="">comment only</option>
          {defs.data?.map((d) => (
            <option key={d.name} value={d.name}>
              {d.name} ({d.kind === 'numeric' ? range(d) : d.kind})
            </option>
          ))}
        </select>
      </label>
      {def?.description ? <div className="faint">{def.description}</div> : null}
      {def ? <ValueInput def={def} raw={raw} onChange={setRaw} problem={problem} id={ids} /> : null}
      <label className="field-col">
        <span className="label-sm">Comment {def ? <span className="faint">(optional)</span> : null}</span>
        <textarea
          className="input"
          rows={3}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          placeholder="What is right or wrong here, and why"
          data-testid="annotate-comment"
          {...lengthProps(`${ids}-length`, comment, COMMENT_MAX)}
        />
      </label>
      <LengthNote id={`${ids}-length`} value={comment} max={COMMENT_MAX} />
      {create.error ? (
        <div className="banner danger" role="alert">
          {create.error.message}
        </div>
      ) : null}
      {!defs.isPending && !defs.data?.length ? (
        <p className="faint" style={{ margin: 0 }}>
          No scores are defined in this project yet: an admin defines them in{' '}
          <Link href="/settings#scores">Settings → Scores</Link>.
        </p>
      ) : null}
      <div className="toolbar" style={{ justifyContent: 'flex-end' }}>
        <span id={`${ids}-hint`} className="faint grow">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> saves · <kbd>Esc</kbd> closes
        </span>
        <Dialog.Close className="btn" type="button">
          Cancel
        </Dialog.Close>
        <button type="submit" className="btn btn-primary" disabled={!canSave}>
          {create.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

function range(d: ScoreDefinition) {
  return d.min != null && d.max != null
    ? `${d.min}–${d.max}`
    : d.min != null
      ? `≥ ${d.min}`
      : d.max != null
        ? `≤ ${d.max}`
        : 'number';
}

function ValueInput({
  def,
  raw,
  onChange,
  problem,
  id,
}: {
  def: ScoreDefinition;
  raw: string;
  onChange: (v: string) => void;
  problem: string | null;
  id: string;
}) {
  if (def.kind === 'numeric')
    return (
      <label className="field-col">
        <span className="label-sm">Value ({range(def)})</span>
        <input
          className="input"
          type="number"
          step="any"
          min={def.min ?? undefined}
          max={def.max ?? undefined}
          value={raw}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          data-testid="annotate-value"
        />
        {problem ? (
          <span id={`${id}-problem`} className="danger-text">
            {problem}
          </span>
        ) : null}
      </label>
    );
  const choices = def.kind === 'boolean' ? ['true', 'false'] : def.categories;
  return (
    <fieldset className="seg-radio" data-testid="annotate-choices">
      <legend className="label-sm">Value</legend>
      {choices.map((c) => (
        <label key={c} className="chip-radio">
          <input type="radio" name={`${id}-value`} value={c} checked={raw === c} onChange={() => onChange(c)} />
          {def.kind === 'boolean' ? (c === 'true' ? 'yes' : 'no') : c}
        </label>
      ))}
    </fieldset>
  );
}
