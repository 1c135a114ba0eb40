import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe-core's WCAG 2.2 A and AA rules. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The serious and critical violations axe-core finds on the page as it is now (the page's context must come from browser.newContext()). */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(' | ')}`);
}

/** A soft check, so one journey reports every page's problems at once. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  expect.soft(await accessibilityProblems(page), `serious or critical accessibility problems on ${where}`).toEqual([]);
}

/** At a phone's width the page itself never scrolls sideways (wide tables scroll inside themselves). */
export async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect.soft(widths.scroll - widths.client, `${where} scrolls sideways by this many px`).toBeLessThanOrEqual(0);
}
