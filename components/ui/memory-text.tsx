import { Fragment } from 'react';

/** A redaction mark, or a bidirectional control (embedding, override, isolate: U+202A–E, U+2066–9). */
const MARK = /\[REDACTED:([a-z_]+)\]|([\u202A-\u202E\u2066-\u2069])/g;

const BIDI: Record<string, [string, string]> = {
  '\u202A': ['LRE', 'left-to-right embedding'],
  '\u202B': ['RLE', 'right-to-left embedding'],
  '\u202C': ['PDF', 'pop directional formatting'],
  '\u202D': ['LRO', 'left-to-right override'],
  '\u202E': ['RLO', 'right-to-left override'],
  '\u2066': ['LRI', 'left-to-right isolate'],
  '\u2067': ['RLI', 'right-to-left isolate'],
  '\u2068': ['FSI', 'first strong isolate'],
  '\u2069': ['PDI', 'pop directional isolate'],
};

/**
 * Memory text as plain text: never HTML. Redaction marks are shown as masked chips so a person sees
 * that something was there and what kind of secret it was. A bidirectional control is shown by its name, not
 * applied: an override would draw the rest of the text backwards ("…:niaga nwohs") and could make it read as
 * something it is not.
 */
export function MemoryText({ text, className }: { text: string; className?: string }) {
  const parts: { text: string; mask?: string; control?: string }[] = [];
  let last = 0;
  for (const m of text.matchAll(MARK)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    parts.push({ text: m[0], mask: m[1], control: m[2] });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return (
    <span className={className}>
      {parts.map((p, i) => {
        if (p.mask)
          return (
            <span key={i} className="redacted" title={`Redacted before storage: ${p.mask.replace(/_/g, ' ')}`}>
              ••• {p.mask.replace(/_/g, ' ')}
            </span>
          );
        if (p.control) {
          const [abbr, name] = BIDI[p.control]!;
          const code = p.control.codePointAt(0)!.toString(16).toUpperCase();
          return (
            <span key={i} className="control-char" title={`A ${name} character (U+${code}), shown, not applied`}>
              {abbr}
            </span>
          );
        }
        return <Fragment key={i}>{p.text}</Fragment>;
      })}
    </span>
  );
}
