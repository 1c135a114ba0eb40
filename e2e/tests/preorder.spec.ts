import { expect, test } from '@playwright/test';
import { apiEventId, DEMO_EVENT } from '../support/storefront';
import { formNamed, solveCaptcha, uniqueEmail } from './accounts.helpers';
import { downloadZip, payOnSandbox, SUCCESS_CARD } from './orders.helpers';

test.describe('pre-orders', () => {
  test('a guest pre-orders, pays, maps the order to a BIB once and downloads its photos', async ({ page }) => {
    const email = uniqueEmail('pre');
    const eventId = await apiEventId(DEMO_EVENT);
    await page.goto(`/preorder?eventId=${eventId}`);
    await expect(page.getByRole('heading', { name: `Pre-order ${DEMO_EVENT}` })).toBeVisible();
    // 499 + 18% GST = 589, cut price 999 + GST = 1179
    await expect(page.getByTestId('preorder-price')).toContainText('₹589');
    await expect(page.getByTestId('preorder-price').locator('s')).toHaveText('₹1179');
    await expect(page.getByTestId('preorder-date')).toHaveText('On 18 Jan 2026');
    const form = formNamed(page, 'Pre-order');
    await form.getByLabel('Name', { exact: true }).fill('Pooja Prebook');
    await form.getByLabel('Email', { exact: true }).fill(email);
    await form.getByLabel('Phone number', { exact: true }).fill('9988776655');
    // The phone number shows its country code; the button says what happens, with the amount.
    await expect(form.getByText('+91')).toBeVisible();
    await solveCaptcha(form, 'Pay ₹589');
    await form.getByRole('button', { name: 'Pay ₹589', exact: true }).click();
    await expect(page.getByTestId('sandbox-amount')).toHaveText('₹589.00', { timeout: 30_000 });
    await payOnSandbox(page, SUCCESS_CARD);
    await expect(page).toHaveURL(/\/ordersuccess\?orderref=FL/, { timeout: 30_000 });
    const orderRef = new URL(page.url()).searchParams.get('orderref')!;

    // The hero's Pre-Booked Photos link opens the mapping modal.
    await page.goto(`/order-history?prebooked=1&race=${encodeURIComponent(DEMO_EVENT)}`);
    const modal = formNamed(page, 'Pre-Booked Photos');
    await expect(modal.getByLabel('Race')).toHaveValue(DEMO_EVENT);
    await expect(modal.getByLabel('Race')).toHaveAttribute('readonly', '');
    await expect(page.getByText('Mapping once submitted is irreversible.')).toBeVisible();
    await modal.getByLabel('Order ID').fill(orderRef);
    await modal.getByLabel('BIB number').fill('TT20608');
    await modal.getByLabel('Email').fill('not-an-email');
    await modal.getByLabel('Email').blur();
    await expect(modal.getByText('Invalid email')).toBeVisible();
    await modal.getByLabel('Email').fill(email);
    await modal.getByLabel('Phone number').fill('99887');
    await expect(modal.getByText('Must contain 10 Digits!')).toBeVisible();
    await modal.getByLabel('Phone number').fill('99887abc');
    await expect(modal.getByText('Must contain only Numbers!')).toBeVisible();
    await modal.getByLabel('Phone number').fill('9988776655');
    await modal.getByRole('button', { name: 'Submit' }).click();

    await expect(page).toHaveURL(/\/preauthdownload\?orderref=/, { timeout: 30_000 });
    await expect(page.getByTestId('order-view')).toContainText('BIB TT20608');
    const names = await downloadZip(page);
    expect(names.filter((n) => n.startsWith('photos/')).length).toBeGreaterThan(0);
    expect(names.filter((n) => n.startsWith('videos/')).length).toBeGreaterThan(0);
  });
});
