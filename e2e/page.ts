import type { BrowserContext, Page, Request } from 'playwright-core';

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

/**
 * Holds back the requests `url` matches (those `when` picks; the others go on) until `release()`, so that a test can
 * look at a page while an answer is on its way. Release it in `finally`: a failure must not leave the next test's
 * requests held. `held()` counts the requests held so far.
 */
export async function holdRequests(
  target: Page | BrowserContext,
  url: string | RegExp | ((url: URL) => boolean),
  when: (request: Request) => boolean = () => true,
) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let held = 0;
  await target.route(url, async (route) => {
    if (when(route.request())) {
      held++;
      await released;
    }
    // The page may have gone meanwhile (a test that failed, a context closed).
    await route.continue().catch(() => {});
  });
  return { release, held: () => held, stop: () => target.unroute(url) };
}
