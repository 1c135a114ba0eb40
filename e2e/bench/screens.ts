/**
 * Screenshots of the runner's pages at a phone's width (360 by 740, touch) and a desktop's (1280 by
 * 800), against a running system with the demo data (`pnpm start`):
 *
 *   pnpm screens                  (SCREENS_URL=http://localhost:3000, SCREENS_DIR=docs/screens,
 *                                  SCREENS_ONLY=<page>,<page> to write only those)
 *
 * The pages a runner walks: home, home with the event chosen, photos of a BIB, the enlarged photo,
 * cart (with the sponsor offer taken), checkout, the unlabeled photos (one in the cart), the pre-order page, the selfie
 * search and the order history of the demo runner with one order's details; then the organiser's Event
 * Dashboard (events, an event's revenue, participants, certificate template and a new series), the fulfilment staff's
 * Print Orders, List your race, the certificate builder and the operator's console. Each is written as
 * `<page>-<width>.png`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';

const BASE_URL = process.env.SCREENS_URL ?? 'http://localhost:3000';
const OUT_DIR = path.resolve(process.env.SCREENS_DIR ?? fileURLToPath(new URL('../../docs/screens', import.meta.url)));
const ONLY = process.env.SCREENS_ONLY?.split(',').map((name) => name.trim());
const EVENT = 'Mumbai Coastal Marathon 2026';
const BIB = 'TT20609';
/** The demo runner's BIB in the grand slam (Mumbai, Ahmedabad and Jaipur): the certificate builder's example. */
const SLAM_BIB = 'TT20608';
const RUNNER = { email: 'runner@finishline.test', password: 'Finish@2026' };

const SIZES = [
  { name: '360', viewport: { width: 360, height: 740 }, touch: true },
  { name: '1280', viewport: { width: 1280, height: 800 }, touch: false },
] as const;

async function shoot(page: Page, name: string, width: string): Promise<void> {
  // SCREENS_ONLY=organiser-series,home writes only those (the walk still goes through every page).
  if (ONLY && !ONLY.includes(name)) return;
  // Images still loading would show as grey boxes: wait for the network to settle first.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(400);
  const file = path.join(OUT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: false });
  console.log(`  ${path.relative(process.cwd(), file)}`);
}

/** A returning runner: cookies accepted and the pre-order pop-up seen (the first visit is shot apart). */
const returningVisitor = {
  cookies: [],
  origins: [
    {
      origin: new URL(BASE_URL).origin,
      localStorage: [
        { name: 'Cookies', value: 'true' },
        { name: 'preOrderPopupShown', value: 'true' },
      ],
    },
  ],
};

async function chooseEvent(page: Page): Promise<void> {
  await page.getByPlaceholder('Search your event').fill(EVENT);
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${EVENT}$`) })
    .click();
  await page.getByTestId('hero-panel').waitFor();
}

/** Signs a demo account in through the form (the captcha's proof of work runs in the page). */
async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${BASE_URL}/sign-in`, { waitUntil: 'networkidle' });
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(RUNNER.password);
  await form.getByTestId('captcha').locator('.altcha-checkbox').click();
  const submit = form.getByRole('button', { name: 'Sign In', exact: true });
  await page.waitForFunction((button) => button !== null && !(button as HTMLButtonElement).disabled, await submit.elementHandle(), { timeout: 30_000 });
  await submit.click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}

