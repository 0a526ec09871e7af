'use client';

/** A labelled number input for a policy parameter; an emptied field keeps the last value. */
export function NumberField({
  label,
  value,
  onChange,
  step = 1,
  min = 0,
  max,
}: {
  label: string;
  value: number;
  onChange: (v: number) => void;
  step?: number;
  min?: number;
  max?: number;
}) {
  return (
    <label className="toolbar" style={{ gap: 6 }}>
      <span className="muted">{label}</span>
      <input
        className="input"
        style={{ width: 80 }}
        type="number"
        step={step}
        min={min}
        max={max}
        aria-label={label}
        value={value}
        onChange={(e) => e.target.value !== '' && onChange(Number(e.target.value))}
      />
    </label>
  );
}
