'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { DataTable } from '@/components/ui/data-table';
import { Panel } from '@/components/ui/panel';
import { EmptyState, ErrorBox, QueryError } from '@/components/ui/states';
import { SCORE_KINDS, type ScoreKind } from '@/lib/annotations/contract';
import { fmtInt } from '@/lib/format';

const num = (s: string) => (s.trim() === '' ? null : Number(s));

/**
 * The project's scores: what reviewers and judges may give under each name (a number in a range, yes/no, one of
 * named categories). Values sent under a defined name are checked against it; a name in use cannot be removed.
 */
export function ScoreDefinitions() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const defs = useQuery(trpc.annotations.scores.queryOptions());
  const [name, setName] = useState('');
  const nameField = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<ScoreKind>('numeric');
  const [min, setMin] = useState('0');
  const [max, setMax] = useState('1');
  const [categories, setCategories] = useState('');
  const [description, setDescription] = useState('');
  const invalidate = () => qc.invalidateQueries({ queryKey: trpc.annotations.pathKey() });
  const define = useMutation(
    trpc.annotations.defineScore.mutationOptions({
      onSuccess: () => {
        setName('');
        setDescription('');
        setCategories('');
        void invalidate();
      },
    }),
  );
  const remove = useMutation(trpc.annotations.removeScore.mutationOptions({ onSuccess: () => void invalidate() }));
  return (
    <Panel as="div" heading testId="score-definitions" title="Scores" id="scores">
      <p className="muted" style={{ marginTop: 0 }}>
        What reviewers (key <kbd>n</kbd> in the replay and the inbox) and automated judges (
        <code>POST /api/v1/annotations</code>) may score. A value sent under a defined name must fit it; a name without
        a definition takes any value.
      </p>
      <form
        className="toolbar"
        style={{ flexWrap: 'wrap' }}
        // A refusal is about what was sent: it goes once the form is changed.
        onChange={() => define.error && define.reset()}
        onSubmit={(e) => {
          e.preventDefault();
          define.mutate(
            {
              name: name.trim(),
              kind,
              ...(kind === 'numeric' ? { min: num(min), max: num(max) } : {}),
              ...(kind === 'categorical'
                ? {
                    categories: categories
                      .split(',')
                      .map((c) => c.trim())
                      .filter(Boolean),
                  }
                : {}),
              ...(description.trim() ? { description: description.trim() } : {}),
            },
            // Ready for the next one: the button, disabled while it was sent, took focus to the top of the page.
            { onSuccess: () => nameField.current?.focus() },
          );
        }}
      >
        <input
          className="input"
          placeholder="name, e.g. faithfulness"
          aria-label="Score name"
          ref={nameField}
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ width: 200 }}
        />
        <select
          className="select"
          aria-label="Score kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as ScoreKind)}
        >
          {SCORE_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        {kind === 'numeric' ? (
          <>
            <Bound word="lowest" label="Lowest value" value={min} onChange={setMin} />
            <Bound word="highest" label="Highest value" value={max} onChange={setMax} />
          </>
        ) : kind === 'categorical' ? (
          <input
            className="input"
            placeholder="categories, comma-separated: right, wrong, unsure"
            aria-label="Categories"
            value={categories}
            onChange={(e) => setCategories(e.target.value)}
            style={{ width: 320 }}
          />
        ) : null}
        <input
          className="input"
          placeholder="what it measures (optional)"
          aria-label="Score description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          style={{ width: 260 }}
        />
        <button type="submit" className="btn btn-primary" disabled={!name.trim() || define.isPending}>
          Define score
        </button>
      </form>
      {define.error ? <ErrorBox error={define.error} doing="define the score" /> : null}
      {remove.error ? <ErrorBox error={remove.error} doing="remove the score" /> : null}
      {defs.error ? (
        <QueryError query={defs} />
      ) : defs.data && !defs.data.length ? (
        <EmptyState title="No scores defined">
          Comments need none; define a score to rate turns, terms, artifacts, proposals and entries.
        </EmptyState>
      ) : (
        <DataTable
          compact
          style={{ marginTop: 10 }}
          rows={defs.data ?? []}
          rowKey={(d) => d.name}
          rowProps={(d) => ({ 'data-score-definition': d.name })}
          columns={[
            { id: 'name', header: 'Name', className: 'mono', cell: (d) => d.name },
            { id: 'kind', header: 'Kind', cell: (d) => d.kind },
            {
              id: 'values',
              header: 'Values',
              cell: (d) =>
                d.kind === 'numeric'
                  ? `${d.min ?? '−∞'} … ${d.max ?? '∞'}`
                  : d.kind === 'boolean'
                    ? 'yes / no'
                    : d.categories.join(' · '),
            },
            { id: 'description', header: 'Description', className: 'muted', cell: (d) => d.description ?? '' },
            { id: 'uses', header: 'Used', num: true, cell: (d) => fmtInt(d.uses) },
            { id: 'by', header: 'Defined by', className: 'faint', cell: (d) => d.createdBy },
            {
              id: 'remove',
              header: '',
              cell: (d) =>
                d.uses ? null : (
                  <button
                    type="button"
                    className="link-btn"
                    aria-label={`Remove score ${d.name}`}
                    onClick={() => remove.mutate({ name: d.name })}
                  >
                    remove
                  </button>
                ),
            },
          ]}
        />
      )}
    </Panel>
  );
}

/** One end of a numeric score's range: a visible word, an accessible name, empty for none. */
function Bound({
  word,
  label,
  value,
  onChange,
}: {
  word: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <label className="muted nowrap">
      {word}{' '}
      <input
        className="input"
        type="number"
        step="any"
        aria-label={label}
        placeholder="none"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        style={{ width: 80 }}
      />
    </label>
  );
}
