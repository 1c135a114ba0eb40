import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { everyoneOutsideMessage, formatRaceTime, VIDEO_MESSAGES, type FinishVideosResult } from '@finishline/shared/pure';
import { API_URL, DATA_DIR, REPO_ROOT } from '../support/system';
import { expectAccessible, expectNoSidewaysScroll, smallTargets } from '../support/accessibility';
import { apiEventId, DEMO_BIB, DEMO_EVENT } from '../support/storefront';
import { pickSupplyEvent } from './supply.helpers';
import { DEMO_PASSWORD, DEMO_USERS, signInThroughForm, uniqueEmail } from './accounts.helpers';
import { bottomBar, searchBib } from './cart.helpers';
import { guestCheckout, payOnSandbox, preauthPathFromMail, SUCCESS_CARD } from './orders.helpers';

/**
 * Finish-line videos through the whole system: the demo partner opens Videos, a file that is no
 * video is refused with its reason and nothing is stored; the finish line the test films itself
 * (FFmpeg, runners wearing the BIBs of the demo event's finishers, each at the line at their
 * official time) goes up over tus through a dropped connection; a clock that misses every finisher
 * is refused; the clock set by the frame picker cuts one clip per finisher, each on its runner's
 * products page as a watermarked preview within the documented time (docs/videos.md); a guest buys
 * one clip and downloads the full-quality MP4: its seconds, the camera's size, not the preview.
 */

/** docs/videos.md: every clip of a video with the demo event's ten finishers is findable within this long of setting its clock. */
const CLIPS_WITHIN_MS = 8 * 60_000;
const CLIP_SECONDS = 4 + 3; // the event's default clip lengths
const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true };

const cli = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'api', 'src', 'cli', 'finishLineVideo.ts'), ...args], {
    cwd: path.join(REPO_ROOT, 'api'),
    encoding: 'utf8',
    timeout: 900_000,
  }).trim();
const probe = (file: string) =>
  JSON.parse(cli('probe', file)) as { codec: string; width: number; height: number; durationSeconds: number; hasAudio: boolean } | null;

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('session_token') ?? '');

