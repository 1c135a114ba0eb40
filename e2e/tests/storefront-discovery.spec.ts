import { expect, test, type Page } from '@playwright/test';
import { apiBibSearch, apiEventId, chooseEvent, DEMO_BIB, DEMO_EVENT } from '../support/storefront';
import { API_URL } from '../support/system';

/** Home page sections and filters, advanced search, unlabeled photos and the expired search session. */

interface EventRow {
  event_id: number;
  event_name: string;
  event_from_date: string;
  preorder_allowed: 0 | 1;
}
interface Home {
  past_event: Record<string, EventRow[]>;
  feature_event: Record<string, EventRow[]>;
  upcoming_event: EventRow[];
}

async function api<T>(route: string, body?: unknown): Promise<T> {
  const response = await fetch(
    `${API_URL}${route}`,
    body === undefined ? undefined : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
  );
  return ((await response.json()) as { result: T }).result;
}

async function openAdvancedSearch(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Advanced Search' }).click();
  await expect(page.getByTestId('advanced-search')).toBeVisible();
}

test.describe('Home page', () => {
  test('the hero is a picture the size a phone needs, painted before the JavaScript and handed to the page without a second download', async ({
    browser,
    baseURL,
  }) => {
    // A 360 px phone at DPR 2 needs a 720 px wide picture; the API offers 480-1920 px in WebP and JPEG.
    const phone = () => browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });
    // Without the shell's JavaScript (blocked here, as when it is late or fails) the hero is already there.
    const first = await phone();
    const early = await first.newPage();
    await early.route(/\/main\.js$/, (route) => route.abort());
    await early.goto('/');
    const earlyPicture = early.locator('#fl-first-paint img');
    await expect(earlyPicture).toHaveAttribute('alt', /Mumbai Coastal Marathon 2026/);
    // (naturalWidth is in CSS pixels for a srcset candidate: 720 px at DPR 2 is 360.)
    await expect
      .poll(() => earlyPicture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && new URL(img.currentSrc).pathname))
      .toMatch(/\/renditions\/hero\/finish-line\/720\.webp$/);
    await expect(early.getByText('Find your race photos')).toBeVisible();
    await first.close();

    const context = await phone();
    const heroFiles: string[] = [];
    context.on('request', (request) => {
      if (/\/hero\//.test(request.url())) heroFiles.push(new URL(request.url()).pathname);
    });
    const page = await context.newPage();
    await page.goto('/');
    const picture = page.getByTestId('hero').getByRole('img', { name: /Mumbai Coastal Marathon 2026/ });
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && new URL(img.currentSrc).pathname)).toMatch(/\/720\.webp$/);
    // The early copy has given way to the page's hero: one heading, one picture, one download.
    await expect(page.locator('#fl-first-paint')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toHaveCount(1);
    expect(heroFiles).toEqual([expect.stringMatching(/\/720\.webp$/)]);
    await context.close();
  });

  test('shows hero, highlights, upcoming, past and featured events in the spec order, then the footer', async ({ page }) => {
    await page.goto('/');
    const order = ['hero', 'highlights', 'upcoming-events', 'past-events', 'featured-events'];
    for (const id of order) await expect(page.getByTestId(id)).toBeVisible();
    const tops = await Promise.all(order.map((id) => page.getByTestId(id).evaluate((el) => el.getBoundingClientRect().top + window.scrollY)));
    expect([...tops].sort((a, b) => a - b)).toEqual(tops);
    await expect(page.getByTestId('highlights').locator('img').first()).toBeVisible();
    const footer = page.locator('footer');
    await expect(footer).toBeVisible();
    for (const link of ['FAQ', 'Contact Us', 'Terms', 'Privacy']) await expect(footer.getByRole('link', { name: new RegExp(link, 'i') }).first()).toBeVisible();
  });

  test("year filters of past and featured events show that year's events from the server", async ({ page }) => {
    const home = await api<Home>('/api/home');
    await page.goto('/');
    for (const [testId, byYear] of [
      ['past-events', home.past_event],
      ['featured-events', home.feature_event],
    ] as const) {
      const section = page.getByTestId(testId);
      const years = Object.keys(byYear).sort((a, b) => Number(b) - Number(a));
      expect(years.length).toBeGreaterThan(1);
      for (const year of years.slice(0, 3)) {
        await section.getByText(year, { exact: true }).click();
        const names = byYear[year]!.map((e) => e.event_name);
        await expect(section.locator('.fl-event-card')).toHaveCount(names.length);
        for (const name of names) await expect(section.locator('.fl-event-card').filter({ hasText: name })).toBeVisible();
      }
    }
  });

  test("upcoming cards offer 'Pre Order' only when pre-order is allowed and the race is ahead", async ({ page }) => {
    const home = await api<Home>('/api/home');
    await page.goto('/');
    const section = page.getByTestId('upcoming-events');
    const today = new Date();
    for (const event of home.upcoming_event) {
      const card = section.locator('.fl-event-card').filter({ hasText: event.event_name });
      const expected = event.preorder_allowed === 1 && new Date(event.event_from_date) > today;
      await expect(card.getByRole('button', { name: 'Pre Order' })).toHaveCount(expected ? 1 : 0);
    }
  });

  test('looks right at 360px: no sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    await expect(page.getByTestId('past-events').locator('.fl-event-card').first()).toBeVisible();
    await chooseEvent(page);
    await expect(page.getByRole('tab', { name: 'Search by Selfie' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test('the hero offers Pre-Booked Photos and Unlabeled Photos links by the event flags, and a new event clears cached event data', async ({ page }) => {
    await page.goto('/');
    await chooseEvent(page);
    await expect(page.getByTestId('hero-panel').getByRole('button', { name: 'Unlabeled Photos' })).toBeVisible();
    await page.evaluate(() => {
      localStorage.setItem('achievementsEligibility', '{"certificate_eligible":true}');
      localStorage.setItem('event_template_data', '{}');
      localStorage.setItem('event_photos_data', '[]');
    });
    await chooseEvent(page, 'Bengaluru Heritage Half 2025');
    await expect(page.getByTestId('hero-panel').getByRole('button', { name: 'Unlabeled Photos' })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Search by Selfie' })).toHaveCount(0);
    const cached = await page.evaluate(() => ['achievementsEligibility', 'event_template_data', 'event_photos_data'].map((k) => localStorage.getItem(k)));
    expect(cached).toEqual([null, null, null]);
  });
});

test.describe('Advanced search', () => {
  test('by theme: the events of the theme, a BIB per event, which have photos', async ({ page }) => {
    const themes = await api<{ evtthemes: Array<{ evtcode: string; evtname: string }> }>('/api/events/themes');
    const marathon = themes.evtthemes.find((t) => t.evtcode === 'MAR')!;
    const events = await api<EventRow[]>('/api/events/multi', { searchtxt: 'MAR' });
    const expected = await apiBibSearch(DEMO_BIB);

    await openAdvancedSearch(page);
    await page.getByRole('combobox', { name: 'Theme' }).click();
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${marathon.evtname}$`) })
      .click();
    const rows = page.getByTestId('advanced-row');
    await expect(rows).toHaveCount(Math.min(events.length, 4));
    await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(events.length > 4 ? 1 : 0);

    await page.getByLabel(`BIB for ${DEMO_EVENT}`).fill(DEMO_BIB.toLowerCase());
    const other = events.find((e) => e.event_name !== DEMO_EVENT)!;
    await page.getByLabel(`BIB for ${other.event_name}`).fill('ZZ00000');
    await page.getByRole('button', { name: 'Check photos' }).click();
    await expect(rows.filter({ hasText: DEMO_EVENT })).toContainText(`${expected.photos} photos`);
    await expect(rows.filter({ hasText: other.event_name })).toContainText('No photos');

    await rows.filter({ hasText: DEMO_EVENT }).getByRole('button', { name: 'View photos' }).click();
    await page.waitForURL('**/products');
    await expect(page.getByTestId('congrats-bar')).toContainText(`There are ${expected.photos} photos`);
  });

  test('by year: Previous and Next page through more than 5 events', async ({ page }) => {
    const themes = await api<{ evtyears: Array<{ evtyear: number }> }>('/api/events/themes');
    const counts = await Promise.all(
      themes.evtyears.map(async (y) => ({ year: String(y.evtyear), events: await api<EventRow[]>('/api/events/multi', { searchtxt: String(y.evtyear) }) })),
    );
    const busy = counts.find((c) => c.events.length > 5);
    const quiet = counts.find((c) => c.events.length > 0 && c.events.length <= 5);

    await openAdvancedSearch(page);
    await page.getByTestId('advanced-search').getByText('By year', { exact: true }).click();
    if (quiet) {
      await page.getByRole('combobox', { name: 'Year' }).click();
      await page
        .locator('.ant-select-item-option')
        .filter({ hasText: new RegExp(`^${quiet.year}$`) })
        .click();
      await expect(page.getByTestId('advanced-row')).toHaveCount(quiet.events.length);
      await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0);
    }
    let listed = busy;
    if (!listed) {
      // The demo data has no year with more than 5 events: that year's list answers with every
      // event instead, so the paging of the table itself is exercised.
      const all = await api<{ events: EventRow[] }>('/api/events/names');
      // Another year than the one just shown, so choosing it asks the server again.
      const year = themes.evtyears.find((y) => String(y.evtyear) !== quiet?.year)!.evtyear;
      listed = { year: String(year), events: all.events };
      await page.route('**/api/events/multi', (route) =>
        route.fulfill({ contentType: 'application/json', body: JSON.stringify({ StatusCode: 200, Message: 'Success', HasError: false, result: all.events }) }),
      );
    }
    expect(listed.events.length).toBeGreaterThan(5);
    await page.getByRole('combobox', { name: 'Year' }).click();
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${listed.year}$`) })
      .click();
    const rows = page.getByTestId('advanced-row');
    await expect(rows).toHaveCount(5);
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(rows).toHaveCount(Math.min(5, listed.events.length - 5));
    await expect(rows.first()).toContainText(listed.events[5]!.event_name);
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(rows.first()).toContainText(listed.events[0]!.event_name);
  });
});

