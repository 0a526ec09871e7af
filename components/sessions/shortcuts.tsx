'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { useReturnFocus } from '@/components/ui/return-focus';

export const SHORTCUTS: [string, string][] = [
  ['← / k', 'previous turn'],
  ['→ / j', 'next turn'],
  ['space', 'play / pause'],
  ['Home / End', 'first / last turn'],
  ['g', 'go to a turn number'],
  ['d', 'state / diff / raw'],
  ['↑ ↓', 'on a CCS term with a turn number: the previous / next one (the CCS is one Tab stop)'],
  ['↑ ↓ → ← Enter', 'in a graph state’s tree: move, open and close, show a long text whole'],
  ['n', 'annotate the turn (or the focused term or artifact)'],
  ['?', 'show these shortcuts'],
  ['Esc', 'close'],
];

/** Compare's keys: the player's steps over run A (B follows by the alignment). */
export const COMPARE_SHORTCUTS: [string, string][] = [
  ['← / k', 'previous turn of run A'],
  ['→ / j', 'next turn of run A'],
  ['Home / End', 'first / last turn'],
  ['?', 'show these shortcuts'],
  ['Esc', 'close'],
];

/** A page's `?` dialog (Radix Dialog: focus moves in, stays in, and goes back where it was on close). */
export function ShortcutsDialog({
  shortcuts,
  open,
  onOpenChange,
}: {
  shortcuts: [string, string][];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const focus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay">
          <Dialog.Content className="dialog panel" aria-describedby={undefined} {...focus}>
            <Dialog.Title className="panel-head">Keyboard shortcuts</Dialog.Title>
            <table className="data compact">
              <tbody>
                {shortcuts.map(([k, v]) => (
                  <tr key={k}>
                    <td className="nowrap">
                      <kbd>{k}</kbd>
                    </td>
                    <td>{v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="panel-body" style={{ textAlign: 'right' }}>
              <Dialog.Close className="btn">Close</Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
