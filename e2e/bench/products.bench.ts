/**
 * Photo selection benchmark in headless Chromium, against a running system (`pnpm start`, or the
 * e2e copy): the time from pressing 'Find My Photos' to the grid's first photos painted, and the
 * frame rate while scrolling the 300-photo BIB down to its last photo.
 *
 *   pnpm bench:products            (BENCH_URL=http://localhost:3000 by default)
 *   BENCH_URL=http://localhost:3400 BENCH_RUNS=5 pnpm bench:products
 */
import { chromium, type Page } from '@playwright/test';

const BASE_URL = process.env.BENCH_URL ?? 'http://localhost:3000';
const EVENT = process.env.BENCH_EVENT ?? 'Mumbai Coastal Marathon 2026';
const BIB = process.env.BENCH_BIB ?? 'TT30000';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FIRST_PHOTOS = 3;

interface RunResult {
  searchToFirstPhotosMs: number;
  photos: number;
  fps: number;
  p95FrameMs: number;
  longFrames: number;
  scrollSeconds: number;
  cardsRendered: number;
}

async function chooseEvent(page: Page): Promise<void> {
  await page.goto(BASE_URL, { waitUntil: 'networkidle' });
  await page.getByPlaceholder('Search your event').fill(EVENT);
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${EVENT}$`) })
    .click();
  await page.getByTestId('hero-panel').waitFor();
  await page.getByPlaceholder('Enter your BIB number (ex: TT20608)').fill(BIB);
}

/** Records, inside the page, the click time and the first frame after FIRST_PHOTOS grid images have decoded. */
async function measureSearch(page: Page): Promise<number> {
  await page.evaluate((wanted) => {
    const w = window as unknown as { __bench: { clickAt?: number; paintedAt?: number } };
    w.__bench = {};
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Find My Photos'));
    button?.addEventListener('click', () => (w.__bench.clickAt = performance.now()), { capture: true, once: true });
    const check = () => {
      const images = [...document.querySelectorAll<HTMLImageElement>('[data-testid="photo-grid"] img')];
      const ready = images.length >= wanted && images.slice(0, wanted).every((img) => img.complete && img.naturalWidth > 0);
      // The frame after the one in which the images are ready is when they are on screen.
      if (ready) requestAnimationFrame(() => (w.__bench.paintedAt = performance.now()));
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, FIRST_PHOTOS);
  await page.getByRole('button', { name: 'Find My Photos' }).click();
  await page.waitForFunction(() => (window as unknown as { __bench: { paintedAt?: number } }).__bench.paintedAt !== undefined, null, { timeout: 60_000 });
  return page.evaluate(() => {
    const b = (window as unknown as { __bench: { clickAt: number; paintedAt: number } }).__bench;
    return b.paintedAt - b.clickAt;
  });
}

/** Scrolls to the last photo at a steady pace and counts the frames the browser produced. */
async function measureScroll(page: Page): Promise<Omit<RunResult, 'searchToFirstPhotosMs'>> {
  return page.evaluate(async () => {
    const frames: number[] = [];
    const started = performance.now();
    let last = started;
    const total = Number(document.querySelector('[data-testid="congrats-bar"]')?.textContent?.match(/There are (\d+) photos/)?.[1] ?? 0);
    await new Promise<void>((resolve) => {
      const step = (now: number) => {
        frames.push(now - last);
        last = now;
        window.scrollBy(0, 60);
        const atEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
        const cards = document.querySelectorAll('[data-testid="photo-card"]').length;
        if ((atEnd && cards >= total) || now - started > 60_000) resolve();
        else requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    const seconds = (performance.now() - started) / 1000;
    const sorted = frames.slice(1).sort((a, b) => a - b);
    return {
      photos: total,
      fps: Math.round((frames.length / seconds) * 10) / 10,
      p95FrameMs: Math.round(sorted[Math.floor(sorted.length * 0.95)] * 10) / 10,
      longFrames: sorted.filter((ms) => ms > 50).length,
      scrollSeconds: Math.round(seconds * 10) / 10,
      cardsRendered: document.querySelectorAll('[data-testid="photo-card"]').length,
    };
  });
}

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true });
  const results: RunResult[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      // A fresh context each run: no cached images, an empty shop store.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      // tsx keeps function names with a __name helper that the page does not have.
      // A returning visitor: cookie consent given, the pre-order popup seen.
      await context.addInitScript("window.__name = (fn) => fn; localStorage.setItem('Cookies', 'true'); localStorage.setItem('preOrderPopupShown', 'true');");
      const page = await context.newPage();
      await chooseEvent(page).catch(async (error: unknown) => {
        await page.screenshot({ path: process.env.BENCH_FAILURE_SCREENSHOT ?? 'bench-failure.png' });
        throw error;
      });
      const searchToFirstPhotosMs = Math.round(await measureSearch(page));
      const scroll = await measureScroll(page);
      results.push({ searchToFirstPhotosMs, ...scroll });
      console.log(
        `run ${run + 1}: search→first ${FIRST_PHOTOS} photos painted ${searchToFirstPhotosMs} ms; scroll ${scroll.fps} fps (p95 frame ${scroll.p95FrameMs} ms, ${scroll.longFrames} frames > 50 ms) over ${scroll.scrollSeconds} s, ${scroll.cardsRendered}/${scroll.photos} photos`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    `\nBIB ${BIB} (${results[0]?.photos ?? 0} photos), ${RUNS} runs, medians: search→first photos painted ${median(results.map((r) => r.searchToFirstPhotosMs))} ms, scrolling ${median(results.map((r) => r.fps))} fps, p95 frame ${median(results.map((r) => r.p95FrameMs))} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
