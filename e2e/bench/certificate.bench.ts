/**
 * Certificate builder benchmark in headless Chromium, against a running system (`pnpm start`, or a
 * copy on other ports): the demo runner's grand slam is searched, one photo per event chosen and
 * cropped, then it measures
 *   - Generate Certificate to the preview drawn (template, cropped photos and fonts loaded, konva drawn),
 *   - Download to the 3840 by 2560 JPEG ready (the stage exported at the template's resolution),
 *   - the page's memory: the JS heap (CDP) and the resident memory of the page's renderer process.
 *
 *   pnpm bench:certificate          (BENCH_URL=http://localhost:3000 by default, BENCH_RUNS=3)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from '@playwright/test';

const BASE_URL = process.env.BENCH_URL ?? 'http://localhost:3000';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RACES: Array<[string, string]> = [
  ['Mumbai Coastal Marathon 2026', 'TT20608'],
  ['Ahmedabad Riverfront Half 2026', 'AR40608'],
  ['Jaipur Pink City 10K 2026', 'JP60608'],
];

/** Resident memory (MB) of the renderer processes of this browser profile (Linux /proc). */
function rendererRssMb(profile: string): number {
  let kb = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('--type=renderer') || !cmdline.includes(profile)) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return Math.round(kb / 1024);
}

async function jsHeapMb(context: BrowserContext, page: Page): Promise<number> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return Math.round((metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1024 / 1024);
}

/** Waits for a performance mark the builder sets (certificate:preview, certificate:jpeg) after the given time. */
async function markAfter(page: Page, name: string, after: number): Promise<number> {
  const handle = await page.waitForFunction(
    ([mark, since]) => performance.getEntriesByName(mark).find((entry) => entry.startTime > since)?.startTime,
    [`certificate:${name}`, after] as const,
    { timeout: 60_000, polling: 50 },
  );
  return (await handle.jsonValue()) as number;
}

async function clickAt(page: Page, name: RegExp): Promise<number> {
  const at = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name }).click();
  return at;
}

async function toPreviewStep(page: Page): Promise<void> {
  await page.goto(BASE_URL, { waitUntil: 'networkidle' });
  await page.getByPlaceholder('Search your event').fill(RACES[0][0]);
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${RACES[0][0]}$`) })
    .click();
  await page.getByPlaceholder('Enter your BIB number (ex: TT20608)').fill(RACES[0][1]);
  await page.getByRole('button', { name: 'Find My Photos' }).click();
  await page.getByRole('button', { name: 'Generate Certificate' }).click();
  const rows = page.getByTestId('certificate-row');
  for (const [i, [event, bib]] of RACES.entries()) {
    if (i === 0) continue;
    await page.getByRole('button', { name: 'Add a race' }).click();
    await rows.nth(i).getByRole('combobox').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${event}$`) })
      .click();
    await rows.nth(i).getByRole('textbox').fill(bib);
  }
  await page.getByRole('button', { name: 'Search' }).click();
  const tabs = page.getByTestId('certificate-tab');
  for (let i = 0; i < RACES.length; i++) {
    await tabs.nth(i).click();
    await page.getByRole('tabpanel').getByTestId('certificate-grid').getByRole('button').first().click();
  }
  await page.getByRole('button', { name: 'Next' }).click();
  const cards = page.getByTestId('certificate-card');
  for (let i = 0; i < RACES.length; i++) {
    await cards.nth(i).getByRole('button', { name: 'Crop & Resize' }).click();
    await page.getByRole('dialog', { name: 'Adjust Image' }).getByRole('button', { name: 'Apply' }).click();
    await cards.nth(i).getByText('Image Cropped & Saved Successfully!').waitFor();
  }
}

async function run(): Promise<void> {
  const results: Array<{ previewMs: number; jpegMs: number; heapBeforeMb: number; heapAfterMb: number; rssBeforeMb: number; rssAfterMb: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-bench-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
      reducedMotion: 'reduce',
      args: ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info'],
    });
    try {
      await context.addInitScript(() => {
        localStorage.setItem('Cookies', 'true');
        localStorage.setItem('preOrderPopupShown', 'true');
      });
      const page = context.pages()[0] ?? (await context.newPage());
      await toPreviewStep(page);
      const heapBeforeMb = await jsHeapMb(context, page);
      const rssBeforeMb = rendererRssMb(profile);
      const generateAt = await clickAt(page, /^Generate Certificate$/);
      const previewAt = await markAfter(page, 'preview', generateAt);
      const downloadAt = await clickAt(page, /Download$/);
      const jpegAt = await markAfter(page, 'jpeg', downloadAt);
      await page.getByText('Certificate downloaded Successfully').waitFor({ timeout: 60_000 });
      results.push({
        previewMs: Math.round(previewAt - generateAt),
        jpegMs: Math.round(jpegAt - downloadAt),
        heapBeforeMb,
        heapAfterMb: await jsHeapMb(context, page),
        rssBeforeMb,
        rssAfterMb: rendererRssMb(profile),
      });
      console.log(`run ${i + 1}: ${JSON.stringify(results[results.length - 1])}`);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`\ncertificate builder, 3840 x 2560, ${RUNS} runs (median):`);
  console.log(`  Generate -> preview drawn: ${median(results.map((r) => r.previewMs))} ms`);
  console.log(`  Download -> JPEG ready:    ${median(results.map((r) => r.jpegMs))} ms`);
  console.log(
    `  JS heap: ${median(results.map((r) => r.heapBeforeMb))} MB before Generate, ${median(results.map((r) => r.heapAfterMb))} MB after the download`,
  );
  console.log(
    `  renderer resident memory: ${median(results.map((r) => r.rssBeforeMb))} MB before Generate, ${median(results.map((r) => r.rssAfterMb))} MB after the download`,
  );
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
