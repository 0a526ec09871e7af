import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/**
 * The sidebar: `auto` makes it a rail below NARROW px; the others are a choice. Whether it is a rail now is
 * `<html data-rail>`: set before first paint by the inline script in app/layout.tsx, then here as the choice or the
 * window's width changes; CSS lays the shell out from it, and the shell reads it (never the stored choice) so its
 * first render matches the server's.
 */
export type SidebarChoice = 'auto' | 'open' | 'closed';

/** Below this width the sidebar is a rail unless the user opened it. */
export const NARROW = 1180;

export const SHELL_KEY = 'mnemoscope-shell';

interface ShellState {
  sidebar: SidebarChoice;
  setSidebar: (s: SidebarChoice) => void;
}

export const useShellStore = create<ShellState>()(
  persist((set) => ({ sidebar: 'auto', setSidebar: (sidebar) => set({ sidebar }) }), { name: SHELL_KEY }),
);

const narrow = () => window.matchMedia(`(max-width: ${NARROW}px)`);
const listeners = new Set<() => void>();

/** Makes the sidebar a rail, or not, as `choice` says at this width. */
export function applyRail(choice: SidebarChoice) {
  document.documentElement.toggleAttribute('data-rail', choice === 'closed' || (choice === 'auto' && narrow().matches));
  for (const on of listeners) on();
}

/** For useSyncExternalStore: told when the rail comes or goes (a choice, or the width crossing NARROW). */
export function subscribeRail(on: () => void) {
  listeners.add(on);
  const mq = narrow();
  const resized = () => applyRail(useShellStore.getState().sidebar);
  mq.addEventListener('change', resized);
  return () => {
    listeners.delete(on);
    mq.removeEventListener('change', resized);
  };
}

export const railNow = () => document.documentElement.hasAttribute('data-rail');

/** What the toggle stores: the width's own default is `auto` again, so a narrow window is a rail by itself later. */
export function toggledChoice(rail: boolean): SidebarChoice {
  const isNarrow = narrow().matches;
  return rail ? (isNarrow ? 'open' : 'auto') : isNarrow ? 'auto' : 'closed';
}
