'use client';

import { useEffect } from 'react';

/**
 * Keeps a page's own parameters in its address (a reload or a shared link shows the same view): `values` set or, when
 * null, removed; the address's other parameters left as they are. Written again when the address changes under it (a
 * link to the page without them) while the view still holds them; `delayMs` after the last change for a control
 * that changes many times a second (a slider held down would rewrite history on every step).
 */
export function useAddressSync(values: Record<string, string | null>, address: string, delayMs = 0) {
  const key = JSON.stringify(values);
  useEffect(() => {
    const page = window.location.pathname;
    const write = () => {
      // Gone to another page meanwhile (a link followed within the delay): its address is not this page's to write.
      if (window.location.pathname !== page) return;
      const next = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(JSON.parse(key) as Record<string, string | null>)) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      const wanted = next.size ? `?${next}` : '';
      if (wanted !== window.location.search) window.history.replaceState(null, '', page + wanted);
    };
    // At once by default: a write left pending would land on a navigation begun meanwhile, which Next's router
    // then abandons for it.
    if (!delayMs) return write();
    const t = setTimeout(write, delayMs);
    return () => clearTimeout(t);
  }, [key, address, delayMs]);
}
