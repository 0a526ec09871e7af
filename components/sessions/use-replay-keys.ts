import { useEffect, useEffectEvent } from 'react';
import { useReplay } from './store';

const TABS = ['state', 'diff', 'raw'] as const;

/**
 * The player's keyboard: ←/→ and j/k step, space plays, Home/End, g goes to a turn, d cycles views, n annotates, ?
 * lists them.
 */
export function useReplayKeys(count: number, openGoto: () => void, openAnnotate: () => void) {
  // Reads the latest count and callbacks: the listener is bound once, not again on every step (openAnnotate changes
  // with the turn), which would also take the attribute below off the root element and put it back each time.
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    // A key a control below took for itself (the graph state's tree: arrows, Home/End, Enter) is not the player's.
    if (e.defaultPrevented) return;
    const el = e.target as HTMLElement | null;
    // Keys typed into a field are the field's; a checkbox (Follow live) or a button keeps the player's keys.
    const typing =
      el instanceof HTMLInputElement ? !['checkbox', 'radio', 'button', 'submit'].includes(el.type) : false;
    if (el && (typing || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || el.isContentEditable)) return;
    // Space and Enter on a control are the control's (a checkbox ticks, a chip or row opens).
    if ((e.key === ' ' || e.key === 'Enter') && el?.closest('button, input, a, select, [role=button], tr[tabindex]'))
      return;
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    const s = useReplay.getState();
    // Behind a dialog (the shortcuts, the Ctrl-K palette) the player does not move; ? still closes the shortcuts.
    if (document.querySelector('[role=dialog]')) {
      if (e.key === '?' && s.showShortcuts) s.set({ showShortcuts: false });
      return;
    }
    // Before the session's turns are known (the digest), the player stays at the turn the page opened at.
    const go = (i: number) => {
      if (count) s.set({ index: Math.max(0, Math.min(count - 1, i)), playing: false });
    };
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
      case 'n':
        s.set({ playing: false });
        openAnnotate();
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
  });
  const live = count > 0;
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey(e);
    window.addEventListener('keydown', listener);
    // Says the keyboard is live (after hydration, with the session's turns known): end-to-end tests wait for it
    // before pressing keys. Before the turns are known a key would act on an empty session.
    if (live) document.documentElement.dataset.replayKeys = '1';
    return () => {
      window.removeEventListener('keydown', listener);
      delete document.documentElement.dataset.replayKeys;
    };
  }, [live]);
}
