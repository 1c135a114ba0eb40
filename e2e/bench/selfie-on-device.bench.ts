/**
 * On-device selfie search in headless Chromium on a mid-range phone profile (CPU slowed 4x through
 * the DevTools protocol, a 412x915 screen), against a running system (`pnpm start`, or the e2e copy):
 * what the selfie modal downloads for the on-device model (library chunk, model weights, WebAssembly)
 * and the time from opening the modal to the model being ready, and from 'Find My Photos' to the
 * first match. The selfie's face is added to the event first (development route), so it matches.
 *
 *   pnpm bench:selfie-device       (BENCH_URL=http://localhost:3000)
 *   BENCH_URL=http://localhost:3600 BENCH_API_URL=http://localhost:4600 BENCH_RUNS=3 ...
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type CDPSession, type Page } from '@playwright/test';

const BASE_URL = process.env.BENCH_URL ?? 'http://localhost:3000';
const API_URL = process.env.BENCH_API_URL ?? BASE_URL.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1000}`);
const EVENT = process.env.BENCH_EVENT ?? 'Mumbai Coastal Marathon 2026';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CPU_SLOWDOWN = Number(process.env.BENCH_CPU_SLOWDOWN ?? 4);
const FACES_DIR = path.resolve(__dirname, '..', '..', '..', 'shared', 'data', 'faces');

function firstFace(): string | null {
  if (!fs.existsSync(FACES_DIR)) return null;
  const person = fs.readdirSync(FACES_DIR).sort()[0];
  const file = person ? fs.readdirSync(path.join(FACES_DIR, person)).sort()[0] : undefined;
  return person && file ? path.join(FACES_DIR, person, file) : null;
}

async function eventId(): Promise<number> {
  const names = (await (await fetch(`${API_URL}/api/events/names`)).json()) as { result: { events: Array<{ event_id: number; event_name: string }> } };
  return names.result.events.find((e) => e.event_name === EVENT)!.event_id;
}

/** Bytes received per kind of on-device file, counted from the network events of the page. */
function countDownloads(cdp: CDPSession): { sizes: Record<'chunk' | 'weights' | 'wasm', number>; start(): void } {
  const sizes = { chunk: 0, weights: 0, wasm: 0 };
  const urls = new Map<string, string>();
  let counting = false;
  cdp.on('Network.responseReceived', (e: { requestId: string; response: { url: string } }) => urls.set(e.requestId, e.response.url));
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
    const url = urls.get(e.requestId) ?? '';
    if (!counting) return;
    // Scripts fetched once the modal opened: the face library's chunk (the rest was already loaded).
    if (url.endsWith('.js')) sizes.chunk += e.encodedDataLength;
    else if (url.includes('/face-models/') && url.endsWith('.wasm')) sizes.wasm += e.encodedDataLength;
    else if (url.includes('/face-models/')) sizes.weights += e.encodedDataLength;
  });
  return {
    sizes,
    start: () => {
      counting = true;
    },
  };
}

async function openModal(page: Page): Promise<void> {
  await page.goto(BASE_URL, { waitUntil: 'networkidle' });
  await page.getByPlaceholder('Search your event').fill(EVENT);
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${EVENT}$`) })
    .click();
  await page.getByRole('tab', { name: 'Search by Selfie' }).click();
  await page.getByRole('tabpanel').getByRole('button', { name: 'Search by Selfie' }).click();
}

async function agree(page: Page): Promise<void> {
  const consent = page.getByTestId('face-consent');
  if (await consent.isVisible().catch(() => false)) await consent.getByRole('button', { name: 'I agree' }).click();
}

async function main(): Promise<void> {
  const face = firstFace();
  if (face) {
    const added = await fetch(`${API_URL}/dev/faces/event-photo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ eventID: await eventId(), image: fs.readFileSync(face).toString('base64') }),
    });
    if (!added.ok) throw new Error(`could not add the face photo: HTTP ${added.status}`);
  } else console.log(`no face photos at ${FACES_DIR}: download size and model load only`);

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  console.log(`on-device selfie search, ${BASE_URL}, CPU slowed ${CPU_SLOWDOWN}x, ${RUNS} runs (each a fresh browser profile: nothing cached)`);
  try {
    for (let run = 1; run <= RUNS; run += 1) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 915 },
        deviceScaleFactor: 2.6,
        isMobile: true,
        hasTouch: true,
        reducedMotion: 'reduce',
      });
      await context.addInitScript(() => {
        localStorage.setItem('Cookies', 'true');
        localStorage.setItem('preOrderPopupShown', 'true');
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      const { sizes, start } = countDownloads(cdp);
      await openModal(page);
      start();
      await agree(page);
      const opened = performance.now();
      await page.getByTestId('selfie-path').and(page.locator('[data-path="device"]')).waitFor({ timeout: 300_000 });
      const ready = performance.now() - opened;
      let match = Number.NaN;
      if (face) {
        await page.getByTestId('selfie-file').setInputFiles(face);
        await page.getByTestId('selfie-preview').waitFor();
        const clicked = performance.now();
        await page.getByRole('button', { name: 'Find My Photos' }).click();
        await page.locator('.ant-message-success').waitFor({ timeout: 300_000 });
        match = performance.now() - clicked;
      }
      const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
      const total = sizes.chunk + sizes.weights + sizes.wasm;
      console.log(
        `run ${run}: downloaded ${kb(total)} (library chunk ${kb(sizes.chunk)}, model weights ${kb(sizes.weights)}, WebAssembly ${kb(sizes.wasm)}); ` +
          `model ready ${(ready / 1000).toFixed(1)} s after the modal opened; first match ${(match / 1000).toFixed(1)} s after Find My Photos ` +
          `(${((ready + match) / 1000).toFixed(1)} s from opening)`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
