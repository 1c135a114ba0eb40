import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { apiBibSearch, apiEventId, DEMO_EVENT, DEMO_BIB } from '../support/storefront';
import { API_URL, ARTIFACTS_DIR, DATA_DIR } from '../support/system';
import { jpegSize } from '../support/jpeg';
import { keepReceivedImages, MARKED_SHARE, watermarkReport } from '../support/watermark';
import { DEMO_PASSWORD, DEMO_USERS, signInThroughForm } from './accounts.helpers';
import { searchBib } from './cart.helpers';
import { chooseEventIn, cropWithDefaults, row } from './certificate.helpers';
import { payInBrowser, placeRunnerOrder } from './orders.helpers';

/**
 * The achievement certificate builder (/eventcertificate) for the demo runner's grand slam: Mumbai
 * Coastal Marathon 2026 (TT20608), Ahmedabad Riverfront Half 2026 (AR40608), Jaipur Pink City 10K
 * 2026 (JP60608). From the products page through the four steps to a downloaded JPEG of 3840 by 2560,
 * which the server stored and whose download it recorded. The builder uses a BIB's own photos only
 * for the runner who bought them (or verified the BIB by OTP): anyone else gets watermarked previews
 * and an offer to buy, and no certificate.
 */
const AHMEDABAD = 'Ahmedabad Riverfront Half 2026';
const JAIPUR = 'Jaipur Pink City 10K 2026';
const SHOTS = path.join(ARTIFACTS_DIR, 'certificate');

