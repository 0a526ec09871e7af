import type { Page } from 'playwright-core';

/** Navigates and waits until the page is hydrated, so clicks and keys reach React, not the bare HTML. */
export async function open(page: Page, url: string) {
  const res = await page.goto(url);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  return res;
}
