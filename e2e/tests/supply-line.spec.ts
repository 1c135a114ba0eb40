import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiEventId, BIB_PLACEHOLDER, chooseEvent, DEMO_EVENT } from '../support/storefront';
import { DEMO_PASSWORD, DEMO_USERS, signInThroughForm } from './accounts.helpers';
import { payInBrowser, placeRunnerOrder } from './orders.helpers';
import { pickSupplyEvent, writeCameraPhotos } from './supply.helpers';

/** The partner's My Share row of the main event, as the page shows it. */
async function myShareRow(partner: Page): Promise<string[]> {
  await partner.goto('/show_revenue');
  await expect(partner.getByRole('heading', { name: 'My Share' })).toBeVisible();
  // The share table's row of the event (the per-day table below names the event too, after its date).
  const row = partner.locator('tr.ant-table-row').filter({ has: partner.locator('td:first-child', { hasText: new RegExp(`^${DEMO_EVENT}$`) }) });
  await expect(row).toBeVisible();
  return (await row.locator('td').allInnerTexts()).map((t) => t.trim());
}

/** "₹1,234.50" as a number. */
const rupees = (text: string) => Number(text.replace(/[₹,]/g, ''));

/**
 * The photographer supply line through the whole system: the demo partner (approved for the main
 * event) uploads camera photos with visible progress, a file that is no JPEG is refused with its
 * reason, the photos are processed and tagged by their BIBs, the partner corrects one BIB, a
 * runner searching that BIB finds the photo and buys it at the sandbox gateway, and the partner's My
 * Share counts that sale at the agreed 70%.
 */
const READ_BIB = 'TT20613';
const CORRECTED_BIB = 'TT20614';
const RESUMED_BIB = 'TT20615';

