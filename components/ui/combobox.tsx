'use client';

import { useId, useState, type CSSProperties, type ReactNode } from 'react';

/**
 * A combobox with a list (the ARIA pattern the Ctrl-K palette follows: the input keeps focus, ↑/↓ move the active
 * option, Enter picks it, Escape closes the list and then clears the text). The caller owns the text and finds the
 * options for it; this owns the list's opening and its active option.
 */
export function Combobox<T>({
  id,
  label,
  listLabel,
  text,
  onText,
  options,
  optionKey,
  renderOption,
  onPick,
  onBlur,
  placeholder,
  inputStyle,
  inputClassName = 'input',
}: {
  /** The input's id, for a visible `<label htmlFor>`; without one, `label` names the input. */
  id?: string;
  label?: string;
  listLabel: string;
  text: string;
  onText: (text: string) => void;
  options: readonly T[];
  optionKey: (option: T) => string;
  renderOption: (option: T) => ReactNode;
  onPick: (option: T) => void;
  /** After the list has closed, when focus leaves the input. */
  onBlur?: () => void;
  placeholder?: string;
  inputStyle?: CSSProperties;
  inputClassName?: string;
}) {
  const base = useId();
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const shown = open && options.length > 0;
  const at = Math.min(active, Math.max(0, options.length - 1));
  const choose = (o: T | undefined) => {
    if (o === undefined) return;
    onPick(o);
    setOpen(false);
  };
  return (
    <div className="combo">
      <input
        id={id}
        className={inputClassName}
        style={inputStyle}
        role="combobox"
        aria-label={label}
        aria-expanded={shown}
        aria-controls={`${base}-list`}
        aria-autocomplete="list"
        aria-activedescendant={shown ? `${base}-opt-${at}` : undefined}
        placeholder={placeholder}
        autoComplete="off"
        value={text}
        onChange={(e) => {
          onText(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onBlur={() => {
          setOpen(false);
          onBlur?.();
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            setOpen(true);
            setActive(Math.min(at + 1, options.length - 1));
          } else if (e.key === 'ArrowUp') setActive(Math.max(at - 1, 0));
          else if (e.key === 'Enter' && shown) choose(options[at]);
          else if (e.key === 'Escape' && (shown || text)) {
            if (shown) setOpen(false);
            else onText('');
          } else return;
          e.preventDefault();
        }}
      />
      <ul id={`${base}-list`} role="listbox" aria-label={listLabel} className="combo-list" hidden={!shown}>
        {options.map((o, i) => (
          <li
            key={optionKey(o)}
            id={`${base}-opt-${i}`}
            role="option"
            aria-selected={i === at}
            // Keeps the focus in the input, as the pattern asks.
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(o)}
          >
            {renderOption(o)}
          </li>
        ))}
      </ul>
    </div>
  );
}