/** The partner's videos of the event as the API holds them (the rows of finish_videos and their clips). */
async function partnerVideos(token: string, eventId: number): Promise<FinishVideosResult> {
  const response = await fetch(`${API_URL}/api/partner/videos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ eventId }),
  });
  const body = (await response.json()) as { Message: string; result: FinishVideosResult };
  expect(response.status, body.Message).toBe(200);
  return body.result;
}

/** Files in a folder of the API's data folder (staged uploads, stored originals), dot files aside. */
const filesUnder = (...parts: string[]): string[] => {
  const dir = path.join(DATA_DIR, ...parts);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name);
};

async function partnerOnVideos(browser: Browser, options = {}): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  await signInThroughForm(page, DEMO_USERS.partner, DEMO_PASSWORD);
  await expect(page.getByTestId('account-button')).toBeVisible();
  await page.goto('/videos');
  await expect(page.getByRole('heading', { name: 'Videos', exact: true })).toBeVisible();
  await pickSupplyEvent(page);
  return page;
}

test.describe.serial('finish-line videos', () => {
  // A step that cannot happen fails within a minute instead of waiting out the long test.
  test.use({ actionTimeout: 60_000, navigationTimeout: 60_000 });
  let work: string;
  test.beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-videos-'));
  });
  test.afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  test('what is no video is refused on the Videos screen with its reason, and nothing is stored', async ({ browser }) => {
    const page = await partnerOnVideos(browser);
    const eventId = await apiEventId(DEMO_EVENT);
    await expect(page.getByText('No videos uploaded to this event yet')).toBeVisible();
    // The race's own finish camera of the demo (filmed by the seed) is stored beside what partners send.
    const footageBefore = filesUnder('objects', 'originals', 'footage');
    // A text file: refused in the browser before a byte is sent.
    const notes = path.join(work, 'notes.txt');
    fs.writeFileSync(notes, 'Finish line notes. '.repeat(10_000));
    // A file named like a video that is none: sent whole, refused by the server's checks at its last byte.
    const fake = path.join(work, 'FINISH_FAKE.MP4');
    fs.writeFileSync(fake, Buffer.alloc(300_000, 'not a video '));
    const sentChunks: string[] = [];
    page.on('request', (r) => r.url().includes('/api/partner/uploads') && sentChunks.push(`${r.method()} ${r.headers()['upload-metadata'] ?? ''}`));
    await page.locator('input[type=file]').setInputFiles(notes);
    const rows = page.getByTestId('video-upload');
    await expect(rows.filter({ hasText: 'notes.txt' }).getByTestId('video-upload-reason')).toHaveText(VIDEO_MESSAGES.notVideo);
    expect(sentChunks).toEqual([]);
    await page.locator('input[type=file]').setInputFiles(fake);
    const refused = rows.filter({ hasText: 'FINISH_FAKE.MP4' });
    await expect(refused).toHaveAttribute('data-state', 'refused', { timeout: 60_000 });
    await expect(refused.getByTestId('video-upload-reason')).toHaveText(VIDEO_MESSAGES.notVideo);
    expect(sentChunks.some((c) => c.startsWith('POST'))).toBe(true);

    // Nothing stored: no video on the screen or in the database, no original, no staged file left.
    await expect(page.getByText('No videos uploaded to this event yet')).toBeVisible();
    expect((await partnerVideos(await tokenOf(page), eventId)).videos).toEqual([]);
    expect(filesUnder('objects', 'originals', 'footage')).toEqual(footageBefore);
    expect(filesUnder('uploads')).toEqual([]);
    await page.context().close();
  });

  test('a videographer uploads the finish line and sets its clock; every finisher gets a watermarked clip; a guest buys one and downloads the full-quality MP4 @long', async ({
    browser,
  }) => {
    test.setTimeout(1_800_000);
    const partner = await partnerOnVideos(browser);
    const token = await tokenOf(partner);
    const eventId = await apiEventId(DEMO_EVENT);

    // The demo event's finishers and their official times, as the server has them.
    const { finishers } = await partnerVideos(token, eventId);
    expect(finishers.length).toBeGreaterThanOrEqual(2);
    expect(finishers.map((f) => f.bibNumber)).toContain(DEMO_BIB);
    // The camera starts 10 s before the first finisher and stops 10 s after the last.
    const raceAtStart = finishers[0]!.finishSeconds - 10;
    const seconds = finishers[finishers.length - 1]!.finishSeconds - raceAtStart + 10;
    const crossing = (bib: string) => finishers.find((f) => f.bibNumber === bib)!.finishSeconds - raceAtStart;
    const camera = path.join(work, 'FINISH_0001.MP4');
    // 1280 x 720, an hour and a half of finish line, each runner at the line at their official time; recorded at a
    // variable frame rate as phones do: 12 frames a second within 5 s of a crossing (every clip's seconds), one every 10 s between.
    cli(
      'render',
      camera,
      String(seconds),
      ...finishers.map((f) => `${f.bibNumber}@${f.finishSeconds - raceAtStart}`),
      '--fps=12',
      '--idle=10',
      '--full-rate=5',
      '--event=MCM26',
      `--name=${DEMO_EVENT}`,
      '--recorded=2026-01-18T03:55:00Z',
    );
    const filmed = probe(camera)!;
    expect(filmed).toMatchObject({ codec: 'h264', width: 1280, height: 720 });

    console.log(`[videos] filmed ${seconds} s of finish line; uploading it`);
    const footageBefore = filesUnder('objects', 'originals', 'footage');
    // The upload, with its connection dropped once after its first chunk: tus asks the server where it stopped and goes on from there.
    let dropped = 0;
    const resumedFrom: number[] = [];
    await partner.route(/\/api\/partner\/uploads\/[^/]+$/, async (route) => {
      const request = route.request();
      if (request.method() === 'PATCH' && request.headers()['upload-offset'] !== '0' && dropped === 0) {
        dropped++;
        return route.abort('connectionreset');
      }
      if (request.method() === 'PATCH' && dropped === 1) resumedFrom.push(Number(request.headers()['upload-offset']));
      return route.continue();
    });
    await partner.locator('input[type=file]').setInputFiles(camera);
    const row = partner.getByTestId('video-upload').filter({ hasText: 'FINISH_0001.MP4' });
    await expect(row.getByRole('progressbar')).toBeVisible();
    await expect(row).toHaveAttribute('data-state', 'done', { timeout: 300_000 });
    expect(dropped).toBe(1);
    expect(resumedFrom[0]).toBeGreaterThan(0);
    await partner.unrouteAll({ behavior: 'ignoreErrors' });

    const card = partner.getByTestId('finish-video').filter({ hasText: 'FINISH_0001.MP4' });
    await expect(card).toHaveAttribute('data-status', 'needs_clock');
    await expect(card.getByTestId('video-status')).toHaveText('Needs its clock');
    await expect(card).toContainText(formatRaceTime(seconds));
    await expect(card).toContainText('1280 x 720');
    // Stored once: one row, its original in private storage, nothing left staged.
    const [stored] = (await partnerVideos(token, eventId)).videos;
    expect(stored).toMatchObject({
      originalName: 'FINISH_0001.MP4',
      status: 'needs_clock',
      width: 1280,
      height: 720,
      raceSecondsAtStart: null,
      recordedAt: '2026-01-18T03:55:00.000Z',
    });
    expect(filesUnder('objects', 'originals', 'footage')).toHaveLength(footageBefore.length + 1);
    expect(filesUnder('uploads')).toEqual([]);

    // The screen at a phone's width, the clock form open: nothing scrolls sideways, every control a 44 px target.
    const phone = await partnerOnVideos(browser, PHONE);
    const phoneCard = phone.getByTestId('finish-video');
    await expect(phoneCard.getByTestId('clock-form')).toBeVisible();
    await expectNoSidewaysScroll(phone, 'Videos at 360 px');
    expect.soft(await smallTargets(phone), 'controls under 44 px on Videos at 360 px').toEqual([]);
    await phoneCard.getByText('By a runner at the line').click();
    await expect(phoneCard.getByTestId('clock-frame')).toBeVisible({ timeout: 30_000 });
    await expectNoSidewaysScroll(phone, 'the frame picker at 360 px');
    expect.soft(await smallTargets(phone), 'controls under 44 px on the frame picker at 360 px').toEqual([]);
    await expectAccessible(phone, 'the frame picker at 360 px');
    await phone.context().close();

    // A clock that puts every finisher outside the video: the server's reason on the page, nothing changes.
    const clock = card.getByTestId('clock-form');
    await clock.getByLabel('Race clock as the camera started (h:mm:ss)').fill('0:10:00');
    await clock.getByRole('button', { name: 'Set clock and cut clips' }).click();
    await expect(clock.getByTestId('clock-error')).toHaveText(
      everyoneOutsideMessage(600, 600 + stored!.durationSeconds, finishers[0]!.finishSeconds, finishers[finishers.length - 1]!.finishSeconds),
    );
    expect((await partnerVideos(token, eventId)).videos[0]).toMatchObject({ status: 'needs_clock', raceSecondsAtStart: null });

    // The frame picker: the moment the demo runner is at the line, and their BIB.
    await clock.getByText('By a runner at the line').click();
    await clock.getByLabel('Second of the video').fill(String(crossing(DEMO_BIB)));
    const frame = clock.getByTestId('clock-frame');
    await expect(frame).toHaveAttribute('data-at-second', String(crossing(DEMO_BIB)), { timeout: 30_000 });
    expect(await frame.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    await clock.getByLabel('BIB of the runner at the line').click();
    await partner.keyboard.type(DEMO_BIB);
    await partner
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${DEMO_BIB} `) })
      .click();
    await clock.getByRole('button', { name: 'Set clock and cut clips' }).click();
    const clockSet = Date.now();
    await expect(partner.getByText(`${finishers.length} clips are being cut.`)).toBeVisible();
    await expect(card.getByTestId('clock-form')).toHaveCount(0);
    await expect(card).toContainText(formatRaceTime(raceAtStart));

    // Within the documented time the screen shows every clip cut and on sale.
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: CLIPS_WITHIN_MS });
    // The figure docs/videos.md quotes, in the report.
    console.log(`[videos] ${finishers.length} clips cut and on sale ${((Date.now() - clockSet) / 1000).toFixed(0)} s after the clock was set`);
    const clips = card.getByTestId('clip');
    await expect(clips).toHaveCount(finishers.length);
    for (const f of finishers) await expect(card.locator(`[data-testid=clip][data-bib="${f.bibNumber}"]`)).toHaveAttribute('data-status', 'ready');
    await expect(card.getByTestId('video-clips')).toContainText(
      `${finishers.length} of ${finishers.length} clips cut: ${finishers.length} on sale, 0 flagged for review`,
    );
    const list = (await partnerVideos(token, eventId)).videos[0]!;
    expect(list).toMatchObject({ status: 'ready', clips: { cut: finishers.length, ready: finishers.length, review: 0, total: finishers.length } });
    expect(list.raceSecondsAtStart).toBeCloseTo(raceAtStart, 3);
    expect(list.clipList.map((c) => c.bibNumber).sort()).toEqual(finishers.map((f) => f.bibNumber).sort());
    for (const c of list.clipList) expect(c.crossingSecond).toBeCloseTo(crossing(c.bibNumber), 1);
    const imageIdOf = (bib: string) => list.clipList.find((c) => c.bibNumber === bib)!.imageId;

    // Each finisher's products page: their clip in the Videos tab, a watermarked 640 px preview without sound.
    const runner = await (await browser.newContext()).newPage();
    for (const f of finishers) {
      console.log(`[videos] the products page of ${f.bibNumber}`);
      await searchBib(runner, DEMO_EVENT, f.bibNumber);
      await runner.getByRole('tab', { name: /Videos/ }).click();
      const clipCard = runner.getByTestId('video-card').filter({ hasText: `Video ID: ${imageIdOf(f.bibNumber)}` });
      await expect(clipCard).toBeVisible();
      if (f.bibNumber !== DEMO_BIB) continue;
      const src = await clipCard.locator('video').getAttribute('src');
      const preview = path.join(work, 'preview.mp4');
      fs.writeFileSync(preview, await (await runner.request.get(new URL(src!, runner.url()).toString())).body());
      const shown = probe(preview)!;
      expect(shown).toMatchObject({ codec: 'h264', width: 640, height: 360, hasAudio: false });
      expect(shown.durationSeconds).toBeCloseTo(CLIP_SECONDS, 0);
    }

    console.log('[videos] a guest buys a clip');
    // A guest buys the demo runner's clip at the sandbox gateway and downloads it from the mailed link.
    const email = uniqueEmail('video-buyer');
    const imageId = imageIdOf(DEMO_BIB);
    await searchBib(runner, DEMO_EVENT, DEMO_BIB);
    await runner.getByRole('tab', { name: /Videos/ }).click();
    await runner
      .getByTestId('video-card')
      .filter({ hasText: `Video ID: ${imageId}` })
      .getByRole('button', { name: 'Add To Cart' })
      .click();
    await runner.evaluate(() => localStorage.setItem('showModal', 'false'));
    await bottomBar(runner).getByRole('button', { name: 'Proceed to checkout' }).click();
    await runner.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();
    await guestCheckout(runner, { name: 'Vera Video', email, phone: '9876543211' });
    await payOnSandbox(runner, SUCCESS_CARD);
    await expect(runner).toHaveURL(/\/ordersuccess\?orderref=FL/, { timeout: 30_000 });
    const orderRef = new URL(runner.url()).searchParams.get('orderref')!;
    await runner.goto(await preauthPathFromMail(email, orderRef));
    await expect(runner.getByTestId('order-view')).toContainText(`Order ${orderRef}`);
    // An order of one video: its own Download button (the zip is offered with photos).
    console.log('[videos] the download of the clip');
    const downloading = runner.waitForEvent('download');
    await runner.getByRole('button', { name: `Download video ${imageId}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.mp4$/);
    const bought = path.join(work, 'bought.mp4');
    fs.copyFileSync(await download.path(), bought);

    // The full-quality clip: its seconds, the camera's size, the camera's picture at the crossing, not the preview.
    const full = probe(bought)!;
    expect(full).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
    expect(full.durationSeconds).toBeCloseTo(CLIP_SECONDS, 0);
    const difference = (a: string, atA: number, b: string, atB: number) => Number(cli('difference', a, String(atA), b, String(atB), '1280', '720'));
    expect(difference(bought, 4, camera, crossing(DEMO_BIB))).toBeLessThan(3);
    expect(difference(bought, 4, path.join(work, 'preview.mp4'), 4)).toBeGreaterThan(6);
    await runner.reload();
    await expect(runner.getByTestId('order-view')).toContainText('Downloaded');

    // The sale on the videographer's screen: the clip is sold (and can no longer be removed).
    await partner.reload();
    await expect(partner.locator(`[data-testid=clip][data-bib="${DEMO_BIB}"]`)).toContainText('sold', { timeout: 30_000 });
    const soldClip = (await partnerVideos(token, eventId)).videos[0]!.clipList.find((c) => c.bibNumber === DEMO_BIB)!;
    expect(soldClip).toMatchObject({ sold: true, status: 'ready' });

    // The clock set again (a second later): the unsold clips are cut anew, the sold one stays as its buyer has it.
    await card.getByRole('button', { name: 'Set the clock again' }).click();
    const again = card.getByTestId('clock-form');
    await expect(again.getByRole('heading')).toHaveText('Set the camera’s clock again');
    await again.getByLabel('Race clock as the camera started (h:mm:ss)').fill(formatRaceTime(raceAtStart + 1));
    await again.getByRole('button', { name: 'Set clock and cut clips again' }).click();
    await expect(partner.getByText(`${finishers.length - 1} clips are being cut. 1 sold clip stays as it was.`)).toBeVisible();
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: CLIPS_WITHIN_MS });
    const recut = (await partnerVideos(token, eventId)).videos[0]!;
    expect(recut.raceSecondsAtStart).toBeCloseTo(raceAtStart + 1, 3);
    expect(recut.clips).toMatchObject({ cut: finishers.length, total: finishers.length });
    expect(recut.clipList.find((c) => c.bibNumber === DEMO_BIB)).toMatchObject({ photoId: soldClip.photoId, imageId: soldClip.imageId, sold: true });
    for (const c of recut.clipList.filter((clip) => clip.bibNumber !== DEMO_BIB)) expect(c.imageId).not.toBe(imageIdOf(c.bibNumber));
    await runner.context().close();
    await partner.context().close();
  });
});
