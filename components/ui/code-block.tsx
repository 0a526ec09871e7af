'use client';

import { useState } from 'react';

/** A copyable block of code; the text is rendered as text, never as HTML. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  // Said on the button: copied, or that the browser refused (no clipboard permission: select the text instead).
  const [copied, setCopied] = useState<'Copied' | 'Select to copy' | null>(null);
  const say = (what: 'Copied' | 'Select to copy') => (setCopied(what), setTimeout(() => setCopied(null), 2000));
  return (
    <div className="code-block">
      <div className="code-block-head">
        <span className="muted mono">{label}</span>
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            navigator.clipboard
              ? void navigator.clipboard.writeText(code).then(
                  () => say('Copied'),
                  () => say('Select to copy'),
                )
              : say('Select to copy')
          }
        >
          {copied ?? 'Copy'}
        </button>
        <span className="sr-only" aria-live="polite">
          {copied === 'Copied' ? `${label} copied` : copied ? `Could not copy ${label}: select the text` : ''}
        </span>
      </div>
      {/* Focusable, so a keyboard scrolls it sideways. */}
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
