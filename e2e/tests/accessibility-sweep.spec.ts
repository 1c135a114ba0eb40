import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll } from '../support/accessibility';
import { apiEventId, DEMO_BIB, DEMO_EVENT } from '../support/storefront';
import { DEMO_USERS, signedInPage } from './accounts.helpers';
import { photoCards, searchBib } from './cart.helpers';

/**
 * Every page each kind of user reaches, at a phone's width (360 px) and a desktop's (1280 px): no
 * serious or critical WCAG 2.2 AA problem (axe-core) and no sideways scroll on the phone. The other
 * journeys check the pages they walk through; this one makes sure no page of any role is left out.
 */
const WIDTHS = [
  { name: 'phone', width: 360, height: 780 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

const FULFILMENT = 'prints@finishline.test';
const OPERATOR = 'operator@finishline.test';

/** Opens the page and waits until the remote has drawn it: a heading shown and no spinner left. */
async function openAndSettle(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator('main h1, main h2, h1').first(), `a heading on ${path}`).toBeVisible({ timeout: 30_000 });
  // A remote's antd spinners and the shell's own placeholder spinner (plain, chrome.css).
  await expect(page.locator('.ant-spin-spinning:visible, .fl-spinner:visible')).toHaveCount(0, { timeout: 30_000 });
}

/** Checks every page at both widths, reporting all problems at once (soft assertions). */
async function sweep(page: Page, paths: string[]): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const path of paths) {
      await openAndSettle(page, path);
      await expectAccessible(page, `${path} at ${size.width} px`);
      if (size.width === 360) await expectNoSidewaysScroll(page, `${path} at 360 px`);
    }
  }
}

test.describe('accessibility of every page, by role, at 360 and 1280 px', () => {
  test('signed out: home, results, selfie search, cart, the account forms and the help pages', async ({ page }) => {
    // The results page shows the last search (kept in the browser), so search once first.
    await searchBib(page, DEMO_EVENT, DEMO_BIB);
    await expect(photoCards(page).first()).toBeVisible();
    await sweep(page, [
      '/',
      '/products',
      '/searchbyselfie',
      '/cart',
      '/sign-in',
      '/sign-up',
      '/forgot-password',
      '/events',
      '/faqs',
      '/contact-us',
      '/terms-and-conditions',
      '/privacypolicy',
    ]);
  });

  test('runner: orders, change password, list your race, the certificate builder', async ({ browser }) => {
    const page = await signedInPage(browser, DEMO_USERS.runner);
    await sweep(page, ['/order-history', '/change-password', '/list-your-race', '/eventcertificate']);
  });

  test('photographer: registration, upload, my photos, videos, my share', async ({ browser }) => {
    const page = await signedInPage(browser, DEMO_USERS.partner);
    await sweep(page, ['/registration', '/upload', '/photos', '/videos', '/show_revenue']);
  });

  test('organiser: the event list, a new event and every tab of an event', async ({ browser }) => {
    const page = await signedInPage(browser, DEMO_USERS.organiser);
    const eventId = await apiEventId(DEMO_EVENT);
    const tabs = ['revenue', 'event', 'participants', 'photographers', 'reports', 'certificate'];
    await sweep(page, [
      '/organization_dashboard',
      '/organization_dashboard?new=1',
      ...tabs.map((tab) => `/organization_dashboard?event=${eventId}&tab=${tab}`),
    ]);
  });

  test('fulfilment staff and the operator: Print Orders and the Operator Console', async ({ browser }) => {
    await sweep(await signedInPage(browser, FULFILMENT), ['/print-orders']);
    await sweep(await signedInPage(browser, OPERATOR), ['/operator']);
  });
});