/** The toast antd shows for a message. */
const toast = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text });

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${page.viewportSize()?.width}-${name}.png`), fullPage: true });
}

/** A slider moved with the keyboard, as a person using the arrows would. */
async function slide(slider: Locator, key: 'ArrowRight' | 'ArrowLeft', times: number): Promise<void> {
  await slider.focus();
  for (let i = 0; i < times; i++) await slider.press(key);
}

/** Home, the event, the BIB: on /products, then the builder through Generate Certificate, the first row prefilled. */
async function openBuilder(page: Page): Promise<void> {
  await searchBib(page, DEMO_EVENT, DEMO_BIB);
  await page.getByRole('button', { name: 'Generate Certificate' }).click();
  await page.waitForURL('**/eventcertificate');
  await expect(page.locator('[data-remote="certificate"]')).toBeAttached();
  await expect(row(page, 1)).toContainText(DEMO_EVENT);
  await expect(row(page, 1).getByRole('textbox', { name: 'BIB Number for field 1' })).toHaveValue(DEMO_BIB);
}

/** Rows for the other two races of the slam (the Ahmedabad BIB as given). */
async function addRaces(page: Page, ahmedabadBib: string): Promise<void> {
  await page.getByRole('button', { name: 'Add a race' }).click();
  await expect(row(page, 2).getByRole('textbox')).toBeDisabled();
  await chooseEventIn(page, 2, AHMEDABAD);
  await row(page, 2).getByRole('textbox').fill(ahmedabadBib);
  await page.getByRole('button', { name: 'Add a race' }).click();
  await chooseEventIn(page, 3, JAIPUR);
  await row(page, 3).getByRole('textbox').fill('JP60608');
  // Every event of the slam is used: no fourth row.
  await expect(page.getByRole('button', { name: 'Add a race' })).toBeDisabled();
}

/** The first photo of each event's tab (on a phone, of each event's section: no tabs there). */
async function chooseFirstPhotos(page: Page, layout: 'tabs' | 'sections' = 'tabs'): Promise<void> {
  const tabs = page.getByTestId('certificate-tab');
  for (let i = 0; i < 3; i++) {
    if (layout === 'tabs') {
      await tabs.nth(i).click();
      await page.getByRole('tabpanel').getByTestId('certificate-grid').getByRole('button').first().click();
    } else {
      await page.getByTestId('certificate-event').nth(i).getByTestId('certificate-grid').getByRole('button').first().click();
    }
    await expect(tabs.nth(i).getByLabel('Image chosen')).toBeVisible();
  }
  await expect(page.getByTestId('certificate-selected-count')).toHaveText('3/3 images selected');
}

/** Files under a folder of the running system's object storage (none when it does not exist yet). */
function storedObjects(folder: string): string[] {
  const dir = path.join(DATA_DIR, 'objects', folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The demo runner signs in and buys the first photo of their BIB in each race they have not bought yet (Ahmedabad is in the demo's orders). */
async function signInAndBuySlamPhotos(page: Page): Promise<void> {
  await signInThroughForm(page, DEMO_USERS.runner, DEMO_PASSWORD);
  await expect(page.getByTestId('account-button')).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('session_token') ?? '');
  for (const [eventName, bib] of [
    [DEMO_EVENT, DEMO_BIB],
    [JAIPUR, 'JP60608'],
  ]) {
    const { photoIds } = await apiBibSearch(bib, eventName);
    const order = await placeRunnerOrder(token, await apiEventId(eventName), bib, [{ type: 'download', category: 'image', id: photoIds[0] }]);
    await payInBrowser(page, order);
  }
}

test.describe('achievement certificate builder', () => {
  test('any finisher of a race with certificates on sees Generate Certificate (the race’s own certificate)', async ({ page }) => {
    await searchBib(page, DEMO_EVENT, 'TT20609');
    await expect(page.getByTestId('congrats-bar')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Generate Certificate' })).toBeVisible();
  });

  test('signed out, another runner’s BIBs: watermarked previews only, an offer to buy instead of Download, nothing stored', async ({ page, browser }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const received = keepReceivedImages(page);
    const certificatesBefore = storedObjects('certificates').length;
    const renditionsBefore = storedObjects('certificate-photos').length;
    await openBuilder(page);
    await addRaces(page, 'AR40608');
    await page.getByRole('button', { name: 'Search' }).click();
    const offer = page.getByRole('tabpanel').getByTestId('certificate-buy-offer');
    await expect(offer).toContainText(`These are watermarked previews of BIB ${DEMO_BIB}'s photos at ${DEMO_EVENT}.`);
    await expect(offer.getByRole('button', { name: 'Buy photos' })).toBeVisible();
    await chooseFirstPhotos(page);
    await page.getByRole('button', { name: 'Next' }).click();
    const cards = page.getByTestId('certificate-card');
    for (let i = 0; i < 3; i++) await cropWithDefaults(page, cards.nth(i));
    await page.getByRole('button', { name: 'Generate Certificate' }).click();
    await expect(page.getByTestId('certificate-preview').locator('canvas')).toBeVisible();
    await expect(page.getByTestId('certificate-preview').getByTestId('certificate-buy-offer')).toContainText(
      `A certificate is made only from photos you bought. Please buy your photos of ${DEMO_EVENT} (BIB ${DEMO_BIB}) first`,
    );
    await expect(page.getByRole('button', { name: 'Download' })).toHaveCount(0);

    // Every photo the browser received (grid, crop dialog, preview) carries the watermark; no print-size rendition among them.
    const report = await watermarkReport(browser, received);
    expect(report.unread).toEqual([]);
    expect(report.checked.length).toBeGreaterThan(3);
    expect(report.checked.filter((image) => image.share < MARKED_SHARE)).toEqual([]);
    expect(report.checked.filter((image) => image.key.startsWith('certificate-photos/'))).toEqual([]);

    // A certificate sent to the server anyway (as a script would) is refused; nothing was stored or made.
    const token = await page.evaluate(() => localStorage.getItem('session_token') ?? '');
    const form = new FormData();
    form.append(
      'achievement_id',
      String(await page.evaluate(() => JSON.parse(localStorage.getItem('event_template_data') ?? '{}').achievement_details?.achievement_id)),
    );
    form.append(
      'certificate_url',
      new Blob([new Uint8Array(fs.readFileSync(path.join(DATA_DIR, 'objects', report.checked[0].key)))], { type: 'image/jpeg' }),
      'certificate.jpg',
    );
    const upload = await fetch(`${API_URL}/api/certificates/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    expect(upload.status).toBe(403);
    expect(storedObjects('certificates')).toHaveLength(certificatesBefore);
    expect(storedObjects('certificate-photos')).toHaveLength(renditionsBefore);

    // The offer leads to the BIB's products page, where the packages are.
    await page.getByTestId('certificate-buy-offer').getByRole('button', { name: 'Buy photos' }).click();
    await page.waitForURL('**/products');
  });

  test('the demo runner: wrong BIB, the right pairs, one photo per event, a crop with zoom and rotation, preview, a 3840 by 2560 JPEG', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // The runner bought a photo in each race of the slam: the builder may use their own photos.
    await signInAndBuySlamPhotos(page);
    await openBuilder(page);
    await addRaces(page, 'AR99999');
    await shot(page, '1-search');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(toast(page, `No photos found for the BIB in field 2 (${AHMEDABAD}). Please check the number and try again.`)).toBeVisible();
    await expect(page.getByTestId('certificate-search')).toBeVisible();

    await row(page, 2).getByRole('textbox').fill('AR40608');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByTestId('certificate-select')).toBeVisible();
    await expect(page.getByText('Select one image per event')).toBeVisible();
    await expect(page.getByTestId('certificate-tab')).toHaveText([`${DEMO_EVENT} · TT20608`, `${AHMEDABAD} · AR40608`, `${JAIPUR} · JP60608`]);
    await expect(page.getByText('Found 6 Photos - Click to Select')).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(toast(page, 'Please select an image for each event.')).toBeVisible();

    // A chosen photo clicked again is unselected.
    const firstPhoto = page.getByRole('tabpanel').getByTestId('certificate-grid').getByRole('button').first();
    await firstPhoto.click();
    await expect(firstPhoto).toHaveAttribute('aria-pressed', 'true');
    await firstPhoto.click();
    await expect(firstPhoto).toHaveAttribute('aria-pressed', 'false');
    await chooseFirstPhotos(page);
    await shot(page, '2-select');
    await page.getByRole('button', { name: 'Next' }).click();

    await expect(page.getByTestId('certificate-process')).toBeVisible();
    await expect(page.getByText('Crop and resize your selected images for the certificate.')).toBeVisible();
    const cards = page.getByTestId('certificate-card');
    await expect(cards).toHaveCount(3);
    await expect(cards.first()).toContainText('Waiting for processing');
    await page.getByRole('button', { name: 'Generate Certificate' }).click();
    await expect(toast(page, 'Resize image(s) to preview the certificate')).toBeVisible();

    // The first photo: zoomed to 1.5 and turned by -10 degrees.
    await cards.first().getByRole('button', { name: 'Crop & Resize' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adjust Image' });
    await expect(dialog.locator('.ReactCrop__crop-selection')).toBeVisible();
    await slide(dialog.getByRole('slider', { name: 'Zoom' }), 'ArrowRight', 5);
    await slide(dialog.getByRole('slider', { name: 'Rotate' }), 'ArrowLeft', 10);
    await expect(dialog.getByRole('slider', { name: 'Zoom' })).toHaveAttribute('aria-valuenow', '1.5');
    await expect(dialog.getByRole('slider', { name: 'Rotate' })).toHaveAttribute('aria-valuenow', '-10');
    await expect(dialog.locator('img')).toHaveAttribute('style', /scale\(1\.5\) rotate\(-10deg\)/);
    await shot(page, '3-crop');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(cards.first().getByText('Image Cropped & Saved Successfully!')).toBeVisible();
    await expect(cards.first().getByRole('button', { name: 'Edit Image' })).toBeVisible();
    await expect(page.getByTestId('certificate-progress')).toContainText('1/3');
    await page.getByRole('button', { name: 'Generate Certificate' }).click();
    await expect(toast(page, 'Resize image(s) to preview the certificate')).toBeVisible();

    await cropWithDefaults(page, cards.nth(1));
    await cropWithDefaults(page, cards.nth(2));
    await expect(page.getByTestId('certificate-progress')).toContainText('3/3');
    await shot(page, '4-process');
    await page.getByRole('button', { name: 'Generate Certificate' }).click();

    await expect(page.getByRole('heading', { name: 'Certificate Preview' })).toBeVisible();
    await expect(page.getByTestId('certificate-preview').locator('canvas')).toBeVisible();
    await shot(page, '5-preview');

    // Certificates other journeys stored (another race's finisher certificate) stay out of the count below.
    const storedBefore = new Set(storedObjects('certificates'));
    const downloading = page.waitForEvent('download');
    const recorded = page.waitForResponse((response) => response.url().endsWith('/api/certificates/download-record'));
    await page.getByRole('button', { name: 'Download' }).click();
    await expect(toast(page, 'Certificate uploaded successfully!')).toBeVisible();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('finishline-grand-slam-2026-certificate.jpg');
    const file = fs.readFileSync(await download.path());
    expect(jpegSize(file)).toEqual({ width: 3840, height: 2560 });
    await expect(toast(page, 'Certificate downloaded Successfully')).toBeVisible();

    // The server holds exactly that upload, and counted the download.
    expect(((await (await recorded).json()) as { result: { downloads: number } }).result).toEqual({ downloads: 1 });
    const stored = storedObjects('certificates').filter((file) => !storedBefore.has(file));
    expect(stored).toHaveLength(1);
    expect(fs.readFileSync(stored[0]).equals(file)).toBe(true);

    // Back to Edit keeps the crops; Cancel starts again from the search.
    await page.getByRole('button', { name: 'Back to Edit' }).click();
    await expect(page.getByTestId('certificate-progress')).toContainText('3/3');
    await page.getByRole('button', { name: /Back$/ }).click();
    await expect(page.getByTestId('certificate-selected-count')).toHaveText('3/3 images selected');
    await page.getByRole('button', { name: 'Edit Search' }).click();
    await expect(page.getByTestId('certificate-search')).toBeVisible();
    await expect(row(page, 2).getByRole('textbox')).toHaveValue('AR40608');
  });

  test('at 360 px wide: the four steps fit the screen and the certificate previews', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openBuilder(page);
    await addRaces(page, 'AR40608');
    await shot(page, '1-search');
    await expectAccessible(page, 'certificate step 1-search at 360 px');
    const noSidewaysScroll = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await noSidewaysScroll();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('tablist')).toHaveCount(0);
    await chooseFirstPhotos(page, 'sections');
    await shot(page, '2-select');
    await expectAccessible(page, 'certificate step 2-select at 360 px');
    await noSidewaysScroll();
    await page.getByRole('button', { name: 'Next' }).click();
    const cards = page.getByTestId('certificate-card');
    await cropWithDefaults(page, cards.nth(0));
    await cards.nth(1).getByRole('button', { name: 'Crop & Resize' }).click();
    await shot(page, '3-crop');
    await expectAccessible(page, 'certificate step 3-crop at 360 px');
    await page.getByRole('dialog', { name: 'Adjust Image' }).getByRole('button', { name: 'Apply' }).click();
    await expect(cards.nth(1).getByText('Image Cropped & Saved Successfully!')).toBeVisible();
    await cropWithDefaults(page, cards.nth(2));
    await shot(page, '4-process');
    await expectAccessible(page, 'certificate step 4-process at 360 px');
    await noSidewaysScroll();
    await page.getByRole('button', { name: 'Generate Certificate' }).click();
    await expect(page.getByTestId('certificate-preview').locator('canvas')).toBeVisible();
    await shot(page, '5-preview');
    await expectAccessible(page, 'certificate step 5-preview at 360 px');
    await noSidewaysScroll();
  });
});
