/**
 * The address's fragment (`#…`, the Recall page's search) kept away from Next.js while it starts. Next.js 16 takes the
 * address a page is first loaded at, fragment and all, as its route's address (vercel/next.js#96714; the fix, #96737,
 * is not released): every later link to that route then lands on the old fragment, or on both joined. Loaded at
 * `/recall#q=keepalive`, the sidebar's Recall link showed "keepalive" again, and the palette's search for "bad gateway"
 * became `#q=keepalive#q=bad+gateway`. The layout's inline script takes the fragment off the address before Next.js
 * reads it; `restoreHeldFragment` puts it back once the page is hydrated, as a change the page hears.
 */
export const HOLD_FRAGMENT =
  'if(location.hash){window.__heldFragment=location.hash;' +
  "history.replaceState(history.state,'',location.pathname+location.search)}";

/** Puts back the fragment the inline script took (a `hashchange` tells the page), unless one was set meanwhile. */
export function restoreHeldFragment() {
  const w = window as { __heldFragment?: string };
  const held = w.__heldFragment;
  delete w.__heldFragment;
  if (!held || window.location.hash) return;
  const oldURL = window.location.href;
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}${held}`);
  window.dispatchEvent(new HashChangeEvent('hashchange', { oldURL, newURL: window.location.href }));
  // What the browser did for a fragment naming an element when it loaded it.
  let id = held.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // A malformed escape ("100%") names no element.
  }
  document.getElementById(id)?.scrollIntoView();
}
