import { expect, test, type BrowserContext } from '@playwright/test';
import { DEMO_EVENT, DEMO_BIB, apiBibSearch, apiEventId } from '../support/storefront';
import { API_URL } from '../support/system';
import { DEMO_PASSWORD, DEMO_USERS, mailsTo, solveCaptcha } from './accounts.helpers';
import { bottomBar, photoCards, searchBib, signIn } from './cart.helpers';

const PRIVATE_EVENT = 'Bengaluru Heritage Half 2025';
const PRIVATE_BIB = 'BH21042';

test.describe('photo selection (/products)', () => {
  test('select and unselect photos, add all and EMPTY CART, kept over a reload', async ({ page }) => {
    await searchBib(page, DEMO_EVENT, DEMO_BIB);
    const first = photoCards(page).first();
    await first.getByRole('button', { name: 'Add To Cart' }).click();
    await expect(first.getByRole('button', { name: 'Added' })).toBeVisible();
    await expect(bottomBar(page)).toContainText('You have 1 Image(s) / 0 Video(s) / 0 Print(s) / 0 Collage(s)');
    await expect(bottomBar(page).getByTestId('bottom-bar-total')).toHaveText('₹118'); // 100 + 18 GST
    await first.getByRole('button', { name: 'Added' }).click();
    await expect(first.getByRole('button', { name: 'Add To Cart' })).toBeVisible();
    // an empty cart has no bottom bar, so 'Proceed to checkout' never leads to an empty cart
    await expect(bottomBar(page)).toHaveCount(0);

    const count = await photoCards(page).count();
    await page.getByRole('button', { name: 'Add all to cart' }).click();
    await expect(bottomBar(page)).toContainText(`You have ${count} Image(s)`);
    await expect(photoCards(page).getByRole('button', { name: 'Added' })).toHaveCount(count);
    // The shop store survives a reload, and the toggle starts as EMPTY CART when all are in.
    await page.reload();
    await expect(page.getByRole('button', { name: 'EMPTY CART' })).toBeVisible();
    await page.getByRole('button', { name: 'EMPTY CART' }).click();
    await expect(bottomBar(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add all to cart' })).toBeVisible();
  });

  test('carousel with Photo ID, Instant Download Available and the enlarge view; videos to the cart', async ({ page }) => {
    await searchBib(page, DEMO_EVENT, DEMO_BIB);
    await photoCards(page)
      .first()
      .getByRole('button', { name: /Open photo/ })
      .click();
    const carousel = page.getByRole('dialog').filter({ has: page.getByTestId('photo-carousel') });
    await expect(carousel.getByTestId('carousel-photo-id')).toHaveText(/^Photo ID: MCM26-\d+$/);
    const firstId = await carousel.getByTestId('carousel-photo-id').innerText();
    await expect(carousel.getByText('Instant Download Available')).toBeVisible();
    await carousel.getByRole('button', { name: 'Next photo' }).click();
    await expect(carousel.getByTestId('carousel-photo-id')).not.toHaveText(firstId);
    // The keyboard and the mouse do what a phone's swipe and pinch do.
    await page.keyboard.press('ArrowLeft');
    await expect(carousel.getByTestId('carousel-photo-id')).toHaveText(firstId);
    const stage = carousel.getByTestId('zoom-stage');
    await stage.dblclick();
    await expect(stage).toHaveAttribute('data-scale', '2.00');
    await page.keyboard.press('+');
    await expect(stage).toHaveAttribute('data-scale', '4.00');
    await carousel.getByRole('button', { name: 'Zoom out' }).click();
    await page.keyboard.press('0');
    await expect(stage).toHaveAttribute('data-scale', '1.00');
    await page.keyboard.press('ArrowRight');
    await expect(carousel.getByTestId('carousel-photo-id')).not.toHaveText(firstId);
    await carousel.getByRole('button', { name: 'Enlarge' }).click();
    await expect(page.getByTestId('enlarged-photo').locator('img')).toBeVisible();
    await page.getByTestId('enlarged-photo').getByRole('button', { name: 'Close' }).click();
    await carousel.getByRole('button', { name: 'Add To Cart' }).click();
    await expect(bottomBar(page)).toContainText('You have 1 Image(s)');
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: /Videos/ }).click();
    const video = page.getByTestId('video-card').first();
    await expect(video.getByRole('button', { name: 'Play' })).toBeVisible();
    await video.getByRole('button', { name: 'Add To Cart' }).click();
    await expect(bottomBar(page)).toContainText('You have 1 Image(s) / 1 Video(s)');
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByTestId('videos-section')).toBeVisible();
  });

  test('each result photo is described to screen readers; the spec sentence shows only where a file fails to load', async ({ page }) => {
    await searchBib(page, DEMO_EVENT, DEMO_BIB);
    const cards = photoCards(page);
    await expect(cards.first()).toBeVisible();
    const total = await cards.count();
    expect(total).toBeGreaterThan(1);
    const described = (name: RegExp) => cards.getByRole('img', { name });
    const any = new RegExp(`^Photo \\d+ of ${total}, BIB ${DEMO_BIB}, ${DEMO_EVENT}$`);
    await expect(described(any)).toHaveCount(total);
    await expect(cards.first().getByRole('img')).toHaveAccessibleName(`Photo 1 of ${total}, BIB ${DEMO_BIB}, ${DEMO_EVENT}`);

    // The second photo's file is refused, as a dropped connection would leave it (routing also turns the cache off).
    const lost = (await cards.nth(1).locator('img').getAttribute('src'))!;
    await page.route(
      (url) => url.href === lost,
      (route) => route.abort(),
    );
    await page.reload();
    await expect(cards.getByRole('img', { name: 'Please refresh the page or remove this image' })).toHaveCount(1);
    await expect(described(any)).toHaveCount(total - 1);
  });

  test('a print from the print modal and a collage, warned under 3 photos', async ({ page }) => {
    await searchBib(page, DEMO_EVENT, DEMO_BIB);
    await photoCards(page).nth(0).getByRole('button', { name: 'Order prints' }).click();
    const modal = page.getByTestId('print-products');
    for (const text of [
      'Magnet 4x6 inches',
      '₹739',
      '(₹872 with GST)',
      'Coffee mug',
      '(₹306 with GST)',
      'Wall poster 13x10 inches',
      '(₹413 with GST)',
      '(₹376 with GST)',
    ]) {
      await expect(modal).toContainText(text);
    }
    await modal.getByRole('button', { name: 'Add Coffee mug' }).click();
    await expect(modal.getByRole('button', { name: 'Remove Coffee mug' })).toHaveText('Added');
    await page.getByRole('button', { name: 'Done' }).click();

    await photoCards(page).nth(1).getByTestId('collage').click();
    await photoCards(page).nth(2).getByTestId('collage').click();
    await expect(photoCards(page).nth(2).getByTestId('collage')).toHaveText('Added');
    await expect(bottomBar(page)).toContainText('You have 0 Image(s) / 0 Video(s) / 1 Print(s) / 2 Collage(s)');
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();

    await expect(page.getByTestId('prints-section')).toContainText('Coffee mug');
    await expect(page.getByTestId('collage-section')).toContainText('*Minimum 3 photos are mandatory to make collage');
    await expect(page.getByTestId('bill-summary')).toContainText('Minimum 3 photos and maximum 5 are mandatory to make collage');
    await expect(page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' })).toBeDisabled();
    await expect(page.getByTestId('collage-section').getByRole('button', { name: 'Preview collage' })).toBeDisabled();

    await page.getByRole('button', { name: '+ Add more collages' }).click();
    await photoCards(page).nth(3).getByTestId('collage').click();
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    await expect(page.getByTestId('collage-section')).not.toContainText('*Minimum 3 photos');
    await page.getByTestId('collage-section').getByText('Horizontal (landscape 3ft x 2ft)').click();
    // mug 259 + 47 GST, collage 1179 + 212 GST
    await expect(page.getByTestId('bill-summary')).toHaveAttribute('data-source', 'server');
    await expect(page.getByTestId('bill-total')).toHaveText('₹1,697');
    await expect(page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' })).toBeEnabled();

    // Before paying, the collage as it will be printed: landscape 3 ft x 2 ft, from the watermarked photos.
    await page.getByTestId('collage-section').getByRole('button', { name: 'Preview collage' }).click();
    const preview = page.getByRole('dialog', { name: 'Your journey map collage' });
    const image = preview.getByRole('img', { name: 'Preview of your journey map collage' });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1080, 720]);
    await expect(preview).toContainText(
      'A preview from the watermarked photos. Your collage is printed landscape, 3 ft x 2 ft, from the original photos, without watermarks.',
    );
  });

  test("report needs sign-in; Not Me leaves only the reporter's view and can be undone; Hide is for the BIB's owner", async ({ page }) => {
    const bib = 'TT20612'; // a demo BIB with several photos that no other journey uses
    await searchBib(page, DEMO_EVENT, bib);
    await page.getByRole('button', { name: 'Report picture(s)' }).click();
    await expect(page.locator('.ant-modal-confirm-title')).toHaveText('You must log in to perform this action');
    await page.getByRole('button', { name: 'OK' }).click();

    await signIn(page, DEMO_USERS.runner, DEMO_PASSWORD);
    await searchBib(page, DEMO_EVENT, bib);
    await expect(photoCards(page).first()).toBeVisible(); // count() does not wait for the grid
    const before = await photoCards(page).count();
    expect(before).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Report picture(s)' }).click();
    await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
    await page.getByRole('button', { name: 'Hide' }).click();
    await expect(page.locator('.ant-message-warning')).toContainText('Select atleast one photo.');

    // The demo runner bought nothing of this BIB: Hide is refused, nothing changes.
    await photoCards(page).nth(0).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Hide' }).click();
    await expect(page.locator('.ant-message-warning', { hasText: 'Only the runner of this BIB can hide its photos' })).toBeVisible();
    await expect(photoCards(page)).toHaveCount(before);

    await page.getByRole('button', { name: 'Not Me' }).click();
    const reported = page.locator('.ant-message-success', { hasText: 'Your report has been sent to the organiser' });
    await expect(reported).toBeVisible();
    await expect(page.getByTestId('congrats-bar')).toContainText(`There are ${before - 1} photos`);
    // Everyone else still sees the photo until the organiser upholds the report.
    expect((await apiBibSearch(bib)).photos).toBe(before);

    await reported.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByTestId('congrats-bar')).toContainText(`There are ${before} photos`);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('button', { name: 'Report picture(s)' })).toBeVisible();
  });

  test('privacy OTP: the API withholds the photos until the mailed code is verified', async ({ page }) => {
    const direct = await apiBibSearch(PRIVATE_BIB, PRIVATE_EVENT);
    expect(direct.status).toBe(200);
    expect(direct.photos).toBe(0);

    await searchBib(page, PRIVATE_EVENT, PRIVATE_BIB);
    const drawer = page.locator('.ant-drawer').filter({ hasText: 'Verify it is you' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByTestId('otp-email')).toHaveText('ru****@finishline.test');
    await expect(photoCards(page)).toHaveCount(0);
    // Behind the sheet the page says how many photos wait, never "0 photos".
    expect(direct.totalPhotos).toBeGreaterThan(1);
    await expect(page.getByTestId('congrats-bar')).toContainText(`${direct.totalPhotos} photos are waiting for you. Enter the one-time password to see them.`);
    await expect(page.getByTestId('congrats-bar')).not.toContainText('There are 0 photos');
    await expect(drawer.getByTestId('otp-resend')).toBeDisabled();
    await expect(drawer.getByTestId('otp-resend')).toHaveText(/Resend in \d+s/);

    let code = '';
    await expect(async () => {
      const mails = await mailsTo(DEMO_USERS.runner, 'privacy_otp');
      code = /is (\d{6})\./.exec(mails[0]?.text ?? '')?.[1] ?? '';
      expect(code).toMatch(/^\d{6}$/);
    }).toPass();

    const input = drawer.getByLabel('OTP');
    await input.fill('12ab56');
    await expect(input).toHaveValue('1256');
    await input.fill('1234567');
    await expect(input).toHaveValue('123456');
    const wrong = code === '000000' ? '111111' : '000000';
    await input.fill(wrong);
    await drawer.getByRole('button', { name: 'Verify' }).click();
    await expect(page.locator('.ant-message-warning')).toContainText('Invalid OTP. 4 attempts left.');

    await input.fill(code);
    await drawer.getByRole('button', { name: 'Verify' }).click();
    await expect(page.locator('.ant-message-success').filter({ hasText: 'OTP Verified Successfully' })).toBeVisible();
    await expect(drawer).toBeHidden();
    await expect(photoCards(page).first()).toBeVisible();
    await expect(page.getByTestId('congrats-bar')).toContainText('There are 6 photos');
  });

  test("privacy OTP: once the BIB had a few codes, the drawer asks for a captcha, then mails the owner's code", async ({ page }) => {
    // Someone else asks for this BIB's codes through the API until a further one needs a captcha.
    const eventID = await apiEventId(PRIVATE_EVENT);
    const post = async (route: string, body: unknown) => {
      const response = await fetch(`${API_URL}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { Message: string; result: { session_token?: string; captcha?: string } | null } };
    };
    const sessionToken = (await post('/api/events/details', { eventID, eventName: PRIVATE_EVENT })).body.result!.session_token!;
    let answer = await post('/api/otp/generate', { eventID, bibNumber: PRIVATE_BIB, sessionToken });
    for (let i = 0; i < 5 && answer.status === 200; i++) answer = await post('/api/otp/generate', { eventID, bibNumber: PRIVATE_BIB, sessionToken });
    const captchaNeeded = 'Several OTPs were sent for this BIB recently. Please complete the captcha to get another one.';
    expect(answer).toEqual({ status: 400, body: expect.objectContaining({ Message: captchaNeeded, result: { captcha: 'standard' } }) });
    const mailsBefore = (await mailsTo(DEMO_USERS.runner, 'privacy_otp')).length;

    // The owner searches: the drawer's own request is asked for the captcha, which the drawer then shows.
    await searchBib(page, PRIVATE_EVENT, PRIVATE_BIB);
    const drawer = page.locator('.ant-drawer').filter({ hasText: 'Verify it is you' });
    await expect(page.locator('.ant-message-warning')).toContainText(captchaNeeded);
    await expect(drawer.getByTestId('captcha')).toBeVisible();
    await solveCaptcha(drawer, 'Resend');
    await drawer.getByRole('button', { name: 'Resend', exact: true }).click();
    await expect(page.locator('.ant-message-success').filter({ hasText: 'OTP sent to ru****@finishline.test' })).toBeVisible();

    let code = '';
    await expect(async () => {
      const mails = await mailsTo(DEMO_USERS.runner, 'privacy_otp');
      expect(mails).toHaveLength(mailsBefore + 1);
      code = /is (\d{6})\./.exec(mails[0]!.text)?.[1] ?? '';
    }).toPass();
    await drawer.getByLabel('OTP').fill(code);
    await drawer.getByRole('button', { name: 'Verify' }).click();
    await expect(drawer).toBeHidden();
    await expect(photoCards(page).first()).toBeVisible();
  });

  // The early copy sits under the header's purchase marquee; under reduced motion (as this suite runs) a long
  // notification wraps to more lines on a phone, which the copy must measure. The second case makes the
  // server's latest notification that long (the answer is the server's own, its text lengthened).
  const LONG_NOTIFICATION =
    'Somebody who ran the Finishline Demo Marathon just bought a package of every photo and video of their race, with a printed collage and a certificate';
  for (const notification of ['as the server says it', 'wrapped to three lines'] as const) {
    test(`painted before the JavaScript from the kept search (notification ${notification}): the first row where the grid puts it, then the grid takes over without a second download`, async ({
      browser,
      baseURL,
    }) => {
      const phone = { baseURL, viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, reducedMotion: 'reduce' as const };
      const lengthen = async (context: BrowserContext) => {
        if (notification === 'as the server says it') return;
        await context.route(/\/api\/orders\/purchase-notification$/, async (route) => {
          const answer = await route.fetch();
          const envelope = await answer.json();
          await route.fulfill({ response: answer, json: { ...envelope, result: { ...envelope.result, purchase_notification: LONG_NOTIFICATION } } });
        });
      };
      const searched = await browser.newContext(phone);
      await lengthen(searched);
      const page = await searched.newPage();
      await searchBib(page, DEMO_EVENT, DEMO_BIB);
      const gridPhoto = page.getByTestId('photo-grid').locator('img').first();
      await expect.poll(() => gridPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      const thumbnail = await gridPhoto.evaluate((img: HTMLImageElement) => img.currentSrc);
      const gridBox = await gridPhoto.boundingBox();
      // The case is what it says: the header's marquee is one line (28 px) or three.
      const marqueeHeight = (await page.getByTestId('purchase-marquee').boundingBox())?.height ?? 0;
      if (notification === 'wrapped to three lines') expect(marqueeHeight).toBeGreaterThan(60);
      // What the storefront keeps in the browser after the search (the result with its signed links).
      const kept = await searched.storageState();
      await searched.close();

      // Without the shell's JavaScript (blocked, as when it is late or fails) the first photo is on screen
      // already, the same file, exactly where the grid shows it.
      const blocked = await browser.newContext({ ...phone, storageState: kept });
      await lengthen(blocked);
      const early = await blocked.newPage();
      await early.route(/\/main\.js$/, (route) => route.abort());
      await early.goto('/products');
      const earlyPhoto = early.locator('#fl-first-paint .fl-fp-photo img').first();
      await expect.poll(() => earlyPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc)).toBe(thumbnail);
      const earlyBox = await earlyPhoto.boundingBox();
      expect(earlyBox && gridBox).toBeTruthy();
      const apart = Math.max(...(['x', 'y', 'width', 'height'] as const).map((side) => Math.abs(earlyBox![side] - gridBox![side])));
      expect(apart, `early ${JSON.stringify(earlyBox)}, grid ${JSON.stringify(gridBox)}`).toBeLessThanOrEqual(1);
      // Its words are drawn, not text of the document: the page's texts exist once.
      await expect(early.locator('#fl-first-paint')).toHaveAttribute('aria-hidden', 'true');
      await expect(early.getByText('Congratulations.', { exact: false })).toHaveCount(0);
      await blocked.close();

      // With the JavaScript the grid replaces the copy; the thumbnail was downloaded once (a cold cache).
      const cold = await browser.newContext({ ...phone, storageState: kept });
      await lengthen(cold);
      const requested: string[] = [];
      cold.on('request', (request) => requested.push(request.url()));
      const loaded = await cold.newPage();
      await loaded.goto('/products');
      await expect
        .poll(() =>
          loaded
            .getByTestId('photo-grid')
            .locator('img')
            .first()
            .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        )
        .toBe(true);
      await expect(loaded.locator('#fl-first-paint')).toHaveCount(0);
      await expect(loaded.getByTestId('congrats-bar')).toContainText('Congratulations. There are');
      expect(requested.filter((url) => url === thumbnail)).toHaveLength(1);
      await cold.close();
    });
  }

  test('an expired search paints no early photos: the page says the session expired', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    await searchBib(page, DEMO_EVENT, DEMO_BIB);
    await expect(photoCards(page).first()).toBeVisible();
    await page.evaluate(() => localStorage.setItem('awsImageExpiry', new Date(Date.now() - 60_000).toISOString()));
    const early = await context.newPage();
    await early.route(/\/main\.js$/, (route) => route.abort());
    await early.goto('/products');
    // The copy would be painted right after the purchase notification's answer (its place depends on it).
    await expect
      .poll(() => early.evaluate(() => !!(window as { __FINISHLINE_PRELOAD__?: { notificationAnswer?: unknown } }).__FINISHLINE_PRELOAD__?.notificationAnswer))
      .toBe(true);
    await expect(early.locator('#fl-first-paint')).toHaveCount(0);
    expect(await early.evaluate(() => document.readyState)).not.toBe('loading');
    await context.close();
  });
});
