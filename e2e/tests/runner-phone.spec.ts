import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { chooseEvent, DEMO_EVENT } from '../support/storefront';
import { DEMO_PASSWORD, DEMO_USERS, formNamed, signInThroughForm } from './accounts.helpers';
import { bottomBar, photoCards, rupees, serverBill } from './cart.helpers';

/**
 * The runner's journey on a phone (360 by 740, touch, device scale 2) as a new runner walks it: home,
 * event, BIB search, photos, cart, checkout. On every page: nothing scrolls sideways and every control
 * a thumb can hit is at least 44 by 44 px.
 */
const PHONE = { width: 360, height: 740 };
const MIN_TARGET_PX = 44;
const BIB = 'TT20609'; // 4 photos; the event's sponsor offer covers at most 3 of them

test.use({ viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect.soft(widths.scroll, 'the page scrolls sideways').toBeLessThanOrEqual(widths.client);
}

/**
 * Every visible control a finger can hit, with the box it answers to: a tab's whole tab, a tick box's
 * label, a field's frame. Links inside a sentence are left out (WCAG's inline exception).
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
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
      element.closest('.ant-tabs-tab, label.ant-checkbox-wrapper, label.ant-radio-wrapper, .ant-segmented-item, .ant-select, .ant-input-affix-wrapper') ?? element;
    const offenders: string[] = [];
    for (const element of Array.from(document.querySelectorAll(selector))) {
      if (!(element as HTMLElement).checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      if (element.closest('[aria-hidden="true"], [inert]')) continue;
      if (element.matches('a[href]') && element.closest('p')) continue; // a link inside a sentence
      const box = frameOf(element).getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.width < min - 0.5 || box.height < min - 0.5) {
        const name = (element.getAttribute('aria-label') || (element as HTMLElement).innerText || element.getAttribute('placeholder') || element.tagName).trim().slice(0, 40);
        offenders.push(`${element.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
    return offenders;
  }, MIN_TARGET_PX);
}

/** axe-core's WCAG 2.2 A/AA rules: no serious or critical violation. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(' | ')}`);
}

async function expectPhoneFriendly(page: Page, where: string): Promise<void> {
  await expectNoSidewaysScroll(page);
  expect.soft(await smallTargets(page), `controls under ${MIN_TARGET_PX} px on ${where}`).toEqual([]);
  expect.soft(await accessibilityProblems(page), `serious or critical accessibility problems on ${where}`).toEqual([]);
}

test.describe("the runner's phone (360 x 740, touch)", () => {
  test('home, event, BIB search, photos, cart and checkout fit a thumb; the offer shows in the bill at once', async ({ page }) => {
    await page.goto('/');
    const navbar = page.getByTestId('navbar');
    const myCart = navbar.getByRole('button', { name: 'My Cart' });
    const signIn = navbar.getByRole('button', { name: 'Sign In' });
    await expect(myCart).toBeVisible();
    await expect(page.getByTestId('upcoming-events')).toBeVisible();
    await expectPhoneFriendly(page, 'home');

    // The phone menu holds what the desktop bar holds for a visitor: the menu and Sign In.
    await navbar.getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    for (const entry of ['Home', 'Events', 'FAQ', 'Contact Us', 'Sign In']) await expect(drawer.getByRole('button', { name: entry, exact: true })).toBeVisible();
    await expectPhoneFriendly(page, 'the menu');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await expect(drawer).toBeHidden();

    // The event and its BIB hint (the demo event's BIBs look like the spec's example).
    await chooseEvent(page, DEMO_EVENT);
    const bibBox = page.getByPlaceholder('Enter your BIB number (ex: TT20608)');
    await expect(bibBox).toBeVisible();
    await expectPhoneFriendly(page, 'home with the event chosen');
    await bibBox.fill(BIB);
    await page.getByRole('button', { name: 'Find My Photos' }).click();
    await page.waitForURL('**/products');

    // Photos: no bottom bar while the cart is empty.
    await expect(photoCards(page).first()).toBeVisible();
    await expect(bottomBar(page)).toHaveCount(0);
    await expectPhoneFriendly(page, 'photos');
    await photoCards(page).first().getByRole('button', { name: 'Add To Cart' }).click();
    const bar = bottomBar(page);
    await expect(bar).toBeVisible();
    await expect(bar.getByTestId('bottom-bar-total')).toHaveText(rupees(118));
    // One line: the bar is no taller than its 44 px button and its padding.
    expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(60);
    await expectPhoneFriendly(page, 'photos with the bottom bar');

    // The Videos tab counts videos.
    await page.getByRole('tab', { name: /Videos/ }).click();
    await expect(page.getByTestId('congrats-bar')).toContainText(/There are \d+ videos in this section/);
    await page.getByRole('tab', { name: /Photos/ }).click();

    // Cart with every photo; accepting the sponsor offer changes the bill at once.
    await page.getByRole('button', { name: 'Add all to cart' }).click();
    await bar.getByRole('button', { name: 'Proceed to checkout' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    const modal = page.getByRole('dialog').filter({ hasText: 'Please Check to Avail this offer' });
    await expect(modal).toBeVisible();
    await expect(page.getByTestId('bill-summary')).toHaveAttribute('data-source', 'server');
    const before = await page.getByTestId('bill-total').innerText();
    await expectPhoneFriendly(page, 'the sponsor offer');
    await modal.getByText('Please Check to Avail this offer').click();
    await expect(page.getByTestId('bill-discount')).toBeVisible();
    await expect(page.getByTestId('bill-total')).not.toHaveText(before);
    await expect(modal).toBeHidden();
    await expect(page.getByTestId('bill-summary')).toHaveAttribute('data-source', 'server');
    const bill = await serverBill(page);
    expect(bill.discount).toBeGreaterThan(0);
    await expect(page.getByTestId('bill-total')).toHaveText(rupees(bill.total_amount));
    // The packages say what they hold and what they save against the photos chosen.
    await expect(page.getByTestId('packages')).toContainText('Every photo you chose');
    // The badge sits beside My Cart, never over Sign In.
    const cartBox = (await myCart.boundingBox())!;
    const signInBox = (await signIn.boundingBox())!;
    const badgeBox = (await page.getByTestId('cart-count').boundingBox())!;
    expect(badgeBox.x + badgeBox.width).toBeLessThanOrEqual(signInBox.x);
    expect(cartBox.x + cartBox.width).toBeLessThanOrEqual(signInBox.x);
    await expectPhoneFriendly(page, 'cart');

    // Checkout: what is bought, the discount, GST and total, and a button that says what happens.
    await page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();
    await expect(page).toHaveURL(/\/checkoutPage-authentication$/);
    const summary = page.getByTestId('order-summary');
    await expect(summary.getByTestId('checkout-total')).toHaveText(rupees(bill.total_amount));
    await expect(summary.getByTestId('checkout-discount')).toHaveText(`−${rupees(bill.discount)}`);
    await expect(summary.getByTestId('checkout-gst')).toBeVisible();
    await expect(summary.getByRole('img').first()).toBeVisible();
    await page.getByRole('tab', { name: 'Guest Checkout' }).click();
    const guest = formNamed(page, 'Guest checkout');
    await expect(guest.getByRole('button', { name: `Pay ${rupees(bill.total_amount)}` })).toBeDisabled();
    await expect(guest.getByTestId('captcha-hint')).toBeVisible();
    await expect(guest.getByText('+91')).toBeVisible();
    await expectPhoneFriendly(page, 'checkout');
  });

  test("the phone menu holds the signed-in role's entries, as the desktop account menu does", async ({ page }) => {
    await signInThroughForm(page, DEMO_USERS.organiser, DEMO_PASSWORD);
    await expect(page.getByTestId('account-button')).toBeVisible();
    await page.getByTestId('navbar').getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    const account = drawer.getByRole('navigation', { name: 'Your account' });
    await expect(account.getByRole('button')).toHaveText(['Orders History', 'Change Password', 'Event Dashboard', 'Log out']);
    await expectPhoneFriendly(page, 'the signed-in menu');
    await account.getByRole('button', { name: 'Event Dashboard' }).click();
    await expect(page).toHaveURL(/\/organization_dashboard/);
    await expect(drawer).toBeHidden();
  });
});
