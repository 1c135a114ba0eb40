import { expect, test, type Page } from '@playwright/test';
import { accessibilityProblems, expectNoSidewaysScroll, MIN_TARGET_PX, smallTargets } from '../support/accessibility';
import { apiEventId, chooseEvent, DEMO_EVENT } from '../support/storefront';
import { API_URL } from '../support/system';
import { keepReceivedImages, MARKED_SHARE, watermarkReport } from '../support/watermark';
import { accountMenuEntries, DEMO_PASSWORD, DEMO_USERS, formNamed, signInThroughForm } from './accounts.helpers';
import { bottomBar, photoCards, rupees, serverBill } from './cart.helpers';

/**
 * The runner's journey as a new runner walks it, on a phone (360 by 740, touch, device scale 2) and
 * on a desktop (1280 by 800, mouse): home, event, BIB search, photos, cart, checkout. On every page:
 * nothing scrolls sideways and axe finds no serious or critical problem; on the phone every control
 * a thumb can hit is also at least 44 by 44 px. Every photo the browser received carries the watermark.
 */
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const BIB = 'TT20609'; // 4 photos; the event's sponsor offer covers at most 3 of them

const PHONE_USE = { viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const DEVICES = [
  { name: 'phone (360 x 740, touch)', touch: true, use: PHONE_USE },
  { name: 'desktop (1280 x 800, mouse)', touch: false, use: { viewport: DESKTOP, hasTouch: false, isMobile: false, deviceScaleFactor: 1 } },
];

interface EventSummary {
  event_name: string;
  event_from_date: string;
  issearchable: number;
  bib_example?: string | null;
}

/** The events the server lists (the event box's suggestions come from them). */
async function apiEvents(): Promise<EventSummary[]> {
  const body = (await (await fetch(`${API_URL}/api/events/names`)).json()) as { result: { events: EventSummary[] } };
  return body.result.events;
}

type Point = { x: number; y: number };

/**
 * A finger's swipe and a two-finger pinch through Chromium's own touch pipeline (CDP's gesture
 * synthesizers send real touch and pointer events, as a phone's screen does; a second CDP session's
 * Input.dispatchTouchEvent reached no listener here).
 */
async function swipe(page: Page, from: Point, xDistance: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.synthesizeScrollGesture', { x: from.x, y: from.y, xDistance, yDistance: 0, gestureSourceType: 'touch', speed: 800 });
  await cdp.detach();
}

async function pinch(page: Page, at: Point, scaleFactor: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.synthesizePinchGesture', { x: at.x, y: at.y, scaleFactor, gestureSourceType: 'touch', relativeSpeed: 300 });
  await cdp.detach();
}

/** The width the photo is drawn at inside its box (object-fit: contain), once it has loaded. */
async function drawnPhotoWidth(page: Page): Promise<number> {
  const photo = page.getByTestId('zoom-stage').locator('img');
  await expect(photo).toHaveJSProperty('complete', true);
  return photo.evaluate((img: HTMLImageElement) => {
    const box = img.getBoundingClientRect();
    return Math.min(box.width, (box.height * img.naturalWidth) / Math.max(1, img.naturalHeight));
  });
}

/** The phone's sticky bars (the header once stuck, the page's bottom bar) must leave 85% of the screen. */
const MAX_STICKY_PX = Math.floor(PHONE.height * 0.15);

/**
 * The screen height the page's bars keep, scrolled to its end: every fixed bar (bottom bar, cookie
 * notice) and every sticky one that stays put while the page scrolls (the header once stuck), the
 * rows they cover counted once. Dialogs, drawers, dropdowns, toasts and full-screen overlays are not
 * bars; neither is anything narrower than half the screen (a floating button). The scroll is put back.
 */
async function stickyBars(page: Page): Promise<{ px: number; bars: string[] }> {
  return page.evaluate(async () => {
    const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
    const notBars =
      '.ant-modal-root, .ant-modal-wrap, .ant-drawer, .ant-select-dropdown, .ant-dropdown, .ant-tooltip, .ant-popover, .ant-message, .ant-notification, .ant-image-preview-root, [role="dialog"][aria-modal="true"]';
    const placed = () => {
      const found = new Map<Element, { top: number; bottom: number; fixed: boolean }>();
      for (const element of Array.from(document.body.querySelectorAll('*'))) {
        const position = getComputedStyle(element).position;
        if (position !== 'fixed' && position !== 'sticky') continue;
        if (element.closest(notBars) || !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        const box = element.getBoundingClientRect();
        const top = Math.max(0, box.top);
        const bottom = Math.min(window.innerHeight, box.bottom);
        if (bottom - top < 1 || box.width < window.innerWidth / 2 || box.height > window.innerHeight / 2) continue;
        found.set(element, { top, bottom, fixed: position === 'fixed' });
      }
      return found;
    };
    const start = window.scrollY;
    window.scrollTo(0, document.documentElement.scrollHeight);
    await settle();
    const atEnd = placed();
    const endY = window.scrollY;
    window.scrollTo(0, Math.max(0, endY - 150));
    await settle();
    const before = placed();
    const scrolled = window.scrollY !== endY;
    window.scrollTo(0, start);
    // A sticky element is a bar when it held its place on the screen while the page moved under it.
    const bars = Array.from(atEnd).filter(([element, at]) => at.fixed || (scrolled && before.get(element)?.top === at.top));
    const spans = bars.map(([, at]) => [at.top, at.bottom] as const).sort((a, b) => a[0] - b[0]);
    let px = 0;
    let reached = 0;
    for (const [top, bottom] of spans) {
      px += Math.max(0, bottom - Math.max(top, reached));
      reached = Math.max(reached, bottom);
    }
    const names = bars.map(
      ([element, at]) =>
        `${element.getAttribute('data-testid') ?? element.getAttribute('aria-label') ?? element.className} ${Math.round(at.bottom - at.top)} px`,
    );
    return { px: Math.round(px), bars: names };
  });
}

/**
 * No sideways scroll and no serious or critical axe finding on every screen; where a finger taps
 * (touch), the 44 px tap targets (WCAG 2.5.5) and the sticky bars within 15% of the phone's screen:
 * a mouse pointer keeps antd's desktop sizes (touch = false).
 */
async function expectFriendly(page: Page, where: string, touch = true): Promise<void> {
  await expectNoSidewaysScroll(page, where);
  if (touch) {
    expect.soft(await smallTargets(page), `controls under ${MIN_TARGET_PX} px on ${where}`).toEqual([]);
    const sticky = await stickyBars(page);
    expect
      .soft(sticky.px, `sticky bars on ${where} (${sticky.bars.join(', ') || 'none'}) take ${sticky.px} px of ${PHONE.height}`)
      .toBeLessThanOrEqual(MAX_STICKY_PX);
  }
  // axe reads the page from its top: scrolled down, the sticky header lies over whatever passed under
  // it (the photo tabs), and axe's target-size rule counts that as a covered target. Back afterwards.
  const scrolledTo = await page.evaluate(() => window.scrollY);
  await page.evaluate(() => window.scrollTo(0, 0));
  expect.soft(await accessibilityProblems(page), `serious or critical accessibility problems on ${where}`).toEqual([]);
  await page.evaluate((y) => window.scrollTo(0, y), scrolledTo);
}

for (const device of DEVICES) {
  test.describe(`the runner's flow on a ${device.name}`, () => {
    test.use(device.use);

    test('home, event, BIB search, photos, cart and checkout fit the screen; the offer shows in the bill at once; every photo is watermarked', async ({
      page,
      browser,
    }) => {
      const expectFitting = (where: string) => expectFriendly(page, where, device.touch);
      const received = keepReceivedImages(page);
      await page.goto('/');
      const navbar = page.getByTestId('navbar');
      const myCart = navbar.getByRole('button', { name: 'My Cart' });
      const signIn = navbar.getByRole('button', { name: 'Sign In' });
      await expect(myCart).toBeVisible();
      await expect(page.getByTestId('upcoming-events')).toBeVisible();
      await expectFitting('home');

      if (device.touch) {
        // The phone menu holds what the desktop bar holds for a visitor: the menu and Sign In.
        await navbar.getByRole('button', { name: 'Menu' }).click();
        const drawer = page.getByRole('dialog', { name: 'Menu' });
        for (const entry of ['Home', 'Events', 'FAQ', 'Contact Us', 'Sign In'])
          await expect(drawer.getByRole('button', { name: entry, exact: true })).toBeVisible();
        await expectFitting('the menu');
        await drawer.getByRole('button', { name: 'Close' }).click();
        await expect(drawer).toBeHidden();
      } else {
        for (const entry of ['Home', 'Events', 'FAQ', 'Contact Us', 'Sign In'])
          await expect(navbar.getByRole('button', { name: entry, exact: true })).toBeVisible();
      }

      // Home: the event suggestions come newest race first; the cards show whole names (two lines at
      // most, so the 2026 and 2027 editions can be told apart) with the full name in a tooltip.
      const listed = await apiEvents();
      await page.getByPlaceholder('Search your event').fill('Mumbai');
      const suggestions = page.locator('.ant-select-item-option');
      await expect(suggestions.first()).toBeVisible();
      const suggested = await suggestions.allInnerTexts();
      const newestFirst = listed
        .filter((event) => event.event_name.includes('Mumbai'))
        .sort((a, b) => b.event_from_date.localeCompare(a.event_from_date) || a.event_name.localeCompare(b.event_name));
      expect(suggested, 'suggestions in date order, the newest first').toEqual(newestFirst.map((event) => event.event_name).slice(0, suggested.length));
      await page.getByPlaceholder('Search your event').fill('');
      await page.keyboard.press('Escape');
      const cardNames = page.getByTestId('upcoming-events').locator('.fl-event-name');
      for (const cardName of await cardNames.all()) {
        const lines = await cardName.evaluate((el) => ({
          lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
          cut: el.scrollHeight > el.clientHeight + 1,
        }));
        expect(lines.lines, 'an event name takes at most two lines').toBeLessThanOrEqual(2);
        if (!lines.cut) continue;
        await cardName.hover();
        await expect(page.getByRole('tooltip')).toHaveText((await cardName.textContent()) ?? '');
      }
      await expect(cardNames.filter({ hasText: /^Mumbai Coastal Marathon 2027$/ })).toBeVisible();

      // The BIB hint comes from the chosen event's own BIB format: another event, another example.
      const otherEvent = listed.find((event) => event.issearchable && event.bib_example && !event.bib_example.startsWith('TT'));
      expect(otherEvent, 'a searchable demo event whose BIBs are not TT ones').toBeTruthy();
      await chooseEvent(page, otherEvent!.event_name);
      await expect(page.getByPlaceholder(`Enter your BIB number (ex: ${otherEvent!.bib_example})`)).toBeVisible();

      // The event and its BIB hint (the demo event's BIBs look like the spec's example).
      await chooseEvent(page, DEMO_EVENT);
      const bibBox = page.getByPlaceholder('Enter your BIB number (ex: TT20608)');
      await expect(bibBox).toBeVisible();
      await expectFitting('home with the event chosen');
      await bibBox.fill(BIB);
      await page.getByRole('button', { name: 'Find My Photos' }).click();
      await page.waitForURL('**/products');

      // Photos: no bottom bar while the cart is empty.
      await expect(photoCards(page).first()).toBeVisible();
      await expect(bottomBar(page)).toHaveCount(0);
      await expectFitting('photos');

      // The photo viewer; on the phone it fills the screen's width, swipes between photos and zooms by pinch.
      await photoCards(page)
        .first()
        .getByRole('button', { name: /^Open photo / })
        .click();
      const viewer = page.getByRole('dialog').filter({ has: page.getByTestId('photo-carousel') });
      const photoId = viewer.getByTestId('carousel-photo-id');
      await expect(photoId).toBeVisible();
      const firstId = await photoId.innerText();
      await expectFitting('the photo viewer');
      if (device.touch) {
        expect(await drawnPhotoWidth(page), 'the enlarged photo is drawn nearly as wide as the screen').toBeGreaterThanOrEqual(340);
        const stage = (await page.getByTestId('zoom-stage').boundingBox())!;
        const middle = { x: stage.x + stage.width / 2, y: stage.y + stage.height / 2 };
        // A swipe to the left shows the next photo, one to the right the previous one.
        await swipe(page, { x: middle.x + 100, y: middle.y }, -200);
        await expect(photoId).not.toHaveText(firstId);
        const secondId = await photoId.innerText();
        await swipe(page, { x: middle.x - 100, y: middle.y }, 200);
        await expect(photoId).toHaveText(firstId);
        await expect(page.getByTestId('zoom-stage')).toHaveAttribute('data-scale', '1.00');
        // Two fingers spread apart zoom in (and do not change the photo); Zoom out, the way without a gesture, zooms back.
        await pinch(page, middle, 2.5);
        await expect(page.getByTestId('zoom-stage')).not.toHaveAttribute('data-scale', '1.00');
        expect(Number(await page.getByTestId('zoom-stage').getAttribute('data-scale'))).toBeGreaterThan(1.5);
        await expect(photoId).toHaveText(firstId);
        const zoomOut = viewer.getByRole('button', { name: 'Zoom out' });
        for (let press = 0; press < 3 && (await zoomOut.isEnabled()); press++) {
          const before = (await page.getByTestId('zoom-stage').getAttribute('data-scale')) ?? '';
          await zoomOut.click();
          await expect(page.getByTestId('zoom-stage')).not.toHaveAttribute('data-scale', before);
        }
        await expect(zoomOut).toBeDisabled();
        await expect(page.getByTestId('zoom-stage')).toHaveAttribute('data-scale', '1.00');
        await viewer.getByRole('button', { name: 'Next photo' }).click();
        await expect(photoId).toHaveText(secondId);
      } else {
        await viewer.getByRole('button', { name: 'Next photo' }).click();
        await expect(photoId).not.toHaveText(firstId);
      }
      await viewer.getByRole('button', { name: 'Close' }).click();
      await expect(viewer).toBeHidden();

      await photoCards(page).first().getByRole('button', { name: 'Add To Cart' }).click();
      const bar = bottomBar(page);
      await expect(bar).toBeVisible();
      await expect(bar.getByTestId('bottom-bar-total')).toHaveText(rupees(118));
      await expectFitting('photos with the bottom bar');
      if (device.touch) {
        // One line: the bar is no taller than its 44 px button and its padding.
        expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(60);
        // Scrolled down the photos, the stuck header and the bottom bar together keep within 15% of the screen.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await expect(navbar).toHaveAttribute('data-sticky', 'true');
        const stickyPx = (await navbar.boundingBox())!.height + (await bar.boundingBox())!.height;
        expect(stickyPx, `sticky header and bottom bar take ${stickyPx} px of ${PHONE.height}`).toBeLessThanOrEqual(MAX_STICKY_PX);
        await page.evaluate(() => window.scrollTo(0, 0));
      }

      // The Videos tab counts videos.
      await page.getByRole('tab', { name: /Videos/ }).click();
      await expect(page.getByTestId('congrats-bar')).toContainText(/There (is 1 video|are \d+ videos) in this section/);
      await page.getByRole('tab', { name: /Photos/ }).click();

      // Cart with every photo; accepting the sponsor offer changes the bill at once.
      await page.getByRole('button', { name: 'Add all to cart' }).click();
      await bar.getByRole('button', { name: 'Proceed to checkout' }).click();
      await expect(page).toHaveURL(/\/cart$/);
      const modal = page.getByRole('dialog').filter({ hasText: 'Please Check to Avail this offer' });
      await expect(modal).toBeVisible();
      await expect(page.getByTestId('bill-summary')).toHaveAttribute('data-source', 'server');
      const before = await page.getByTestId('bill-total').innerText();
      await expectFitting('the sponsor offer');
      await modal.getByText('Please Check to Avail this offer').click();
      await expect(page.getByTestId('bill-discount')).toBeVisible();
      await expect(page.getByTestId('bill-total')).not.toHaveText(before);
      await expect(modal).toBeHidden();
      await expect(page.getByTestId('bill-summary')).toHaveAttribute('data-source', 'server');
      // The banner says the offer is taken (and how to undo it) instead of offering Apply again.
      const banner = page.getByTestId('sponsor-banner');
      await expect(banner.getByTestId('sponsor-applied')).toHaveText('✓ Offer applied to 3 photos');
      await expect(banner.getByRole('button', { name: 'Apply' })).toHaveCount(0);
      await expect(banner.getByRole('button', { name: 'Remove offer' })).toBeVisible();
      // The slideshow above Digital Downloads says what it shows; with reduced motion asked for (as
      // these journeys do) it starts paused, and Play starts it.
      const slideshow = page.getByRole('figure', { name: 'Photos in your cart' });
      await expect(slideshow).toContainText('Photos in your cart (1 of 3)');
      await slideshow.getByRole('button', { name: 'Play' }).click();
      await expect(slideshow.getByRole('button', { name: 'Pause' })).toBeVisible();
      const bill = await serverBill(page);
      expect(bill.discount).toBeGreaterThan(0);
      await expect(page.getByTestId('bill-total')).toHaveText(rupees(bill.total_amount));
      // This BIB has 4 photos and the packages apply from 10: they are not offered at all.
      await expect(page.getByTestId('digital-downloads')).toBeVisible();
      await expect(page.getByTestId('packages')).toHaveCount(0);
      // The badge sits beside My Cart, never over Sign In.
      const cartBox = (await myCart.boundingBox())!;
      const signInBox = (await signIn.boundingBox())!;
      const badgeBox = (await page.getByTestId('cart-count').boundingBox())!;
      expect(badgeBox.x + badgeBox.width).toBeLessThanOrEqual(signInBox.x);
      expect(cartBox.x + cartBox.width).toBeLessThanOrEqual(signInBox.x);
      await expectFitting('cart');

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
      await expectFitting('checkout');

      // Every photo the browser received (thumbnails, previews, the viewer's, the cart's) carries the
      // mark in its bytes; site pictures (logos, print products) come from public/ only.
      const report = await watermarkReport(browser, received);
      console.log(
        `[watermark] ${device.name}: ${report.checked.length} photos, share brightened ${report.checked.map((c) => c.share.toFixed(2)).join(' ')}; ${report.siteImages.length} site images, ${report.videoPosters.length} video posters, ${report.unread.length} unread`,
      );
      expect(report.checked.length, 'photos received').toBeGreaterThanOrEqual(4);
      expect(report.unread, 'images whose bytes were not read back').toEqual([]);
      expect(
        report.checked.filter((c) => c.share < MARKED_SHARE).map((c) => c.key),
        'photos received without the watermark',
      ).toEqual([]);
    });

    test("unlabeled photos and their cart, pre-order, selfie search and the runner's orders fit the screen too", async ({ page, browser }) => {
      const expectFitting = (where: string) => expectFriendly(page, where, device.touch);
      const received = keepReceivedImages(page);
      await page.goto('/');
      await chooseEvent(page, DEMO_EVENT);

      // Unlabeled photos: the photos page's bottom bar, only once the cart holds something.
      await page.getByTestId('hero-panel').getByRole('button', { name: 'Unlabeled Photos' }).click();
      await page.waitForURL('**/unlabeled-events');
      const photos = page.getByTestId('unlabeled-photo');
      await expect(photos.first()).toBeVisible();
      const bar = bottomBar(page);
      await expect(bar).toHaveCount(0);
      await expectFitting('unlabeled photos');
      await photos.first().getByRole('button', { name: 'Add To Cart' }).click();
      await expect(bar.getByTestId('bottom-bar-total')).toHaveText(/^₹\d+$/);
      if (!device.touch) {
        // A hovered button goes darker, never to antd's lighter orange (3.9:1); axe below sees it hovered.
        await photos.nth(1).getByRole('button', { name: 'Add To Cart' }).hover();
        await expect(photos.nth(1).getByRole('button', { name: 'Add To Cart' })).toHaveCSS('background-color', 'rgb(154, 52, 18)');
        await photos.first().getByRole('button', { name: 'Added' }).hover();
        await expect(photos.first().getByRole('button', { name: 'Added' })).toHaveCSS('color', 'rgb(154, 52, 18)');
      }
      if (device.touch) expect((await bar.boundingBox())!.height, 'the bar is one line').toBeLessThanOrEqual(60);
      await expectFitting('unlabeled photos with the bottom bar');
      await bar.getByRole('button', { name: 'Proceed to Checkout', exact: true }).click();
      await page.waitForURL('**/unlabeled-cart');
      await expect(page.getByTestId('bill-summary')).toHaveAttribute('data-source', 'server');
      await expectFitting('the unlabeled cart');

      // Pre-order: the event's offer and its form.
      await page.goto(`/preorder?eventId=${await apiEventId(DEMO_EVENT)}`);
      await expect(page.getByRole('heading', { name: `Pre-order ${DEMO_EVENT}` })).toBeVisible();
      await expectFitting('pre-order');

      // Selfie search: the tab, the notice about the face, then the camera or upload dialog.
      await page.goto('/');
      await chooseEvent(page, DEMO_EVENT);
      await page.getByRole('tab', { name: 'Search by Selfie' }).click();
      await expect(page.getByRole('tabpanel').getByRole('button', { name: 'Search by Selfie' })).toBeVisible();
      await expectFitting('the selfie search tab');
      await page.getByRole('tabpanel').getByRole('button', { name: 'Search by Selfie' }).click();
      const consent = page.getByTestId('face-consent');
      await expect(consent).toBeVisible();
      await expectFitting('the face search notice');
      await consent.getByRole('button', { name: 'I agree' }).click();
      await expect(page.getByTestId('selfie-modal')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Upload' })).toBeVisible();
      await expectFitting('the selfie dialog');
      await page.keyboard.press('Escape');

      // The demo runner's order history and one order's details.
      await signInThroughForm(page, DEMO_USERS.runner, DEMO_PASSWORD);
      await expect(page.getByTestId('account-button')).toBeVisible();
      await page.goto('/order-history');
      // A phone gets one card per order (BIB, value and status in view); the desktop keeps the table.
      const rows = device.touch ? page.getByTestId('order-card') : page.locator('.ant-table-tbody tr.ant-table-row');
      await expect(rows.filter({ hasText: 'Ahmedabad Riverfront Half 2026' }).first()).toBeVisible();
      if (device.touch) {
        await expect(page.locator('.ant-table')).toHaveCount(0);
        const card = rows.filter({ hasText: 'Ahmedabad Riverfront Half 2026' }).first();
        // Down the list the card may start below the fold; once scrolled to, nothing of it hides to the right.
        await card.scrollIntoViewIfNeeded();
        for (const label of ['Order Ref#', 'BIB ID', 'Order Value']) await expect(card.getByText(label, { exact: true })).toBeInViewport();
        await expect(card.getByRole('button', { name: 'Paid', exact: true })).toBeInViewport();
      }
      await expectFitting('the order history');
      await rows.filter({ hasText: 'Ahmedabad Riverfront Half 2026' }).getByRole('button', { name: 'Paid', exact: true }).first().click();
      const order = page.getByTestId('order-view');
      await expect(order.getByRole('button', { name: /^Download photo / }).first()).toBeVisible();
      await expectFitting('the order details');

      // Every photo received on these pages carries the mark too (the buyer's own order included:
      // its thumbnails are previews; the purchase is the download).
      const report = await watermarkReport(browser, received);
      console.log(
        `[watermark] ${device.name}, other pages: ${report.checked.length} photos; ${report.siteImages.length} site images, ${report.unread.length} unread`,
      );
      expect(report.checked.length, 'photos received').toBeGreaterThanOrEqual(2);
      expect(report.unread, 'images whose bytes were not read back').toEqual([]);
      expect(
        report.checked.filter((c) => c.share < MARKED_SHARE).map((c) => c.key),
        'photos received without the watermark',
      ).toEqual([]);
    });
  });
}

test.describe("the runner's phone (360 x 740, touch)", () => {
  test.use(PHONE_USE);

  test('the small controls a runner met are 44 px targets: Show, the captcha, the sign-in links, the cookie notice link', async ({ browser }) => {
    // A first visit, so the cookie notice is there too.
    const context = await browser.newContext({ ...PHONE_USE, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto('/sign-in');
    const form = page.getByRole('form', { name: 'Sign in' });
    await expect(form).toBeVisible();
    const boxOf = async (what: string, locator: ReturnType<Page['locator']>) => {
      await expect(locator, what).toBeVisible();
      const box = (await locator.boundingBox())!;
      return `${what} ${Math.round(box.width)}x${Math.round(box.height)}`;
    };
    const sizes = [
      await boxOf('Show', form.locator('.ant-input-password-icon')),
      await boxOf('captcha', form.locator('.altcha-checkbox-wrap label').first()),
      await boxOf('Forgot password?', page.getByRole('link', { name: 'Forgot password?' })),
      await boxOf('Create an account', page.getByRole('link', { name: 'Create an account' })),
      await boxOf('Privacy Policy', page.getByTestId('cookie-notice').getByRole('link', { name: 'Privacy Policy' })),
    ];
    const small = sizes.filter((size) => {
      const [w, h] = size.split(' ').at(-1)!.split('x').map(Number);
      return w < MIN_TARGET_PX || h < MIN_TARGET_PX;
    });
    expect(small, `controls under ${MIN_TARGET_PX} px: ${sizes.join(', ')}`).toEqual([]);
    await context.close();
  });

  // The desktop bar's account menu (the same entries for the role) against the phone drawer's.
  const ROLES = [
    { role: 'runner', email: DEMO_USERS.runner, entries: ['Orders History', 'Change Password', 'List your race', 'Log out'] },
    {
      role: 'partner',
      email: DEMO_USERS.partner,
      entries: ['Orders History', 'Change Password', 'Registration', 'Upload', 'My Photos', 'Videos', 'My Share', 'List your race', 'Log out'],
    },
    { role: 'organiser', email: DEMO_USERS.organiser, entries: ['Orders History', 'Change Password', 'Event Dashboard', 'Log out'] },
  ];
  for (const { role, email, entries } of ROLES) {
    test(`the phone menu holds what the desktop bar holds for a signed-in ${role}`, async ({ page }) => {
      await signInThroughForm(page, email, DEMO_PASSWORD);
      await expect(page.getByTestId('account-button')).toBeVisible();
      expect(await accountMenuEntries(page), "the account menu's entries").toEqual(entries);
      await page.getByTestId('navbar').getByRole('button', { name: 'Menu' }).click();
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      await expect(drawer.getByRole('navigation', { name: 'Main menu' }).getByRole('button')).toHaveText(['Home', 'Events', 'FAQ', 'Contact Us']);
      const account = drawer.getByRole('navigation', { name: 'Your account' });
      await expect(account.getByRole('button')).toHaveText(entries);
      await expectFriendly(page, `the menu of a signed-in ${role}`);
      if (role === 'organiser') {
        await account.getByRole('button', { name: 'Event Dashboard' }).click();
        await expect(page).toHaveURL(/\/organization_dashboard/);
        await expect(drawer).toBeHidden();
      }
    });
  }
});

test.describe("the runner's phone: the first visit (360 x 740, touch)", () => {
  test.use(PHONE_USE);
  // A browser that has never been here: no consent stored, the pre-order pop-up not seen.
  test.use({ storageState: { cookies: [], origins: [] } });

  test('the cookie notice leaves the page usable, and only one pop-up shows at a time', async ({ page }) => {
    await page.goto('/');
    const notice = page.getByRole('dialog', { name: 'We use cookies' });
    await expect(notice).toBeVisible();
    await expect(page.getByTestId('upcoming-events')).toBeVisible();
    // Not modal: no mask over the page, a strip along the bottom, and nothing else pops up meanwhile.
    await expect(notice).toHaveAttribute('aria-modal', 'false');
    await expect(page.locator('.ant-modal-mask')).toHaveCount(0);
    expect((await notice.boundingBox())!.height).toBeLessThanOrEqual(PHONE.height * 0.2);
    await expect(page.getByRole('dialog')).toHaveCount(1);
    await expectFriendly(page, 'the first visit');
    // The runner can search before answering.
    await chooseEvent(page, DEMO_EVENT);
    await expect(page.getByPlaceholder('Enter your BIB number (ex: TT20608)')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(1);
    // Once answered, nothing else pops up in this visit; the pre-order pop-up waits for the next one, alone.
    await notice.getByRole('button', { name: 'Accept Cookies' }).click();
    await expect(notice).toHaveCount(0);
    const popup = page.getByRole('dialog', { name: 'Pre-order your race photos' });
    await page.waitForTimeout(1_500);
    await expect(popup).toHaveCount(0);
    await page.goto('/');
    await expect(popup).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(1);
  });
});

/** The marquee text's running animation: its play state and how far it has moved (px). */
async function marqueeMotion(page: Page): Promise<{ animations: number; playState: string | null; x: number }> {
  return page.getByTestId('purchase-marquee-text').evaluate((text) => {
    const animations = text.getAnimations();
    return { animations: animations.length, playState: animations[0]?.playState ?? null, x: new DOMMatrix(getComputedStyle(text).transform).m41 };
  });
}

test.describe('the purchase marquee on the phone (WCAG 2.2.2: moving for more than 5 s, so it can be stopped)', () => {
  test.use(PHONE_USE);

  test('it scrolls, a labelled Pause button a thumb can hit stops it, and Play starts it again', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('/');
    const marquee = page.getByTestId('purchase-marquee');
    await expect(marquee.getByRole('marquee')).toHaveText(/^A runner just (bought|pre-ordered) photos of /);
    await expect.poll(async () => (await marqueeMotion(page)).playState).toBe('running');
    const pause = marquee.getByRole('button', { name: 'Pause purchase news' });
    await expect(pause).toHaveText(/Pause/);
    const box = (await pause.boundingBox())!;
    expect(Math.min(box.width, box.height), 'the Pause button is a 44 px target').toBeGreaterThanOrEqual(MIN_TARGET_PX - 0.5);
    await expectFriendly(page, 'home with the marquee moving');

    await pause.tap();
    const stopped = await marqueeMotion(page);
    expect(stopped.playState).toBe('paused');
    await page.waitForTimeout(600);
    expect((await marqueeMotion(page)).x, 'a paused marquee stays where it stopped').toBe(stopped.x);

    // A tap leaves no resting pointer and no keyboard focus behind: Play starts it again at once.
    await marquee.getByRole('button', { name: 'Play purchase news' }).tap();
    await expect.poll(async () => (await marqueeMotion(page)).playState).toBe('running');
    await expect.poll(async () => (await marqueeMotion(page)).x).not.toBe(stopped.x);
  });

  test('with reduced motion asked for, the whole notification stands still and there is nothing to pause', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const marquee = page.getByTestId('purchase-marquee');
    await expect(marquee.getByRole('marquee')).toHaveText(/^A runner just (bought|pre-ordered) photos of /);
    expect((await marqueeMotion(page)).animations).toBe(0);
    await expect(marquee.getByRole('button')).toHaveCount(0);
    // Wrapped, not cut: the strip shows all of its text.
    const track = marquee.getByRole('marquee');
    expect(await track.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  });
});

test.describe('the purchase marquee on a desktop (1280 x 800, mouse)', () => {
  test.use({ viewport: DESKTOP });

  test('it stops while the pointer rests on it and while its button has keyboard focus', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('/');
    const marquee = page.getByTestId('purchase-marquee');
    await expect.poll(async () => (await marqueeMotion(page)).playState).toBe('running');
    await marquee.getByRole('marquee').hover();
    await expect.poll(async () => (await marqueeMotion(page)).playState).toBe('paused');
    await page.mouse.move(5, DESKTOP.height - 5);
    await expect.poll(async () => (await marqueeMotion(page)).playState).toBe('running');
    // The keyboard reaches its button right after Sign In; while it holds focus the text stands still.
    await page.getByTestId('navbar').getByRole('button', { name: 'Sign In' }).focus();
    await page.keyboard.press('Tab');
    await expect(marquee.getByRole('button', { name: 'Pause purchase news' })).toBeFocused();
    await expect.poll(async () => (await marqueeMotion(page)).playState).toBe('paused');
    await page.keyboard.press('Shift+Tab');
    await expect(marquee.getByRole('button', { name: 'Pause purchase news' })).not.toBeFocused();
    await expect.poll(async () => (await marqueeMotion(page)).playState).toBe('running');
  });
});
