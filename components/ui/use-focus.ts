'use client';

import { useSearchParams } from 'next/navigation';
import { useEffect } from 'react';

/**
 * The item a link points at (`?focus=<id>`, as recall's hits do): once the rows are on the page,
 * the row marked `data-focus-id=<id>` is scrolled into view. Returns the id so the row can be marked.
 */
export function useFocus(ready: boolean): string | null {
  const focus = useSearchParams().get('focus');
  useEffect(() => {
    if (!ready || !focus) return;
    document.querySelector(`[data-focus-id="${CSS.escape(focus)}"]`)?.scrollIntoView({ block: 'center' });
  }, [ready, focus]);
  return focus;
}

/**
 * The row the keys act on stays in sight: the row marked `data-<attribute>=<id>` is scrolled into its list (which
 * scrolls on its own, and j/k may move past its edge) whenever the id changes.
 */
export function useKeepInSight(attribute: string, id: string | null | undefined): void {
  useEffect(() => {
    if (id) document.querySelector(`[data-${attribute}="${CSS.escape(id)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [attribute, id]);
}
