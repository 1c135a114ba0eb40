import { expect, test } from '@playwright/test';
import { DEMO_EVENT } from '../support/storefront';
import { expectAccessible } from '../support/accessibility';
import { bottomBar, photoCards, searchBib } from './cart.helpers';
import { accountMenuEntries, mailsTo, signInThroughForm, signUpThroughForm, uniqueEmail } from './accounts.helpers';
import { downloadZip, guestCheckout, payOnSandbox, SUCCESS_CARD } from './orders.helpers';

const PASSWORD = 'Finish@2026';

/**
 * Issue 33 item 1, as people meet it: an account made with an address sees an order a guest placed
 * with that address (in another browser) only after proving the address with the mailed code; the
 * claimed order then opens and downloads from the account's history.
 */
test('an account sees a guest order of its address only after proving the address, then downloads it', async ({ browser }) => {
  const email = uniqueEmail('proof');
  const accountContext = await browser.newContext();
  const guestContext = await browser.newContext();
  try {
    const page = await accountContext.newPage();
    await signUpThroughForm(page, { firstName: 'Priya', lastName: 'Proof', email, phone: '9876543210', password: PASSWORD });
    await signInThroughForm(page, email, PASSWORD);
    await expect(page.getByTestId('account-button')).toBeVisible();
    expect(await accountMenuEntries(page)).toContain('Confirm Email');

    // Someone else's browser: a guest buys a photo with the same address.
    const guest = await guestContext.newPage();
    await searchBib(guest, DEMO_EVENT, 'TT20608');
    await photoCards(guest).nth(0).getByRole('button', { name: 'Add To Cart' }).click();
    await guest.evaluate(() => localStorage.setItem('showModal', 'false'));
    await bottomBar(guest).getByRole('button', { name: 'Proceed to checkout' }).click();
    await guest.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();
    await guestCheckout(guest, { name: 'Priya Guest', email, phone: '9876543210' });
    await payOnSandbox(guest, SUCCESS_CARD);
    await expect(guest).toHaveURL(/\/ordersuccess\?orderref=FL/, { timeout: 30_000 });
    const orderRef = new URL(guest.url()).searchParams.get('orderref')!;

    // The account's history holds nothing yet, and says what waits and how to get it.
    await page.goto('/order-history');
    const proof = page.getByTestId('email-proof');
    await expect(proof).toContainText(
      `1 order placed with ${email} without signing in to this account waits until you confirm that this email address is yours.`,
    );
    await expect(proof).toContainText(`Press Send code: we mail a 6-digit code to ${email}.`);
    await expect(page.getByText('No Purchase History')).toBeVisible();
    await expectAccessible(page, 'the order history waiting for the email proof');
    // Opening the order directly offers the same proof, never the order.
    await page.goto(`/myorders?orderid=${orderRef}`);
    await expect(
      page.getByRole('heading', { name: `This order was placed with ${email} without signing in to this account. Confirm your email address to see it.` }),
    ).toBeVisible();
    await expect(page.getByTestId('order-view')).toHaveCount(0);

    // Prove it on the account page: Send code, the mailed code, Confirm.
    await page.goto('/verify-email');
    await expect(page.getByRole('heading', { name: 'Confirm Email' })).toBeVisible();
    await page.getByTestId('email-proof').getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByText(`We mailed a code to ${email}.`)).toBeVisible();
    await page.getByLabel('Code from the mail').fill('000000');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByText('This code is not valid.')).toBeVisible();
    let code = '';
    await expect
      .poll(async () => {
        code = /is (\d{6})/.exec((await mailsTo(email, 'email_code'))[0]?.text ?? '')?.[1] ?? '';
        return code;
      })
      .not.toBe('');
    await page.getByLabel('Code from the mail').fill(code);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByText('Your email address is confirmed. 1 order placed with it is now in your order history.').first()).toBeVisible();
    expect(await accountMenuEntries(page)).not.toContain('Confirm Email');

    // The claimed order is the account's: listed, opened, downloaded.
    await page.goto('/order-history');
    await expect(page.getByTestId('email-proof')).toHaveCount(0);
    const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: orderRef });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: 'Paid', exact: true }).click();
    await expect(page.getByTestId('order-view')).toContainText(orderRef);
    const names = await downloadZip(page);
    expect(names.filter((name) => name.startsWith('photos/'))).toHaveLength(1);
  } finally {
    await accountContext.close();
    await guestContext.close();
  }
});
