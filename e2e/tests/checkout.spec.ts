import { expect, test } from '@playwright/test';
import { DEMO_BIB, DEMO_EVENT } from '../support/storefront';
import { bottomBar, photoCards, searchBib, storedShop } from './cart.helpers';
import { DEMO_PASSWORD, DEMO_USERS, formNamed, signInThroughForm, solveCaptcha, uniqueEmail } from './accounts.helpers';
import { API_URL } from '../support/system';

const NEW_PASSWORD = 'Finish@2026';
import { downloadZip, FAILING_CARD, guestCheckout, PAY_BUTTON, payOnSandbox, preauthPathFromMail, SUCCESS_CARD } from './orders.helpers';

test.describe('checkout and payment through the sandbox gateway', () => {
  test('a guest buys two photos and a video, pays, and downloads the zip from the mailed link', async ({ page }) => {
    const email = uniqueEmail('guest');
    await searchBib(page, DEMO_EVENT, 'TT20608');
    await photoCards(page).nth(0).getByRole('button', { name: 'Add To Cart' }).click();
    await photoCards(page).nth(1).getByRole('button', { name: 'Add To Cart' }).click();
    await page.getByRole('tab', { name: /Videos/ }).click();
    await page.getByTestId('video-card').first().getByRole('button', { name: 'Add To Cart' }).click();
    await page.evaluate(() => localStorage.setItem('showModal', 'false'));
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    await page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();

    // Checkout shows what is being bought and the button says what happens, with the amount.
    const summary = page.getByTestId('order-summary');
    await expect(summary.getByTestId('checkout-total')).toHaveText('₹354');
    await expect(summary).toContainText('2 digital photos');
    expect(await summary.getByRole('img').count()).toBeGreaterThanOrEqual(2); // the photos' thumbnails (and the video's poster)
    await expect(summary.getByTestId('checkout-gst')).toHaveText('₹54');
    await page.getByRole('tab', { name: 'Guest Checkout' }).click();
    await expect(formNamed(page, 'Guest checkout').getByRole('button', { name: 'Pay ₹354' })).toBeDisabled();
    await expect(formNamed(page, 'Guest checkout').getByText('+91')).toBeVisible();

    await guestCheckout(page, { name: 'Gita Guest', email, phone: '9876543210' });
    // 'In Progress' shows until the gateway's page replaces checkout (on a quiet machine, a moment).
    await expect(page.getByRole('button', { name: 'In Progress' }).or(page.getByTestId('sandbox-amount'))).toBeVisible();
    await expect(page.getByTestId('sandbox-amount')).toHaveText('₹354.00', { timeout: 30_000 });
    await payOnSandbox(page, SUCCESS_CARD);

    await expect(page).toHaveURL(/\/ordersuccess\?orderref=FL/, { timeout: 30_000 });
    await expect(page.getByText('Thank You. Your order has been placed successfully!')).toBeVisible();
    await expect(page.getByTestId('order-success')).toContainText(`mailed to ${email}`);
    await expect(page.getByRole('button', { name: 'Login for order history' })).toBeVisible();
    const orderRef = new URL(page.url()).searchParams.get('orderref')!;
    expect((await storedShop(page)).cart).toEqual([]);
    // The navbar's My Cart (the shell's) says so too, without a reload.
    await expect(page.getByTestId('cart-count')).toHaveCount(0);

    // Signed out, through the pre-authorised link of the confirmation mail.
    await page.goto(await preauthPathFromMail(email, orderRef));
    await expect(page.getByTestId('order-view')).toContainText(`Order ${orderRef}`);
    await expect(page.getByRole('heading', { name: DEMO_EVENT })).toBeVisible();
    const names = await downloadZip(page);
    expect(names).toHaveLength(3);
    expect(names.filter((n) => n.startsWith('photos/') && n.endsWith('.jpg'))).toHaveLength(2);
    expect(names.filter((n) => n.startsWith('videos/') && n.endsWith('.mp4'))).toHaveLength(1);
    await page.reload();
    await expect(page.getByTestId('order-view')).toContainText('Downloaded');
  });

  test('on a phone checkout opens at its top, and signing up there goes on signed in: no second password, no second captcha', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const email = uniqueEmail('checkout-signup');
    await searchBib(page, DEMO_EVENT, 'TT20608');
    await photoCards(page).nth(0).getByRole('button', { name: 'Add To Cart' }).click();
    await page.evaluate(() => localStorage.setItem('showModal', 'false'));
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    // The cart's own Proceed button sits below its bill: the page is scrolled down to reach it.
    const proceed = page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' });
    await proceed.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await proceed.click();
    await expect(page.getByRole('heading', { name: 'Checkout' })).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.getByRole('tab', { name: 'Sign up' })).toBeInViewport();

    await page.getByRole('tab', { name: 'Sign up' }).click();
    const form = formNamed(page, 'Sign up');
    await form.getByLabel('First name').fill('Nila');
    await form.getByLabel('Last name').fill('Newrunner');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Phone').fill('9876501234');
    await form.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await solveCaptcha(form, 'Sign Up');
    await form.getByRole('button', { name: 'Sign Up', exact: true }).click();

    // Straight on to the signed-in checkout, the new account's details filled in.
    await page.waitForURL('**/UserOrderdetails');
    await expect(page.getByTestId('account-button')).toContainText('Nila');
    await expect(formNamed(page, 'Checkout').getByLabel('Email', { exact: true })).toHaveValue(email);
    await expect(page.getByRole('tab', { name: 'Sign in' })).toHaveCount(0);
    // The server holds the session for the new account.
    const token = await page.evaluate(() => localStorage.getItem('session_token'));
    const me = await fetch(`${API_URL}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { result: { email: string } }).result.email).toBe(email);
    await context.close();
  });

  test('signed in: a declined payment returns to the intact cart, Retry from the history, then pay and download', async ({ page }) => {
    await signInThroughForm(page, DEMO_USERS.runner, DEMO_PASSWORD);
    await expect(page).not.toHaveURL(/sign-in/);
    await searchBib(page, DEMO_EVENT, 'TT20610');
    await page.getByRole('button', { name: 'Add all to cart' }).click();
    await page.evaluate(() => localStorage.setItem('showModal', 'false'));
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    const cartBefore = (await storedShop(page)).cart.map((i) => i.id);
    await page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();

    await expect(page).toHaveURL(/\/UserOrderdetails$/);
    const form = formNamed(page, 'Checkout');
    await expect(form.getByLabel('Email', { exact: true })).toHaveValue(DEMO_USERS.runner);
    await expect(form.getByLabel('Name', { exact: true })).not.toHaveValue('');
    // The profile keeps a mobile number once it has one (another journey may have given the demo runner one).
    const profilePhone = await form.getByLabel('Mobile number', { exact: true }).inputValue();
    // An order of downloads only asks for no address or PIN code.
    await expect(form.getByLabel('Shipping address', { exact: true })).toHaveCount(0);
    await expect(form.getByLabel('Pin code', { exact: true })).toHaveCount(0);
    // The spec's rules: every field required, shown under the field after a failed submit.
    await form.getByLabel('Mobile number', { exact: true }).fill('0981111111');
    await form.getByRole('button', { name: PAY_BUTTON }).click();
    await expect(form.getByText('Mobile number must not start with 0.')).toBeVisible();
    await form.getByLabel('Mobile number', { exact: true }).fill('9811111111');
    await form.getByRole('radio', { name: 'Female' }).check();
    await form.getByRole('button', { name: PAY_BUTTON }).click();

    await payOnSandbox(page, FAILING_CARD);
    await expect(page).toHaveURL(/\/cart\?payment=failed/, { timeout: 30_000 });
    expect((await storedShop(page)).cart.map((i) => i.id)).toEqual(cartBefore);
    await expect(page.getByTestId('digital-downloads')).toBeVisible();

    // The order waits as Pending; Retry restores its items into an emptied cart.
    await page.evaluate(() => {
      const shop = JSON.parse(localStorage.getItem('finishline.shop')!);
      localStorage.setItem('finishline.shop', JSON.stringify({ ...shop, cart: [] }));
    });
    await page.goto('/order-history');
    const pendingRow = page
      .getByRole('row')
      .filter({ hasText: 'TT20610' })
      .filter({ has: page.getByRole('button', { name: 'Retry' }) })
      .first();
    await pendingRow.getByRole('button', { name: 'Retry' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect.poll(async () => (await storedShop(page)).cart.map((i) => i.id).sort()).toEqual([...cartBefore].sort());

    await page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();
    // The second checkout remembers the details given for the first.
    const again = formNamed(page, 'Checkout');
    await expect(again.getByLabel('Mobile number', { exact: true })).toHaveValue(profilePhone || '9811111111');
    await expect(again.getByRole('radio', { name: 'Female' })).toBeChecked();
    await again.getByRole('button', { name: PAY_BUTTON }).click();
    await payOnSandbox(page, SUCCESS_CARD);
    await expect(page).toHaveURL(/\/ordersuccess/, { timeout: 30_000 });
    const orderLink = page.getByTestId('order-success').getByRole('link');
    await orderLink.click();
    await expect(page).toHaveURL(/\/myorders\?orderid=FL/);
    const names = await downloadZip(page);
    expect(names.length).toBe(cartBefore.length);
    expect(names.every((n) => n.startsWith('photos/'))).toBe(true);
  });

  test('a zero-amount order (100% sponsor offer) goes straight to order success', async ({ page }) => {
    await searchBib(page, 'Ahmedabad Riverfront Half 2026', 'AR40101');
    await page.getByRole('button', { name: 'Add all to cart' }).click();
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    const modal = page.getByRole('dialog').filter({ hasText: 'Please Check to Avail this offer' });
    await modal.getByText('Please Check to Avail this offer').click();
    // accepting the offer discounts every photo of the cart at once (the cap covers them all)
    await expect(page.getByTestId('bill-total')).toHaveText('₹0');
    await expect(
      page
        .getByTestId('digital-downloads')
        .getByRole('checkbox', { name: /100% off/ })
        .first(),
    ).toBeChecked();
    await page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();
    await guestCheckout(page, { name: 'Free Runner', email: uniqueEmail('free'), phone: '9000000001' });
    await expect(page).toHaveURL(/\/ordersuccess\?orderref=FL/, { timeout: 30_000 });
    await expect(page.getByText('Thank You. Your order has been placed successfully!')).toBeVisible();
  });

  test('an order with a print asks the guest for the shipping address and an Indian PIN code', async ({ page }) => {
    await searchBib(page, DEMO_EVENT, DEMO_BIB);
    await photoCards(page).nth(0).getByRole('button', { name: 'Order prints' }).click();
    await page.getByTestId('print-products').getByRole('button', { name: 'Add Coffee mug' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.evaluate(() => localStorage.setItem('showModal', 'false'));
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    await page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();
    await page.getByRole('tab', { name: 'Guest Checkout' }).click();
    const form = formNamed(page, 'Guest checkout');
    await form.getByLabel('Shipping address', { exact: true }).fill('4 Marine Drive, Mumbai');
    await form.getByLabel('Pin code', { exact: true }).fill('040002');
    await form.getByLabel('Pin code', { exact: true }).blur();
    await expect(form.getByText('A PIN code is 6 digits and does not start with 0.')).toBeVisible();
    await guestCheckout(page, {
      name: 'Mug Buyer',
      email: uniqueEmail('mug'),
      phone: '9876543210',
      shipping: { address: '4 Marine Drive, Mumbai', pincode: '400002' },
    });
    await expect(page.getByTestId('sandbox-amount')).toHaveText('₹306.00', { timeout: 30_000 });
  });
});
