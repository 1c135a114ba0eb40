import { expect, test } from '@playwright/test';
import { apiBibSearch, BIB_PLACEHOLDER, chooseEvent, DEMO_BIB, DEMO_EVENT } from '../support/storefront';

test.describe('BIB search journey', () => {
  test('home page shows the hero and the upcoming, past and featured sections from the API', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
    for (const section of ['upcoming-events', 'past-events', 'featured-events']) {
      await expect(page.getByTestId(section).locator('.fl-event-card').first()).toBeVisible();
    }
    await expect(page.getByTestId('past-events').getByRole('heading', { name: 'Past Events' })).toBeVisible();
  });

  test('choose an event, search by BIB with Enter, see the photos from signed URLs', async ({ page }) => {
    const expected = await apiBibSearch(DEMO_BIB);
    expect(expected.photos).toBeGreaterThan(0);

    await page.goto('/');
    await chooseEvent(page);
    await expect(page.getByRole('tab', { name: 'Search by BIB' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Search by Selfie' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Find My Photos' })).toBeVisible();

    // Hold the answer briefly so the overlay can be seen; the answer itself is the real server's.
    await page.route('**/api/search/bib', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    const input = page.getByPlaceholder(BIB_PLACEHOLDER);
    await input.fill(DEMO_BIB);
    await input.press('Enter');
    await expect(page.getByText('Processing...')).toBeVisible();

    await page.waitForURL('**/products');
    await expect(page).toHaveTitle(`${DEMO_EVENT} Select Photos`);
    await expect(page.getByTestId('congrats-bar')).toContainText(`Congratulations. There are ${expected.photos} photos in this section`);
    const photos = page.getByTestId('photo-grid').locator('img');
    await expect(photos).toHaveCount(expected.photos);
    const first = photos.first();
    await expect(first).toHaveAttribute('src', /sig=/);
    await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // Spec storage keys are written for the other screens.
    const stored = await page.evaluate(() => ({
      bib: localStorage.getItem('bibId'),
      event: localStorage.getItem('Selected Event'),
      expiry: localStorage.getItem('awsImageExpiry'),
    }));
    expect(stored).toEqual({ bib: DEMO_BIB, event: DEMO_EVENT, expiry: expect.any(String) });
  });

  test("an unknown BIB shows the server's Message as a warning", async ({ page }) => {
    const unknown = await apiBibSearch('ZZ00000');
    expect(unknown.status).not.toBe(200);

    await page.goto('/');
    await chooseEvent(page);
    await page.getByPlaceholder(BIB_PLACEHOLDER).fill('ZZ00000');
    await page.getByRole('button', { name: 'Find My Photos' }).click();
    await expect(page.locator('.ant-message-warning')).toContainText(unknown.Message);
    await expect(page).toHaveURL(/\/$/);
  });

  test('an empty BIB goes to the home page', async ({ page }) => {
    await page.goto('/');
    await chooseEvent(page);
    await page.getByRole('button', { name: 'Find My Photos' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
  });

  test('looks right on a 360px phone: no sideways scrolling, one photo column', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    await chooseEvent(page);
    await page.getByPlaceholder(BIB_PLACEHOLDER).fill(DEMO_BIB);
    await page.getByRole('button', { name: 'Find My Photos' }).click();
    await page.waitForURL('**/products');
    await expect(page.getByTestId('photo-grid').locator('img').first()).toBeVisible();
    const layout = await page.evaluate(() => {
      const lefts = [...document.querySelectorAll('[data-testid="photo-grid"] img')].map((img) => Math.round(img.getBoundingClientRect().left));
      return { scrollWidth: document.documentElement.scrollWidth, columns: new Set(lefts).size };
    });
    expect(layout.scrollWidth).toBeLessThanOrEqual(360);
    expect(layout.columns).toBe(1);
  });
});
