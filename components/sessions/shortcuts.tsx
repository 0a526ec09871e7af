'use client';

import { useReplay } from './store';

export const SHORTCUTS: [string, string][] = [
  ['← / k', 'previous turn'],
  ['→ / j', 'next turn'],
  ['space', 'play / pause'],
  ['Home / End', 'first / last turn'],
  ['g', 'go to a turn number'],
  ['d', 'state / diff / raw'],
  ['?', 'show these shortcuts'],
  ['Esc', 'close'],
];

export function ShortcutsDialog() {
  const { showShortcuts, set } = useReplay();
  if (!showShortcuts) return null;
  return (
    <div className="overlay" onClick={() => set({ showShortcuts: false })}>
      <div className="dialog panel" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
        <div className="panel-head">Keyboard shortcuts</div>
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
      </div>
    </div>
  );
}
