import { Fragment } from 'react';
import { BIDI_CONTROL, BIDI_NAMES } from '@/lib/bidi';

/** A redaction mark, or a bidirectional control (lib/bidi.ts). */
const MARK = new RegExp(`\\[REDACTED:([a-z_]+)\\]|(${BIDI_CONTROL.source})`, 'g');

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
          const [abbr, name] = BIDI_NAMES[p.control]!;
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
