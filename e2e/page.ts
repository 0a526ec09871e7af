import type { Page } from 'playwright-core';

/** Navigates and waits until the page is hydrated, so clicks and keys reach React, not the bare HTML. */
export async function open(page: Page, url: string) {
  const res = await page.goto(url);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  // A replay page shows its turn at once (rendered by the server) and the rest once the session's digest has come.
  const replay = page.locator('.replay[data-live]');
  if (await replay.count()) await page.locator('.replay[data-live][data-complete]').waitFor({ state: 'attached' });
  return res;
}

/** The replay page: after hydration its keyboard listener is attached (key presses before that would be lost). */
export const replayKeysReady = (page: Page) => page.locator('html[data-replay-keys]').waitFor({ state: 'attached' });
export const turnReadout = (page: Page) => page.getByTestId('turn-readout').textContent();
/** The terms of a CCS field shown with a mark (added, removed, changed). */
export const markedTerms = (page: Page, field: string, mark: string) =>
  page
    .locator(`[data-testid=ccs-state] [data-field=${field}] [data-mark=${mark}]`)
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-term')));
