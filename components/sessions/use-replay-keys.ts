import { useEffect } from 'react';
import { useReplay } from './store';

const TABS = ['state', 'diff', 'raw'] as const;

/** The player's keyboard: ←/→ and j/k step, space plays, Home/End, g goes to a turn, d cycles views, ? lists them. */
export function useReplayKeys(count: number, openGoto: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (
        el &&
        (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || el.isContentEditable)
      )
        return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const s = useReplay.getState();
      // The shortcuts dialog is modal: its own keys (Tab, Escape) are Radix's; the player behind it does not move.
      if (s.showShortcuts) return;
      const go = (i: number) => s.set({ index: Math.max(0, Math.min(count - 1, i)), playing: false });
      switch (e.key) {
        case 'ArrowLeft':
        case 'k':
          go(s.index - 1);
          break;
        case 'ArrowRight':
        case 'j':
          go(s.index + 1);
          break;
        case 'Home':
          go(0);
          break;
        case 'End':
          go(count - 1);
          break;
        case ' ':
          s.set({ playing: !s.playing && s.index < count - 1 });
          break;
        case 'g':
          openGoto();
          break;
        case 'd':
          s.set({ tab: TABS[(TABS.indexOf(s.tab) + 1) % TABS.length] });
          break;
        case '?':
          s.set({ showShortcuts: !s.showShortcuts });
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    // Says the keyboard is live (after hydration): end-to-end tests wait for it before pressing keys.
    document.documentElement.dataset.replayKeys = '1';
    return () => {
      window.removeEventListener('keydown', onKey);
      delete document.documentElement.dataset.replayKeys;
    };
  }, [count, openGoto]);
}
