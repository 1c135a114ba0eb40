import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe-core's WCAG 2.2 A and AA rules. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The serious and critical violations axe-core finds on the page as it is now (the page's context must come from browser.newContext()). */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
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

/** The least a control a thumb must hit measures each way on a touch screen (WCAG 2.5.5; shell/src/app/touch.css). */
export const MIN_TARGET_PX = 44;

/**
 * Every visible control a finger can hit, with the box it answers to: a tab's whole tab, a tick box's
 * label, a field's frame. Links inside a sentence are left out (WCAG's inline exception). `within`:
 * a CSS selector of the part of the page to look at (the whole page by default).
 */
export async function smallTargets(page: Page, within = 'body'): Promise<string[]> {
  return page.evaluate(
    ({ min, within }) => {
      const selector = [
        'button',
        'a[href]',
        '[role="button"]',
        '[role="tab"]',
        '[role="menuitem"]',
        'label.ant-checkbox-wrapper',
        'label.ant-radio-wrapper',
        '.ant-segmented-item',
        'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"])',
        'textarea',
        'select',
      ].join(',');
      const frameOf = (element: Element): Element =>
        element.closest(
          '.ant-tabs-tab, label.ant-checkbox-wrapper, label.ant-radio-wrapper, .ant-segmented-item, .ant-select, .ant-input-affix-wrapper, .ant-input-number',
        ) ?? element;
      const offenders: string[] = [];
      for (const element of Array.from(document.querySelector(within)?.querySelectorAll(selector) ?? [])) {
        if (!(element as HTMLElement).checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        if (element.closest('[aria-hidden="true"], [inert]')) continue;
        if (element.matches('a[href]') && element.closest('p')) continue; // a link inside a sentence
        const box = frameOf(element).getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (box.width < min - 0.5 || box.height < min - 0.5) {
          const name = (element.getAttribute('aria-label') || (element as HTMLElement).innerText || element.getAttribute('placeholder') || element.tagName)
            .trim()
            .slice(0, 40);
          offenders.push(`${element.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`);
        }
      }
      return offenders;
    },
    { min: MIN_TARGET_PX, within },
  );
}
