import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiEventId, chooseEvent, DEMO_EVENT } from '../support/storefront';
import { API_URL, REPO_ROOT } from '../support/system';

/**
 * Selfie search journeys. The photo with a real face is added to the demo event through the
 * development route (the demo seed has drawn runners only); the face photos live outside the
 * repository and the journey that needs them is skipped without them.
 */
const FACES_DIR = path.resolve(REPO_ROOT, '../shared/data/faces');
const firstFace = (() => {
  if (!fs.existsSync(FACES_DIR)) return null;
  const person = fs.readdirSync(FACES_DIR).sort()[0];
  if (!person) return null;
  const file = fs.readdirSync(path.join(FACES_DIR, person)).sort()[0];
  return file ? path.join(FACES_DIR, person, file) : null;
})();

const NO_FACE_MESSAGE = 'We could not find a face in your selfie. Please take a clear photo of your face, looking at the camera.';

async function openSelfieModal(page: Page): Promise<void> {
  await page.goto('/');
  await chooseEvent(page);
  await page.getByRole('tab', { name: 'Search by Selfie' }).click();
  await page.getByRole('tabpanel').getByRole('button', { name: 'Search by Selfie' }).click();
  await expect(page.getByTestId('selfie-modal')).toBeVisible();
  await expect(page.getByTestId('selfie-modal')).toContainText('facial features');
  await expect(page.getByTestId('selfie-modal')).toContainText('JPG or PNG, max 2mb');
}

/** A PNG drawn in the page: sky and road, nobody in it. */
async function faceFreePng(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 360;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#7fb2e5';
    g.fillRect(0, 0, 480, 200);
    g.fillStyle = '#555';
    g.fillRect(0, 200, 480, 160);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

test.describe('Search by selfie', () => {
  test('without a camera the modal says so and offers Upload', async ({ page }) => {
    await openSelfieModal(page);
    // Headless Chromium has no camera and grants no permission: either clear message is right.
    await expect(page.getByTestId('camera-error')).toContainText(/Camera access was denied|No camera was found|camera could not be started/);
    await expect(page.getByRole('button', { name: 'Upload' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Capture' })).toBeDisabled();
  });

  test('refuses a file that is not a JPG or PNG, or larger than 2 MB, before sending it', async ({ page }) => {
    let selfieCalls = 0;
    await page.route('**/api/search/selfie', (route) => {
      selfieCalls += 1;
      return route.continue();
    });
    await openSelfieModal(page);
    const input = page.getByTestId('selfie-file');
    await input.setInputFiles({ name: 'selfie.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect(page.getByTestId('selfie-file-error')).toHaveText('Please choose a JPG or PNG image.');
    const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2 * 1024 * 1024 + 10)]);
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await expect(page.getByTestId('selfie-file-error')).toHaveText('The selfie must be at most 2 MB. Please choose a smaller image.');
    await expect(page.getByRole('button', { name: 'Find My Photos' })).toBeDisabled();
    expect(selfieCalls).toBe(0);
  });

  test("a selfie without a face shows the server's warning and stays on the page", async ({ page }) => {
    await openSelfieModal(page);
    await page.getByTestId('selfie-file').setInputFiles({ name: 'road.png', mimeType: 'image/png', buffer: await faceFreePng(page) });
    await expect(page.getByTestId('selfie-preview')).toBeVisible();
    await page.getByRole('button', { name: 'Find My Photos' }).click();
    await expect(page.locator('.ant-message-warning')).toContainText(NO_FACE_MESSAGE);
    await expect(page).toHaveURL(/\/$/);
  });

  test('a selfie finds the photo the person is in and opens /searchbyselfie after a second', async ({ page }) => {
    test.skip(!firstFace, `no face photos at ${FACES_DIR}`);
    const face = fs.readFileSync(firstFace!);
    // The race photo: that face in the demo event, indexed before the call returns.
    const added = await fetch(`${API_URL}/dev/faces/event-photo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ eventID: await apiEventId(DEMO_EVENT), image: face.toString('base64') }),
    });
    const body = (await added.json()) as { StatusCode: number; result: { imageId: string; faces: number } };
    expect(body.StatusCode).toBe(200);
    expect(body.result.faces).toBe(1);

    await openSelfieModal(page);
    await page.getByTestId('selfie-file').setInputFiles(firstFace!);
    await expect(page.getByTestId('selfie-preview')).toBeVisible();
    await page.getByRole('button', { name: 'Find My Photos' }).click();
    await expect(page.locator('.ant-message-success')).toContainText('photo(s) of you');
    await expect(page).not.toHaveURL(/searchbyselfie/);
    await page.waitForURL('**/searchbyselfie');
    await expect(page).toHaveTitle(`${DEMO_EVENT} Select Photos`);
    await expect(page.locator(`img[src*="${body.result.imageId}"]`).first()).toBeVisible();
    const stored = await page.evaluate(() => ({ bib: localStorage.getItem('bibId'), expiry: localStorage.getItem('awsImageExpiry') }));
    expect(stored.bib).toBe('selfie');
    expect(new Date(stored.expiry!).getTime()).toBeGreaterThan(Date.now());
  });
});
