import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core (the engine of Lighthouse's and Deque's checks), injected into each page as it is. */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical violations of the page as it is now: rule, how many elements, the first two. */
export async function axeViolations(page: Page): Promise<string[]> {
  // After a change of the address (a row picked), Next.js streams the page's metadata again, and its <title> may be
  // missing for a moment: read once it is back (a page that never has one still fails, with document-title).
  await page.waitForFunction(() => document.title !== '', null, { timeout: 5000 }).catch(() => {});
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    type Result = { id: string; impact: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: Result[] }> } }).axe;
    return (await axe.run()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.nodes.length}): ${v.nodes
            .slice(0, 2)
            .map((n) => n.target.join(' '))
            .join(' | ')}`,
      );
  });
}
