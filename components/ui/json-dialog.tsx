'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { CodeBlock } from './code-block';

/**
 * A JSON value whole, indented and copyable, in a dialog opened by a small "Whole" button: for a table that shows one
 * clipped line of it (a malformed event's payload, an audit entry's detail). Rendered as text, never as HTML.
 */
export function JsonDialog({
  value,
  title,
  label,
  what,
  testId,
}: {
  value: unknown;
  title: string;
  /** The code block's caption: where the value comes from. */
  label: string;
  /** What the button shows, for its accessible name: "Show the whole <what>". */
  what: string;
  testId?: string;
}) {
  return (
    <Dialog.Root>
      <Dialog.Trigger className="btn btn-small nowrap" style={{ marginTop: 4 }} aria-label={`Show the whole ${what}`}>
        Whole
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay">
          <Dialog.Content className="dialog panel json-dialog" data-testid={testId} aria-describedby={undefined}>
            <Dialog.Title className="panel-head">{title}</Dialog.Title>
            <div className="panel-body form-col">
              <CodeBlock label={label} code={JSON.stringify(value, null, 2)} />
              <div className="toolbar" style={{ justifyContent: 'flex-end' }}>
                <Dialog.Close className="btn">Close</Dialog.Close>
              </div>
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
