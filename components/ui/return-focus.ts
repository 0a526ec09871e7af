'use client';

import { useRef } from 'react';

/**
 * For a Radix dialog opened without a Dialog.Trigger (by a key, or a button elsewhere): focus goes back to what had it
 * when the dialog opened. Radix would focus the (absent) trigger instead.
 */
export function useReturnFocus() {
  const back = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      back.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (e: Event) => {
      e.preventDefault();
      back.current?.focus();
    },
  };
}