test.describe('photo supply line', () => {
  let folder: string;
  test.beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-supply-'));
    // Camera-like photos (about 1.5 MB each at this size), made by the same generator the seed and the benchmark use.
    writeCameraPhotos(folder, [READ_BIB, '-'], 2400);
    fs.writeFileSync(path.join(folder, 'notes.jpg'), 'Not a photo. '.repeat(3000));
  });
  test.afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  test('the partner uploads, sees the photos tagged, corrects a BIB, a runner finds the photo by it and buys it, and My Share counts the sale', async ({
    browser,
  }) => {
    test.setTimeout(420_000);
    const partner = await (await browser.newContext()).newPage();
    await signInThroughForm(partner, DEMO_USERS.partner, DEMO_PASSWORD);
    await expect(partner.getByTestId('account-button')).toBeVisible();

    await partner.goto('/upload');
    await expect(partner.getByRole('heading', { name: 'Upload Photos' })).toBeVisible();
    await pickSupplyEvent(partner);
    // No request of the batch asks about an upload the server no longer has (the console showed HEAD 404s).
    const unknownUploads: string[] = [];
    partner.on('response', (response) => {
      if (response.request().method() === 'HEAD' && response.status() === 404) unknownUploads.push(response.url());
    });
    const files = fs.readdirSync(folder).map((name) => path.join(folder, name));
    await partner.locator('input[type=file]').setInputFiles(files);

    const rows = partner.getByTestId('upload-file');
    await expect(rows).toHaveCount(3);
    await expect(partner.getByTestId('upload-overall')).toBeVisible();
    const refused = rows.filter({ hasText: 'notes.jpg' });
    await expect(refused.getByTestId('upload-reason')).toHaveText('Only JPG photos can be uploaded.', { timeout: 60_000 });
    await expect(rows.filter({ hasText: `${READ_BIB}-1.jpg` })).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(rows.filter({ hasText: 'runner-2.jpg' })).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(partner.getByTestId('upload-counts')).toContainText('Uploaded');
    expect(unknownUploads).toEqual([]);

    await partner.goto('/photos');
    await expect(partner.getByRole('heading', { name: 'My Photos' })).toBeVisible();
    // My Photos opens on the event just chosen on Upload: no second choice.
    await expect(partner.getByTestId('supply-event')).toContainText(DEMO_EVENT);
    const tagged = partner.getByTestId('review-photo').filter({ has: partner.locator('.ant-select-selection-item', { hasText: READ_BIB }) });
    await expect(tagged).toHaveCount(1, { timeout: 120_000 });
    await expect(tagged.getByTestId('review-status')).toHaveText('Tagged');
    await expect(
      partner
        .getByTestId('review-photo')
        .filter({ has: partner.getByText('Unlabeled', { exact: true }) })
        .first(),
    ).toBeVisible();
    const photoId = await tagged.getAttribute('data-photo-id');

    // The reading was wrong: the photographer corrects it.
    // The card by its photo (the filter above stops matching once the BIB is removed).
    const card = partner.locator(`[data-testid=review-photo][data-photo-id="${photoId}"]`);
    const editor = card.getByTestId('bib-editor');
    await editor.locator('.ant-select-selection-item-remove').click();
    await editor.locator('input').fill(CORRECTED_BIB);
    await editor.locator('input').press('Enter');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(partner.getByText(`is found under ${CORRECTED_BIB}.`)).toBeVisible();

    const runner = await (await browser.newContext()).newPage();
    await runner.goto('/');
    await chooseEvent(runner);
    await runner.getByPlaceholder(BIB_PLACEHOLDER).fill(CORRECTED_BIB);
    await runner.getByPlaceholder(BIB_PLACEHOLDER).press('Enter');
    await runner.waitForURL('**/products');
    await expect(runner.locator(`[data-testid=photo-card][data-photo-id="${photoId}"]`)).toBeVisible();

    // The runner buys that photo; the photographer's My Share counts the sale at their 70%.
    const before = await myShareRow(partner);
    await signInThroughForm(runner, DEMO_USERS.runner, DEMO_PASSWORD);
    // Signed in once the navbar shows the account: only then is the session stored.
    await expect(runner).not.toHaveURL(/sign-in/);
    await expect(runner.getByTestId('account-button')).toBeVisible();
    const token = await runner.evaluate(() => localStorage.getItem('session_token') ?? '');
    const order = await placeRunnerOrder(token, await apiEventId(DEMO_EVENT), CORRECTED_BIB, [{ type: 'download', category: 'image', id: Number(photoId) }]);
    await payInBrowser(runner, order);
    const after = await myShareRow(partner);
    // Columns: event, price (net sales), totalorders, totalimages, userimages, share %, usr_share.
    expect(Number(after[2])).toBe(Number(before[2]) + 1);
    expect(Number(after[4])).toBe(Number(before[4]) + 1);
    expect(after[5]).toBe('70');
    const sale = rupees(after[1]!) - rupees(before[1]!);
    expect(sale).toBeGreaterThan(0);
    expect(rupees(after[6]!) - rupees(before[6]!)).toBeCloseTo(sale * 0.7, 1);
  });

  test('a reload mid-file: the page lists the interrupted upload, and the file dropped again continues where the server stopped', async ({ browser }) => {
    test.setTimeout(240_000);
    const resumeFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-resume-'));
    try {
      // A full-size camera photo: three chunks of 1 MB or so.
      writeCameraPhotos(resumeFolder, [RESUMED_BIB], 3200);
      const file = path.join(resumeFolder, `${RESUMED_BIB}-1.jpg`);
      const name = path.basename(file);
      const size = fs.statSync(file).size;
      const partner = await (await browser.newContext()).newPage();
      await signInThroughForm(partner, DEMO_USERS.partner, DEMO_PASSWORD);
      await expect(partner.getByTestId('account-button')).toBeVisible();
      await partner.goto('/upload');
      await pickSupplyEvent(partner);

      // The network stalls after the first chunk: the second never reaches the server.
      const chunkUrl = /\/api\/partner\/uploads\/[^/]+$/;
      await partner.route(chunkUrl, (route) =>
        route.request().method() === 'PATCH' && route.request().headers()['upload-offset'] !== '0' ? new Promise<void>(() => undefined) : route.continue(),
      );
      const firstChunk = partner.waitForResponse((r) => r.request().method() === 'PATCH' && r.status() === 204);
      await partner.locator('input[type=file]').setInputFiles(file);
      const heldOffset = Number((await firstChunk).headers()['upload-offset']);
      expect(heldOffset).toBeGreaterThan(0);
      expect(heldOffset).toBeLessThan(size);

      // The photographer reloads (the page asks first while files are being sent); the stalled chunk dies with the page.
      partner.on('dialog', (dialog) => void dialog.accept());
      await partner.reload();
      await partner.unrouteAll({ behavior: 'ignoreErrors' });
      await pickSupplyEvent(partner);
      const interrupted = partner.getByTestId('interrupted-uploads');
      await expect(interrupted.getByTestId('interrupted-file')).toHaveCount(1);
      await expect(interrupted).toContainText(name);
      await expect(interrupted).toContainText(`${Math.floor((heldOffset * 100) / size)}% sent`);
      await expect(interrupted).toContainText('Drop them again to continue where they stopped.');

      // Dropped again: the first chunk sent starts where the server stopped, not at 0.
      const sentFrom: number[] = [];
      partner.on('request', (request) => {
        if (request.method() === 'PATCH' && chunkUrl.test(request.url())) sentFrom.push(Number(request.headers()['upload-offset']));
      });
      await partner.locator('input[type=file]').setInputFiles(file);
      const row = partner.getByTestId('upload-file').filter({ hasText: name });
      await expect(row).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
      await expect(row).toContainText('Resumed');
      expect(sentFrom[0]).toBe(heldOffset);
      await expect(interrupted).toHaveCount(0);

      // One photo came of it, under the photographer's name for it.
      await partner.goto('/photos');
      await pickSupplyEvent(partner);
      await expect(partner.getByTestId('review-photo').filter({ has: partner.locator(`[title="${name}"]`) })).toHaveCount(1, { timeout: 30_000 });
    } finally {
      fs.rmSync(resumeFolder, { recursive: true, force: true });
    }
  });
});