/** The organiser's Event Dashboard (the list, an event's revenue and participants) and the print queue of fulfilment staff. */
async function staffPages(browser: Browser, size: (typeof SIZES)[number]): Promise<void> {
  const device = { viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch, deviceScaleFactor: 1 };
  const organiser = await browser.newContext({ ...device, storageState: returningVisitor });
  const page = await organiser.newPage();
  await signIn(page, 'organiser@finishline.test');
  await page.goto(`${BASE_URL}/organization_dashboard`, { waitUntil: 'networkidle' });
  await page.getByRole('region', { name: 'Your events' }).getByRole('button', { name: EVENT }).click();
  await page.getByRole('region', { name: 'Revenue', exact: true }).waitFor();
  await page.goto(`${BASE_URL}/organization_dashboard`, { waitUntil: 'networkidle' });
  await shoot(page, 'organiser-events', size.name);
  await page.getByRole('region', { name: 'Your events' }).getByRole('button', { name: EVENT }).click();
  await page.getByRole('region', { name: 'Revenue', exact: true }).waitFor();
  await shoot(page, 'organiser-revenue', size.name);
  await page.getByRole('tab', { name: 'Participants' }).click();
  await page.getByRole('region', { name: 'Participants' }).waitFor();
  await shoot(page, 'organiser-participants', size.name);
  // The template editor: standard layout or a background with the fields placed on a canvas.
  await page.getByRole('tab', { name: 'Certificate' }).click();
  await page.getByRole('region', { name: 'Certificate' }).locator('canvas').first().waitFor();
  await shoot(page, 'organiser-certificate', size.name);
  // A new series of two races: its colour, background and the fields placed for both races.
  await page.goto(`${BASE_URL}/organization_dashboard`, { waitUntil: 'networkidle' });
  const series = page.getByRole('region', { name: 'Your series' });
  await series.getByRole('button', { name: 'New series' }).click();
  await series.getByLabel('Series title').fill('Coast and Pink City Double');
  for (const race of [EVENT, 'Jaipur Pink City 10K 2026']) {
    await series.getByRole('combobox', { name: "Races, in the certificate's order" }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${race}$`) })
      .click();
  }
  await page.keyboard.press('Escape');
  await series.locator('canvas').first().waitFor();
  await series.getByRole('heading', { name: 'Fields' }).scrollIntoViewIfNeeded();
  await shoot(page, 'organiser-series', size.name);
  await organiser.close();

  const staff = await browser.newContext({ ...device, storageState: returningVisitor });
  const staffPage = await staff.newPage();
  await signIn(staffPage, 'prints@finishline.test');
  await staffPage.goto(`${BASE_URL}/print-orders`, { waitUntil: 'networkidle' });
  await staffPage.getByTestId('print-orders').waitFor();
  await shoot(staffPage, 'print-orders', size.name);
  await staff.close();

  const operator = await browser.newContext({ ...device, storageState: returningVisitor });
  const operatorPage = await operator.newPage();
  await signIn(operatorPage, 'operator@finishline.test');
  await operatorPage.goto(`${BASE_URL}/operator`, { waitUntil: 'networkidle' });
  await operatorPage.getByRole('region', { name: 'Every event' }).locator('.ant-table-row, li').first().waitFor();
  await shoot(operatorPage, 'operator-console', size.name);
  await operator.close();
}

async function runnerPages(browser: Browser, size: (typeof SIZES)[number]): Promise<void> {
  const device = { viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch, deviceScaleFactor: 1 };
  const firstVisit = await browser.newContext(device);
  const firstPage = await firstVisit.newPage();
  await firstPage.goto(BASE_URL, { waitUntil: 'networkidle' });
  await firstPage.waitForTimeout(1500);
  await shoot(firstPage, 'home-first-visit', size.name);
  await firstVisit.close();

  const context = await browser.newContext({ ...device, storageState: returningVisitor });
  const page = await context.newPage();
  await page.goto(BASE_URL, { waitUntil: 'networkidle' });
  await shoot(page, 'home', size.name);

  await chooseEvent(page);
  await shoot(page, 'home-event', size.name);

  await page.getByPlaceholder(/^Enter your BIB number/).fill(BIB);
  await page.getByRole('button', { name: 'Find My Photos' }).click();
  await page.waitForURL('**/products');
  await page.getByTestId('photo-card').first().waitFor();
  await shoot(page, 'photos', size.name);

  await page.getByTestId('photo-card').first().locator('img').first().click();
  await shoot(page, 'photo-viewer', size.name);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Add all to cart' }).click();
  await page.getByTestId('cart-bottom-bar').getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/cart');
  const offer = page.getByRole('dialog').filter({ hasText: 'Please Check to Avail this offer' });
  await offer.waitFor();
  await shoot(page, 'cart-offer', size.name);
  await offer.getByText('Please Check to Avail this offer').click();
  await page.getByTestId('bill-discount').waitFor();
  await offer.waitFor({ state: 'hidden' });
  await shoot(page, 'cart', size.name);

  await page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/checkoutPage-authentication');
  await page.getByRole('tab', { name: 'Guest Checkout' }).click();
  await shoot(page, 'checkout', size.name);

  await page.goto(`${BASE_URL}/unlabeled-events`, { waitUntil: 'networkidle' });
  // With one photo in the unlabeled cart, so the bottom bar shows.
  await page.getByTestId('unlabeled-photo').first().getByRole('button', { name: 'Add To Cart' }).click();
  await page.getByTestId('cart-bottom-bar').getByTestId('bottom-bar-total').waitFor();
  await shoot(page, 'unlabeled', size.name);
  await page.goto(`${BASE_URL}/preorder`, { waitUntil: 'networkidle' });
  await shoot(page, 'preorder', size.name);

  await page.goto(BASE_URL, { waitUntil: 'networkidle' });
  await chooseEvent(page);
  const selfieTab = page.getByRole('tab', { name: /selfie/i });
  if (await selfieTab.isVisible().catch(() => false)) {
    await selfieTab.click();
    await shoot(page, 'selfie', size.name);
  }

  // The demo runner signs in to see their orders.
  await signIn(page, RUNNER.email);
  await page.goto(`${BASE_URL}/order-history`, { waitUntil: 'networkidle' });
  await shoot(page, 'orders', size.name);
  // A table on a desktop, one card per order on a phone: the first paid order's button either way.
  await page.getByRole('button', { name: 'Paid', exact: true }).first().click();
  await page.getByTestId('order-view').waitFor();
  await shoot(page, 'order-details', size.name);
  // Any signed-in account may ask to organise races.
  await page.goto(`${BASE_URL}/list-your-race`, { waitUntil: 'networkidle' });
  await page.getByRole('form', { name: 'List your race' }).waitFor();
  await shoot(page, 'list-your-race', size.name);
  // The certificate builder from the demo runner's grand slam BIB (photos they have not bought show watermarked).
  await page.goto(BASE_URL, { waitUntil: 'networkidle' });
  await chooseEvent(page);
  await page.getByPlaceholder(/^Enter your BIB number/).fill(SLAM_BIB);
  await page.getByRole('button', { name: 'Find My Photos' }).click();
  await page.waitForURL('**/products');
  await page.getByRole('button', { name: 'Generate Certificate' }).click();
  await page.waitForURL('**/eventcertificate');
  await page.locator('[data-remote="certificate"]').waitFor({ state: 'attached' });
  await shoot(page, 'certificate-builder', size.name);
  await context.close();
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const size of SIZES) {
      console.log(`${size.name} px:`);
      await runnerPages(browser, size);
      await staffPages(browser, size);
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
