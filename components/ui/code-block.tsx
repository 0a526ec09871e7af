'use client';

import { useState } from 'react';

/** A copyable block of code; the text is rendered as text, never as HTML. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="code-block">
      <div className="code-block-head">
        <span className="muted mono">{label}</span>
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            void navigator.clipboard?.writeText(code).then(
              () => (setCopied(true), setTimeout(() => setCopied(false), 1500)),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {/* Focusable, so a keyboard scrolls it sideways. */}
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
