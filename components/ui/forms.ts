import type { KeyboardEvent } from 'react';

/** A form's keyboard shortcut: Ctrl/Cmd-Enter anywhere in it submits it (as its submit button would). */
export function submitOnCtrlEnter(e: KeyboardEvent<HTMLFormElement>) {
  if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
  e.preventDefault();
  e.currentTarget.requestSubmit();
}
