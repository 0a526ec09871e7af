import { Fragment } from 'react';

const MARK = /\[REDACTED:([a-z_]+)\]/g;

/**
 * Memory text as plain text: never HTML. Redaction marks are shown as masked chips so a person sees
 * that something was there and what kind of secret it was.
 */
export function MemoryText({ text, className }: { text: string; className?: string }) {
  const parts: { text: string; mask?: string }[] = [];
  let last = 0;
  for (const m of text.matchAll(MARK)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    parts.push({ text: m[0], mask: m[1] });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return (
    <span className={className}>
      {parts.map((p, i) =>
        p.mask ? (
          <span key={i} className="redacted" title={`Redacted before storage: ${p.mask.replace(/_/g, ' ')}`}>
            ••• {p.mask.replace(/_/g, ' ')}
          </span>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </span>
  );
}
