'use client';

import { useId, useState } from 'react';
import { fmtInt } from '@/lib/format';

/** A parameter's number as the field's words give it: whole numbers grouped ("1,000,000"), others as they are. */
const fmtParam = (x: number, integer: boolean) => (integer ? fmtInt(x) : String(x));

/** Why a number typed for a parameter cannot be used, or null when it can. */
export function numberProblem(v: number, min: number, max: number | undefined, integer: boolean): string | null {
  const fits = Number.isFinite(v) && v >= min && (max === undefined || v <= max) && (!integer || Number.isInteger(v));
  if (fits) return null;
  const n = (x: number) => fmtParam(x, integer);
  const what = integer ? 'a whole number' : 'a number';
  return max === undefined ? `${what} of at least ${n(min)}` : `${what} from ${n(min)} to ${n(max)}`;
}

/**
 * A labelled number input for a policy parameter. What is typed is kept as typed while it is edited (an emptied
 * field stays empty); a number that fits is used at once, one that does not is said (the value in use stays), and
 * leaving the field shows the value in use again.
 */
export function NumberField({
  label,
  value,
  onChange,
  step = 1,
  min = 0,
  max,
  integer = Number.isInteger(step),
  showLabel = true,
  width = 96,
}: {
  label: string;
  value: number;
  onChange: (v: number) => void;
  step?: number;
  min?: number;
  max?: number;
  /** Only whole numbers (the default when the step is whole). */
  integer?: boolean;
  /** The label shown before the field; without it, the label is the field's accessible name only. */
  showLabel?: boolean;
  width?: number;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  // The value in use when the editing began: it is used again while the draft cannot be (typing 5000 where 1,000 is
  // the most passes through 500, which nobody chose).
  const [before, setBefore] = useState<number | null>(null);
  const problemId = useId();
  const typed = draft === null ? null : draft.trim() === '' ? NaN : Number(draft);
  const problem = typed === null ? null : numberProblem(typed, min, max, integer);
  // The draft stands while it is what is in use, or cannot be used; a value set from elsewhere meanwhile shows.
  const shown = draft !== null && (problem || typed === value) ? draft : value;
  return (
    <span className="toolbar number-field" style={{ gap: 6 }}>
      <label className="toolbar" style={{ gap: 6 }}>
        {showLabel ? <span className="muted">{label}</span> : null}
        <input
          className="input"
          style={{ width }}
          type="number"
          step={step}
          min={min}
          max={max}
          aria-label={label}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? problemId : undefined}
          value={shown}
          onChange={(e) => {
            const text = e.target.value;
            const start = before ?? value;
            setBefore(start);
            setDraft(text);
            const v = text.trim() === '' ? NaN : Number(text);
            const next = numberProblem(v, min, max, integer) ? start : v;
            if (next !== value) onChange(next);
          }}
          onBlur={() => {
            setDraft(null);
            setBefore(null);
          }}
        />
      </label>
      {/* Always there, so that a screen reader hears the words when they come; below the field, over what follows, so
          that nothing beside it moves (a click on the next button landed where it had been). */}
      <span
        className="field-error number-problem"
        id={problemId}
        role="status"
        data-testid={problem ? 'number-problem' : undefined}
      >
        {problem ? `${label}: ${problem}; ${fmtParam(value, integer)} is used.` : ''}
      </span>
    </span>
  );
}
