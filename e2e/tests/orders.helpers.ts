import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { API_URL } from '../support/system';
import { solveCaptcha, formNamed, mailsTo } from './accounts.helpers';

export const SUCCESS_CARD = '5123456789012346';
export const FAILING_CARD = '4000000000000002';

/** Names of the entries of a zip file, read from its central directory. */
export function zipEntryNames(file: string): string[] {
  const zip = fs.readFileSync(file);
  let end = -1;
  for (let i = zip.length - 22; i >= 0; i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names.sort();
}

/** On the payment sandbox page (reached through the auto-posted form): pay with a card, or cancel. */
export async function payOnSandbox(page: Page, card: string | 'cancel'): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Payment sandbox' })).toBeVisible({ timeout: 30_000 });
  if (card === 'cancel') {
    await page.getByRole('button', { name: 'Cancel' }).click();
    return;
  }
  await page.getByLabel('Card number').fill(card);
  await page.getByRole('button', { name: /^Pay ₹/ }).click();
}

/** Checkout's order button: 'Pay ₹354' with the amount the server priced, 'Place Order' for a free order. */
export const PAY_BUTTON = /^(Pay ₹[\d,]+|Place Order)$/;

/**
 * Guest Checkout tab of /checkoutPage-authentication: fill, solve the captcha, place the order. With
 * `shipping` (an order with a print or a collage) the address and PIN code are filled; without it the
 * form must not ask for them (an order of downloads only).
 */
export async function guestCheckout(
  page: Page,
  buyer: { name: string; email: string; phone: string; shipping?: { address: string; pincode: string } },
): Promise<void> {
  await expect(page).toHaveURL(/\/checkoutPage-authentication$/);
  await page.getByRole('tab', { name: 'Guest Checkout' }).click();
  const form = formNamed(page, 'Guest checkout');
  await form.getByLabel('Name', { exact: true }).fill(buyer.name);
  await form.getByLabel('Email', { exact: true }).fill(buyer.email);
  await form.getByLabel('Phone number', { exact: true }).fill(buyer.phone);
  if (buyer.shipping) {
    await form.getByLabel('Shipping address', { exact: true }).fill(buyer.shipping.address);
    await form.getByLabel('Pin code', { exact: true }).fill(buyer.shipping.pincode);
  } else {
    await expect(form.getByLabel('Pin code', { exact: true })).toHaveCount(0);
    await expect(form.getByLabel('Shipping address', { exact: true })).toHaveCount(0);
  }
  // Until the captcha is ticked the button is disabled and the form says why.
  await expect(form.getByTestId('captcha-hint')).toHaveText("Tick \u201cI'm not a robot\u201d above to enable this button.");
  await solveCaptcha(form, PAY_BUTTON);
  await expect(form.getByTestId('captcha-hint')).toHaveCount(0);
  await form.getByRole('button', { name: PAY_BUTTON }).click();
}

/** The pre-authorised download path from the newest order confirmation mailed to address. */
export async function preauthPathFromMail(address: string, orderRef?: string): Promise<string> {
  let url = '';
  await expect
    .poll(async () => {
      const mail = (await mailsTo(address, 'order_confirmation')).find((m) => !orderRef || m.text.includes(orderRef));
      url = mail?.text.match(/https?:\/\/\S+\/preauthdownload\?\S+/)?.[0] ?? '';
      return url;
    })
    .not.toBe('');
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Clicks Download all (zip) and returns the names inside the downloaded archive. */
export async function downloadZip(page: Page): Promise<string[]> {
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('download-zip').click();
  const download = await downloadPromise;
  const file = await download.path();
  return zipEntryNames(file);
}

export async function orderStatus(orderRef: string, token: string): Promise<string> {
  const response = await fetch(`${API_URL}/api/orders/my?orderid=${orderRef}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { result: { status: string } }).result.status;
}

/** The PayU form create-order answers: the order's reference and the fields posted to the gateway. */
export interface PaymentForm {
  order_ref: string;
  PAYU_API_URL: string;
  [field: string]: string;
}

/** The demo runner's signed-in checkout of a BIB cart through the API (as the checkout page sends it). */
export async function placeRunnerOrder(token: string, eventID: number, bibNumber: string, lines: object[]): Promise<PaymentForm> {
  const response = await fetch(`${API_URL}/api/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      name: 'Priya Nair',
      email: 'runner@finishline.test',
      phone_number: '9820012345',
      gender: 'Female',
      shipping_address: '4 Marine Drive, Mumbai',
      pincode: '400020',
      eventID,
      bibNumber,
      cartInfo: { searchKind: 'bib', packageKind: null, lines, discountedPhotoIds: [] },
    }),
  });
  const body = (await response.json()) as { Message: string; result: PaymentForm };
  expect(response.status, body.Message).toBe(200);
  return body.result;
}

/** Posts the order's PayU form from the buyer's browser and pays at the sandbox gateway. */
export async function payInBrowser(page: Page, form: PaymentForm): Promise<void> {
  const fields = ['key', 'txnid', 'amount', 'productinfo', 'firstname', 'lastname', 'email', 'phone', 'surl', 'furl', 'hash', 'udf1'];
  await page.setContent(
    `<form id="payu" method="post" action="${form.PAYU_API_URL}">${fields.map((f) => `<input type="hidden" name="${f}" value="${String(form[f] ?? '').replace(/"/g, '&quot;')}">`).join('')}</form>`,
  );
  await page.evaluate(() => (document.getElementById('payu') as HTMLFormElement).submit());
  await payOnSandbox(page, SUCCESS_CARD);
  await page.waitForURL('**/ordersuccess**');
}
