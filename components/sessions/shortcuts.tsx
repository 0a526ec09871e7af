'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { useReturnFocus } from '@/components/ui/return-focus';
import { useReplay } from './store';

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

/** The `?` dialog (Radix Dialog: focus moves in, stays in, and goes back where it was on close). */
export function ShortcutsDialog() {
  const { showShortcuts, set } = useReplay();
  const focus = useReturnFocus();
  return (
    <Dialog.Root open={showShortcuts} onOpenChange={(open) => set({ showShortcuts: open })}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay">
          <Dialog.Content className="dialog panel" aria-describedby={undefined} {...focus}>
            <Dialog.Title className="panel-head">Keyboard shortcuts</Dialog.Title>
            <table className="data compact">
              <tbody>
                {SHORTCUTS.map(([k, v]) => (
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
