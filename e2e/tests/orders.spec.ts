import { expect, test, type Page } from '@playwright/test';
import { API_URL } from '../support/system';
import { expectAccessible } from '../support/accessibility';
import { apiEventId, DEMO_EVENT } from '../support/storefront';
import { DEMO_PASSWORD, DEMO_USERS, logOutThroughMenu, signInThroughForm } from './accounts.helpers';
import { downloadZip } from './orders.helpers';

async function photoIdsOf(bibNumber: string): Promise<{ eventID: number; ids: number[] }> {
  const eventID = await apiEventId(DEMO_EVENT);
  const response = await fetch(`${API_URL}/api/search/bib`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ eventID, bibNumber }),
  });
  const body = (await response.json()) as { result: { photo: Array<{ id: number }> } };
  return { eventID, ids: body.result.photo.map((p) => p.id) };
}

/** Creates a Pending order for the signed-in user of token (through the API, as the checkout page does). */
async function createOrder(token: string, bibNumber: string, photoId: number, eventID: number): Promise<string> {
  const response = await fetch(`${API_URL}/api/orders/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      name: 'Olga Organiser',
      email: 'ignored@example.com',
      phone_number: '9822222222',
      gender: 'Female',
      shipping_address: '1 Event Street',
      pincode: '400001',
      eventID,
      bibNumber,
      cartInfo: { searchKind: 'bib', packageKind: null, lines: [{ type: 'download', category: 'image', id: photoId }], discountedPhotoIds: [] },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { order_ref: string } }).result.order_ref;
}

const token = (page: Page) => page.evaluate(() => localStorage.getItem('session_token') ?? '');

test.describe('order history and order ownership', () => {
  test('history: search by BIB and order reference, 15 rows per page, no-match state; another account is refused', async ({ page }) => {
    await signInThroughForm(page, DEMO_USERS.organiser, DEMO_PASSWORD);
    await expect(page).not.toHaveURL(/sign-in/);
    const organiserToken = await token(page);
    const a = await photoIdsOf('TT20611');
    const b = await photoIdsOf('TT20612');
    const refs: string[] = [];
    for (let i = 0; i < 15; i++) refs.push(await createOrder(organiserToken, 'TT20611', a.ids[i % a.ids.length], a.eventID));
    const otherRefs = [
      await createOrder(organiserToken, 'TT20612', b.ids[0], b.eventID),
      await createOrder(organiserToken, 'TT20612', b.ids[1 % b.ids.length], b.eventID),
    ];

    await page.goto('/order-history');
    await expect(page.getByRole('heading', { name: 'Order History' })).toBeVisible();
    for (const header of ['Sl. No.', 'Race', 'Order Ref#', 'BIB ID', 'Photos', 'Order Value', 'GST', 'Payment ID', 'Status']) {
      await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    }
    const bodyRows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(bodyRows).toHaveCount(15);
    await expectAccessible(page, 'the order history');
    await page.locator('.ant-pagination').getByTitle('2').click();
    await expect(bodyRows).toHaveCount(2);
    await expect(bodyRows.first().locator('td').first()).toHaveText('16');

    await page.getByLabel('Search orders').fill('tt20612');
    await expect(bodyRows).toHaveCount(2);
    await page.getByLabel('Search orders').fill(refs[3]);
    await expect(bodyRows).toHaveCount(1);
    await expect(bodyRows.first()).toContainText('Retry');
    await page.getByLabel('Search orders').fill('no such race');
    await expect(page.getByText('No matching records found')).toBeVisible();

    // The organiser's own order opens, and is as accessible as the list.
    await page.goto(`/myorders?orderid=${refs[0]}`);
    await expect(page.getByText(refs[0]).first()).toBeVisible();
    await expectAccessible(page, 'the order details');

    // The runner may not open the organiser's order: the page and the API refuse.
    await logOutThroughMenu(page);
    await signInThroughForm(page, DEMO_USERS.runner, DEMO_PASSWORD);
    await expect(page).not.toHaveURL(/sign-in/);
    await page.goto(`/myorders?orderid=${otherRefs[0]}`);
    await expect(page).toHaveURL(/\/unauthorizeduser$/);
    await expect(page.getByText('You are not authorized to access this page.')).toBeVisible();
    const runnerToken = await token(page);
    // The API answers another account's order as it answers an unknown one, so references cannot be tested.
    const api = await fetch(`${API_URL}/api/orders/my?orderid=${otherRefs[0]}`, { method: 'POST', headers: { authorization: `Bearer ${runnerToken}` } });
    expect(api.status).toBe(404);
  });

  test("the demo runner's own orders: the history lists them, My Orders offers their photos to download", async ({ page }) => {
    await signInThroughForm(page, DEMO_USERS.runner, DEMO_PASSWORD);
    await expect(page.getByTestId('account-button')).toBeVisible();
    await page.goto('/order-history');
    // The seed's two paid orders of AR40608 (other journeys may add the runner's orders of other BIBs).
    await page.getByLabel('Search orders').fill('AR40608');
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Ahmedabad Riverfront Half 2026' })).toHaveCount(2);
    await expectAccessible(page, "the runner's order history");

    await rows.getByRole('button', { name: 'Paid', exact: true }).click();
    const order = page.getByTestId('order-view');
    await expect(order).toContainText('AR40608');
    await expect(order).toContainText('Downloads available until');
    await expect(order.getByRole('button', { name: /^Download photo / })).toHaveCount(3);
    await expectAccessible(page, "the runner's paid order");

    await page.goBack();
    await page.getByLabel('Search orders').fill('AR40608');
    await rows.getByRole('button', { name: 'Downloaded', exact: true }).click();
    await expect(order.getByRole('button', { name: /^Download photo / })).toHaveCount(1);
    const names = await downloadZip(page);
    expect(names.filter((name) => name.startsWith('photos/'))).toHaveLength(1);
  });

  test('signed out: order details send the visitor to sign in; the empty history offers login', async ({ page }) => {
    await page.goto('/myorders?orderid=FLNOTREAL1');
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto('/order-history');
    await expect(page.getByText('No Purchase History')).toBeVisible();
    await expect(page.getByText('Check back after Your next Purchase!')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Login for order history' })).toBeVisible();
    await expectAccessible(page, 'the empty order history');
  });
});