test.describe('Unlabeled photos', () => {
  test('50 photos a page, pages from the paginate call, Add To Cart and Proceed to Checkout', async ({ page }) => {
    const eventID = await apiEventId(DEMO_EVENT);
    const form = new FormData();
    form.append('event_id', String(eventID));
    form.append('bib_number', 'unlabeled');
    const first = (await (await fetch(`${API_URL}/api/photos/paginate`, { method: 'POST', body: form })).json()) as {
      result: { pagination: { total: number }; photos: Array<{ imageid: string }> };
    };
    expect(first.result.pagination.total).toBeGreaterThan(50);

    await page.goto('/');
    await chooseEvent(page);
    await page.getByTestId('hero-panel').getByRole('button', { name: 'Unlabeled Photos' }).click();
    await page.waitForURL('**/unlabeled-events');
    await expect(page.getByRole('tab', { name: 'Photos' })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveCount(1);
    const photos = page.getByTestId('unlabeled-photo');
    await expect(photos).toHaveCount(50);
    await expect(photos.first()).toContainText(first.result.photos[0]!.imageid);
    await expect(page.getByRole('button', { name: /Collage/ })).toHaveCount(0);
    // The photos page's bottom bar: absent while the cart is empty, then the spec's sentence and the server's total.
    const bar = page.getByTestId('cart-bottom-bar');
    await expect(bar).toHaveCount(0);

    await photos.first().getByRole('button', { name: 'Add To Cart' }).click();
    await expect(photos.first().getByRole('button', { name: 'Added' })).toBeVisible();
    await expect(bar).toContainText('You have 1 Image(s) / 0 Print(s) / 0 Collage(s)');
    await expect(bar.getByTestId('bottom-bar-total')).toHaveText(/^₹\d+$/);

    await page.locator('.ant-pagination-item-2').click();
    await expect(photos).toHaveCount(Math.min(50, first.result.pagination.total - 50));
    await expect(photos.first()).not.toContainText(first.result.photos[0]!.imageid);

    await bar.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click();
    await page.waitForURL('**/unlabeled-cart');
    expect(await page.evaluate(() => localStorage.getItem('bibId'))).toBe('unlabeled');
  });

  test('a failed page shows the message and retries', async ({ page }) => {
    await page.goto('/');
    await chooseEvent(page);
    let fail = true;
    await page.route('**/api/photos/paginate', (route) => (fail ? route.abort() : route.continue()));
    await page.getByTestId('hero-panel').getByRole('button', { name: 'Unlabeled Photos' }).click();
    await expect(page.getByText('Failed to fetch images for page. Please try again.')).toBeVisible();
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('unlabeled-photo')).toHaveCount(50);
  });

  test('an event without unlabeled photos shows the empty message with a link home', async ({ page }) => {
    await page.goto('/');
    await chooseEvent(page);
    await page.route('**/api/photos/paginate', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          StatusCode: 200,
          Message: 'Success',
          HasError: false,
          result: {
            eventId: 1,
            eventName: DEMO_EVENT,
            eventLogo: '',
            bibNumber: 'unlabeled',
            photos: [],
            pagination: { current_page: 1, per_page: 50, total: 0, last_page: 1 },
            awsImageExpary: new Date(Date.now() + 3600_000).toISOString(),
          },
        }),
      }),
    );
    await page.getByTestId('hero-panel').getByRole('button', { name: 'Unlabeled Photos' }).click();
    await expect(page.getByText('No Images found for this run')).toBeVisible();
    await page.getByRole('link', { name: 'Go to home page' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });
});

test.describe('Search session', () => {
  test('after the stored expiry the expired message shows; Go back clears it and goes home', async ({ page }) => {
    await page.goto('/');
    await chooseEvent(page);
    await page.evaluate(() => localStorage.setItem('awsImageExpiry', new Date(Date.now() - 60_000).toISOString()));
    await page.goto('/unlabeled-events');
    await expect(page.getByText('Oops !!..Your search session is expired please search again get the valid images')).toBeVisible();
    await page.getByRole('button', { name: 'Go back' }).click();
    await expect(page).toHaveURL(/\/home$/);
    expect(await page.evaluate(() => localStorage.getItem('awsImageExpiry'))).toBeNull();
  });
});
