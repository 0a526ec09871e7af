'use client';

/**
 * After an action that disables or removes the control with the focus (a form's submit button while it is sent, a
 * row's Revoke once the row is revoked), the focus falls to the top of the page and the next Tab starts over. Once the
 * page has drawn the change, this puts it on `to()` instead, unless the person has moved it meanwhile (or `always`:
 * where what comes next is plain, as copying a key just made).
 */
export function refocus(to: () => HTMLElement | null | undefined, { always = false } = {}): void {
  // Watched for half a second: the page may draw the change a few frames later (a refetched list replacing the row
  // the focus was put on), and the focus is put back whenever it has fallen meanwhile.
  // With `always`, the focus is put there once it is drawn (the first frames may come before it is).
  let frames = 30;
  const step = (force: boolean) =>
    requestAnimationFrame(() => {
      const at = document.activeElement;
      const target = to();
      if (force && !target) {
        if (--frames > 0) step(true);
        return;
      }
      if (force || !at || at === document.body || (at as HTMLButtonElement).disabled) target?.focus();
      if (--frames > 0) step(false);
    });
  step(always);
}

/**
 * Where the focus goes when `el` goes: the control matching `selector` (within `within`) that will then be at its
 * place, the one before it when it was the last, or `otherwise`. Read when called, after the change.
 */
export function sameSpot(
  el: HTMLElement,
  selector: string,
  within: ParentNode,
  otherwise: () => HTMLElement | null | undefined,
): () => HTMLElement | null | undefined {
  const i = [...within.querySelectorAll<HTMLElement>(selector)].indexOf(el);
  return () => {
    const now = [...within.querySelectorAll<HTMLElement>(selector)];
    return now[i] ?? now[i - 1] ?? otherwise();
  };
}

/**
 * The focus on the page's main region if it is on nothing (the body: the control that had it went with the old page
 * of a navigation), so that the next Tab starts in the page instead of at the top of the document.
 */
export function focusMainIfLost(): void {
  const at = document.activeElement;
  if (!at || at === document.body) document.getElementById('main')?.focus({ preventScroll: true });
}
