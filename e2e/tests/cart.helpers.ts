import { expect, type Page } from '@playwright/test';
import { API_URL } from '../support/system';
import { chooseEvent, BIB_PLACEHOLDER } from '../support/storefront';

export const SHOP_KEY = 'finishline.shop';

/** Home -> event -> BIB -> Find My Photos, landing on /products. */
export async function searchBib(page: Page, eventName: string, bib: string): Promise<void> {
  await page.goto('/');
  await chooseEvent(page, eventName);
  await page.getByPlaceholder(BIB_PLACEHOLDER).fill(bib);
  await page.getByRole('button', { name: 'Find My Photos' }).click();
  await page.waitForURL('**/products');
}

export const photoCards = (page: Page) => page.getByTestId('photo-card');
export const bottomBar = (page: Page) => page.getByTestId('cart-bottom-bar');

interface StoredCartItem {
  id: number | string;
  type: string;
  category: string;
  printProductId?: number;
}
interface StoredShop {
  eventId: number;
  bibNumber: string;
  searchKind: string;
  packageKind: 'a' | 'b' | null;
  cart: StoredCartItem[];
  collageOrientation?: string;
  sponsor: { appliedDiscount: boolean; discountedPhoto: number[] };
  products: { sponsorOffer: { id: number } | null } | null;
}

export async function storedShop(page: Page): Promise<StoredShop> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as StoredShop, SHOP_KEY);
}

/** What the server bills for the cart the browser holds, asked directly (not through the page). */
export async function serverBill(page: Page): Promise<{ total_amount: number; gstInfo: Array<{ gst_amount: number }>; discount: number }> {
  const shop = await storedShop(page);
  const collage = shop.cart.filter((i) => i.type.startsWith('collage')).map((i) => Number(i.id));
  const lines = [
    ...shop.cart
      .filter((i) => !i.type.startsWith('collage'))
      .map((i) =>
        i.type === 'print'
          ? { type: 'print', category: 'image', id: i.id, printProductId: i.printProductId }
          : { type: i.type, category: i.category, id: i.id },
      ),
    ...(collage.length >= 3
      ? [{ type: 'collage', category: 'image', id: collage[0], collagePhotoIds: collage, orientation: shop.collageOrientation ?? 'Vertical' }]
      : []),
  ];
  const body = {
    eventId: shop.eventId,
    bibNumber: shop.bibNumber,
    searchKind: shop.searchKind,
    packageKind: shop.packageKind,
    lines,
    sponsorofferID: shop.sponsor.appliedDiscount ? (shop.products?.sponsorOffer?.id ?? null) : null,
    discountedPhotoIds: shop.sponsor.appliedDiscount ? shop.sponsor.discountedPhoto : [],
  };
  const response = await fetch(`${API_URL}/api/cart/details`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { total_amount: number; gstInfo: Array<{ gst_amount: number }>; discount: number } }).result;
}

export const rupees = (n: number) => `₹${n.toLocaleString('en-IN')}`;

/** Waits for the server's bill on the cart page and returns the total shown. */
export async function shownServerTotal(page: Page): Promise<string> {
  const summary = page.getByTestId('bill-summary');
  await expect(summary).toHaveAttribute('data-source', 'server');
  return (await summary.getByTestId('bill-total').innerText()).trim();
}

/** Signs in through the shell's form; the ALTCHA box is ticked with force (its check mark overlays the input). */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  const submit = form.getByRole('button', { name: 'Sign In', exact: true });
  await form.getByTestId('captcha').locator('input[type="checkbox"]').click({ force: true });
  await expect(submit).toBeEnabled({ timeout: 30_000 });
  await submit.click();
  await expect(page.getByTestId('account-button')).toBeVisible();
}
