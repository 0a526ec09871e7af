'use client';

import { useRef, type RefObject } from 'react';

/**
 * For a Radix dialog opened without a Dialog.Trigger (by a key, or a button elsewhere): focus goes back to what had it
 * when the dialog opened. Radix would focus the (absent) trigger instead.
 */
export function useReturnFocus(leavingRef?: RefObject<boolean>) {
  const back = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      back.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (e: Event) => {
      e.preventDefault();
      // Closed to go to another page (`leavingRef` set): the page it was on is going, and the focus with it (the app
      // shell puts it in the new page).
      if (leavingRef?.current) leavingRef.current = false;
      else back.current?.focus();
    },
  };
}
