import type { KeyboardEvent } from 'react';

/**
 * Arrow keys in a list whose rows are picked by a button each (`selector`): ↓ / ↑ go to the next / previous row's
 * button and pick it, as a click would, Home / End to the first / last. For the list's container's `onKeyDown`; keys
 * pressed anywhere but on a row's button (a filter, a link inside the row) are left alone.
 */
export function pickByArrows(e: KeyboardEvent<HTMLElement>, selector = '.row-pick'): void {
  const at = e.target as HTMLElement;
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || !at.matches(selector)) return;
  const all = [...e.currentTarget.querySelectorAll<HTMLElement>(selector)];
  const i = all.indexOf(at);
  const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: all.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const next = all[Math.max(0, Math.min(all.length - 1, to))];
  if (next && next !== at) {
    next.focus();
    next.click();
  }
}
