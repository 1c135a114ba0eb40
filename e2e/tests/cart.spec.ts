import { expect, test } from '@playwright/test';
import { DEMO_EVENT } from '../support/storefront';
import { bottomBar, photoCards, rupees, searchBib, serverBill, shownServerTotal, storedShop } from './cart.helpers';

const BIB = 'TT20609'; // 4 photos

test.describe('cart (/cart)', () => {
  test('the bill shown equals the server bill and follows every change', async ({ page }) => {
    await searchBib(page, DEMO_EVENT, 'TT20608');
    await photoCards(page).nth(0).getByRole('button', { name: 'Add To Cart' }).click();
    await photoCards(page).nth(1).getByRole('button', { name: 'Add To Cart' }).click();
    await page.getByRole('tab', { name: /Videos/ }).click();
    await page.getByTestId('video-card').first().getByRole('button', { name: 'Add To Cart' }).click();
    await page.evaluate(() => localStorage.setItem('showModal', 'false')); // the sponsor journey below covers the modal
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    await expect(page).toHaveURL(/\/cart$/);

    // 2 photos 150 + video 150 = 300, GST 27 + 27
    let bill = await serverBill(page);
    expect(bill.total_amount).toBe(354);
    expect(await shownServerTotal(page)).toBe(rupees(bill.total_amount));
    await expect(page.getByTestId('bill-gst')).toHaveText(rupees(bill.gstInfo[0].gst_amount));
    expect(await page.evaluate(() => localStorage.getItem('gst'))).toBe(String(bill.gstInfo[0].gst_amount));

    // removing a photo re-prices at once
    await page.getByTestId('digital-downloads').getByRole('button', { name: 'Remove' }).first().click();
    await expect(page.getByTestId('bill-total')).toHaveText(rupees(118 + 177));
    bill = await serverBill(page);
    expect(await shownServerTotal(page)).toBe(rupees(bill.total_amount));

    // the tiles: add full package fills the cart with every photo, Clear All Photos takes them out
    await page.getByRole('button', { name: 'Add full package at discounted rates' }).click();
    await expect(page.getByRole('button', { name: 'Added all to cart' })).toBeDisabled();
    await expect(page.getByTestId('bill-total')).toHaveText(rupees(590 + 177));
    await expect(page.getByTestId('cart-slideshow')).toBeVisible();
    // Clear All Photos asks first: keeping them changes nothing, confirming removes them
    await page.getByRole('button', { name: 'Clear All Photos' }).click();
    await page.getByRole('button', { name: 'Keep them' }).click();
    await expect(page.getByTestId('bill-total')).toHaveText(rupees(590 + 177));
    await page.getByRole('button', { name: 'Clear All Photos' }).click();
    await page.getByRole('button', { name: 'Remove all' }).click();
    await expect(page.getByRole('button', { name: 'Clear All Photos' })).toHaveCount(0);
    await expect(page.getByTestId('bill-total')).toHaveText(rupees(177));
    await page.getByTestId('videos-section').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Your cart is empty')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Return to homepage' })).toBeVisible();
  });

  test('sponsor offer: the modal, accepting it discounts the photos at once up to the cap, coupon badge removes it', async ({ page }) => {
    await searchBib(page, DEMO_EVENT, BIB);
    await page.getByRole('button', { name: 'Add all to cart' }).click();
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();

    await expect(page.getByTestId('sponsor-banner')).toContainText('Special sponsor offer Coastline Run Club 20% Off on all digital downloads.');
    const modal = page.getByRole('dialog').filter({ hasText: 'Please Check to Avail this offer' });
    await expect(modal).toContainText('You are eligible for this Offer. Select an image for 20% Discount at the time of Order CheckOut');
    await expect(page.getByTestId('bill-summary')).toHaveAttribute('data-source', 'server');
    await expect(page.getByTestId('bill-total')).toHaveText(rupees(295));
    await modal.getByText('Please Check to Avail this offer').click();
    // One decision: the bill drops as soon as the box is ticked, no second tick per photo needed.
    // 4 photos = 250; 62.5 each; 20% each; at most 3 photos -> 38 off
    await expect(page.getByTestId('bill-discount')).toHaveText(`−${rupees(38)}`);
    await expect(modal).toBeHidden();
    await expect(page.getByTestId('coupon-badge')).toContainText('COASTLINE20');

    const ticks = page.getByTestId('digital-downloads').getByRole('checkbox', { name: /20% off/ });
    await expect(ticks).toHaveCount(4);
    for (let i = 0; i < 3; i++) await expect(ticks.nth(i)).toBeChecked();
    await expect(ticks.nth(3)).toBeDisabled();
    // the per-photo ticks move the discount between photos within the cap
    await ticks.nth(0).uncheck();
    await ticks.nth(3).check();
    await expect(ticks.nth(0)).toBeDisabled();
    await expect(page.getByTestId('bill-discount')).toHaveText(`−${rupees(38)}`);
    const bill = await serverBill(page);
    expect(bill.discount).toBe(38);
    expect(await shownServerTotal(page)).toBe(rupees(bill.total_amount));
    expect((await storedShop(page)).sponsor.discountedPhoto).toHaveLength(3);

    // the coupon badge removes the discount and the ticked list
    await page.getByTestId('coupon-badge').locator('.ant-tag-close-icon').click();
    await expect(page.getByTestId('coupon-badge')).toHaveCount(0);
    await expect(page.getByTestId('bill-discount')).toHaveCount(0);
    await expect(page.getByTestId('bill-total')).toHaveText(rupees(295));
    expect((await storedShop(page)).sponsor).toEqual({ appliedDiscount: false, discountedPhoto: [] });

    // Apply opens the modal again; closing it leaves the offer unapplied
    await page.getByTestId('sponsor-banner').getByRole('button', { name: 'Apply' }).click();
    await expect(modal).toBeVisible();
    await modal.getByRole('button', { name: 'Close' }).click();
    await expect(modal).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('showModal'))).toBe('false');
    await page.reload();
    await expect(modal).toBeHidden();
    await expect(page.getByTestId('bill-total')).toHaveText(rupees(295));
  });

  test('proceed to checkout goes to authentication when signed out', async ({ page }) => {
    await searchBib(page, DEMO_EVENT, BIB);
    await photoCards(page).first().getByRole('button', { name: 'Add To Cart' }).click();
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    await page.evaluate(() => localStorage.setItem('showModal', 'false'));
    await page.reload();
    await expect(page.getByTestId('bill-summary')).toHaveAttribute('data-source', 'server');
    await page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();
    await expect(page).toHaveURL(/\/checkoutPage-authentication$/);
  });
});
