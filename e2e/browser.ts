import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with no network but loopback. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    ],
  });
}

/** Chromium and one page at the size every UI test uses (1440×1000), with context options added. */
export async function launchPage(options: BrowserContextOptions = {}): Promise<{ browser: Browser; page: Page }> {
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, ...options });
  // An element that never comes fails where it was awaited: with Playwright's 30 s, a poll's read of it (awaited
  // twice, the second time as the poll's last try) outlasted the test's 60 s and the failure named no line.
  context.setDefaultTimeout(20_000);
  return { browser, page: await context.newPage() };
}

/**
 * The inbox sends a reviewer's decision at once instead of holding it for the undo window (5 s by default), for
 * tests of what a decision does; the undo window has its own test (curation.e2e.ts).
 */
export const decideAtOnce = (page: Page) =>
  page.addInitScript(() =>
    localStorage.setItem('mnemoscope-review', JSON.stringify({ state: { undoSeconds: 0 }, version: 0 })),
  );
