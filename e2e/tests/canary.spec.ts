import { expect, test, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';
import { RELEASE_BUCKET_KEY } from '@finishline/shared/pure';
import { API_URL, deploymentUrl, readOutbox } from '../support/system';
import { buildFromOtherCheckout, releases } from '../support/otherCheckout';

/**
 * A storefront team releases to half of the visitors first (`pnpm release storefront --canary 50`),
 * promotes it, and then releases a broken build as a canary that rolls itself back: the shell reports
 * each remote's views and errors per release, the API's canary watch compares the canary's errors per
 * view with the current release's and ends the canary past its threshold.
 */

const HOME_HEADING = 'Find your race photos';
const FALLBACK = 'This part of Finishline is not reachable right now.';
const GOOD_BANNER = 'Storefront canary build';

interface Visitor {
  context: BrowserContext;
  page: Page;
}

async function openHome(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.locator('[data-remote="storefront"]').or(page.getByTestId('remote-fallback'))).toBeAttached({ timeout: 30_000 });
}

/** The storefront manifests the page fetched while it opened the home page: which release it runs. */
async function storefrontManifests(page: Page): Promise<string[]> {
  const urls: string[] = [];
  const record = (request: Request) => {
    if (request.url().endsWith('/mf-manifest.json') && request.url().startsWith(deploymentUrl('storefront'))) urls.push(request.url());
  };
  page.on('request', record);
  await openHome(page);
  await expect(page.getByRole('heading', { name: HOME_HEADING })).toBeVisible();
  page.off('request', record);
  return urls;
}

/** New browsers until one drew a bucket inside the share and one outside (each keeps its bucket). */
async function oneOnEachSide(browser: Browser, share: number): Promise<{ canary: Visitor; current: Visitor }> {
  const found: { canary?: Visitor; current?: Visitor } = {};
  for (let tries = 0; tries < 30 && !(found.canary && found.current); tries++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await openHome(page);
    const bucket = Number(await page.evaluate((key) => localStorage.getItem(key), RELEASE_BUCKET_KEY));
    const side = bucket < share ? 'canary' : 'current';
    if (found[side]) await context.close();
    else found[side] = { context, page };
  }
  if (!found.canary || !found.current) throw new Error('No two browsers on both sides of the canary in 30 tries');
  return { canary: found.canary, current: found.current };
}

interface Stored {
  counts: Array<{ remote: string; version: string; views: number; errors: number }>;
  samples: Array<{ remote: string; version: string; kind: string; route: string; message: string }>;
}
const stored = async (): Promise<Stored> => ((await (await fetch(`${API_URL}/dev/client-reports.json`)).json()) as { result: Stored }).result;

test.describe.configure({ mode: 'serial' });

test.describe('canary releases of a remote', () => {
  test.setTimeout(600_000);

  test('a 50% canary goes to one browser and not the other, sticky; promoted it goes to both; a broken canary rolls itself back', async ({ browser }) => {
    const good = buildFromOtherCheckout('storefront', 'canary-good', [], { BUILD_BANNER: GOOD_BANNER });
    const broken = buildFromOtherCheckout('storefront', 'canary-broken', [
      {
        file: 'mfe-storefront/src/App.tsx',
        find: 'export default function StorefrontApp() {\n',
        replace:
          "export default function StorefrontApp() {\n  if (globalThis.location) throw new Error('Broken canary for asha@example.com, call 9876543210');\n",
      },
    ]);
    const visitors: Visitor[] = [];
    try {
      const canaryVersion = releases('release', 'storefront', '--canary', '50', '--from', good).match(/storefront (v\d+) is live for 50% of visitors/)?.[1];
      expect(canaryVersion).toBeDefined();
      const { canary, current } = await oneOnEachSide(browser, 50);
      visitors.push(canary, current);

      // Each stays on its side across reloads.
      for (let i = 0; i < 2; i++) {
        await openHome(canary.page);
        await openHome(current.page);
        await expect(canary.page.getByTestId('build-banner')).toHaveText(GOOD_BANNER);
        await expect(current.page.getByRole('heading', { name: HOME_HEADING })).toBeVisible();
        await expect(current.page.getByTestId('build-banner')).toHaveCount(0);
      }
      // Each fetches only its own release's manifest (the page's early preload picks the same side).
      expect(await storefrontManifests(canary.page)).toEqual([`${deploymentUrl('storefront')}/releases/${canaryVersion}/mf-manifest.json`]);
      expect(await storefrontManifests(current.page)).toEqual([`${deploymentUrl('storefront')}/mf-manifest.json`]);
      expect(releases('list')).toContain(`storefront: live initial for 50% of visitors, canary ${canaryVersion} for 50%`);

      // Promoted: both browsers get it.
      releases('release', 'storefront', '--promote');
      for (const visitor of [canary, current]) {
        await openHome(visitor.page);
        await expect(visitor.page.getByTestId('build-banner')).toHaveText(GOOD_BANNER);
      }

      // A broken canary at 50% judged after 3 views: the canary side sees the remote fail (3 page views, each
      // reported with its error), the other side nothing.
      const brokenVersion = releases('release', 'storefront', '--canary', '50', '--from', broken, '--min-views', '3', '--max-error-rate', '20').match(
        /storefront (v\d+) is live/,
      )?.[1];
      for (let i = 0; i < 3; i++) {
        await openHome(canary.page);
        await expect(canary.page.getByText(FALLBACK)).toBeVisible();
        await openHome(current.page);
        await expect(current.page.getByTestId('build-banner')).toHaveText(GOOD_BANNER);
        await expect(current.page.getByRole('heading', { name: HOME_HEADING })).toBeVisible();
        await expect(current.page.getByText(FALLBACK)).toHaveCount(0);
      }
      // The pages stay open: what waited for the browser's limit (six batches a minute; each page load
      // above sends one) is sent by the page within the next minute.

      // Rolled back by itself: said in pnpm releases and mailed to the team.
      await expect.poll(() => releases('list'), { timeout: 120_000, intervals: [2000] }).toContain(`canary ${brokenVersion} rolled back: by itself:`);
      expect(releases('list')).toMatch(new RegExp(`storefront: live ${canaryVersion}\\n`));
      expect(readOutbox().some((mail) => mail.text.includes(`the storefront canary ${brokenVersion} rolled itself back`))).toBe(true);

      // What the database holds: the broken release's views and render errors, none for the current one, no personal data.
      const { counts, samples } = await stored();
      const brokenCounts = counts.find((row) => row.remote === 'storefront' && row.version === brokenVersion);
      expect(brokenCounts?.views).toBeGreaterThanOrEqual(3);
      expect(brokenCounts?.errors).toBeGreaterThanOrEqual(3);
      expect(counts.find((row) => row.remote === 'storefront' && row.version === canaryVersion)).toMatchObject({ errors: 0 });
      expect(samples).toContainEqual(
        expect.objectContaining({
          remote: 'storefront',
          version: brokenVersion,
          kind: 'render',
          route: '/',
          message: 'Error: Broken canary for [email], call [number]',
        }),
      );
      expect(JSON.stringify(samples)).not.toContain('asha');

      // The canary side gets the current release again.
      await openHome(canary.page);
      await expect(canary.page.getByTestId('build-banner')).toHaveText(GOOD_BANNER);
      await expect(canary.page.getByText(FALLBACK)).toHaveCount(0);
    } finally {
      releases('rollback', 'storefront', 'initial');
      for (const visitor of visitors) await visitor.context.close();
    }
  });
});
