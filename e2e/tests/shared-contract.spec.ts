import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { deploymentUrl, readProcesses } from '../support/system';
import { buildFromOtherCheckout, currentRuntimeContract, releases, runtimeContractEdit } from '../support/otherCheckout';
import { DEMO_BIB, DEMO_EVENT } from '../support/storefront';
import { bottomBar, photoCards, searchBib } from './cart.helpers';

/**
 * Version skew between separately released deployments, through the real release script: each
 * remote here is built from another checkout whose `shared` differs from the one the running shell
 * was built with, released with `pnpm release <remote> --from <build>`, and rolled back afterwards.
 */

const UPDATING = 'This part of Finishline is being updated.';
const OLD_COLLAGE_WARNING = '*Minimum 3 photos are mandatory to make collage';
const NEW_COLLAGE_WARNING = '*Minimum 4 photos are mandatory to make collage';
const SHELL_FILES = ['index.html', 'main.js', 'remoteEntry.js', 'mf-manifest.json'];

const [major, minor] = currentRuntimeContract().split('.').map(Number);
const PREVIOUS_CONTRACT = `${major}.${Math.max(0, minor - 1)}.0`;
const NEXT_MAJOR_CONTRACT = `${major + 1}.0.0`;

async function shellFingerprint(): Promise<string[]> {
  return Promise.all(
    SHELL_FILES.map(async (file) => {
      const body = Buffer.from(await (await fetch(`${deploymentUrl('shell')}/${file}`)).arrayBuffer());
      return crypto.createHash('sha256').update(body).digest('hex');
    }),
  );
}

/** Which copies of a shared module the federation runtime loaded, and who uses them. */
async function loadedCopies(page: Page, name: string): Promise<Array<{ version: string; from: string; useIn: string[] }>> {
  return page.evaluate((moduleName) => {
    type Share = { from: string; loaded?: boolean; useIn: string[] };
    const w = window as unknown as { __FEDERATION__: { __SHARE__: Record<string, Record<string, Record<string, Record<string, Share>>>> } };
    const copies: Array<{ version: string; from: string; useIn: string[] }> = [];
    for (const scopes of Object.values(w.__FEDERATION__.__SHARE__)) {
      for (const packages of Object.values(scopes)) {
        for (const [version, shared] of Object.entries(packages[moduleName] ?? {})) {
          if (shared.loaded && !copies.some((copy) => copy.version === version && copy.from === shared.from))
            copies.push({ version, from: shared.from, useIn: shared.useIn });
        }
      }
    }
    return copies;
  }, name);
}

async function addOneCollagePhotoAndOpenCart(page: Page): Promise<void> {
  await searchBib(page, DEMO_EVENT, DEMO_BIB);
  await photoCards(page).nth(0).getByTestId('collage').click();
  await expect(bottomBar(page)).toContainText('1 Collage(s)');
  await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
  await page.waitForURL('**/cart');
}

test.describe.configure({ mode: 'serial' });

test.describe('the shared contract across separately released remotes', () => {
  test.setTimeout(600_000);

  test(`(a) a storefront built against the previous contract (${PREVIOUS_CONTRACT}) keeps working beside this shell: one cart, one runtime`, async ({
    page,
  }) => {
    const built = buildFromOtherCheckout('storefront', 'previous-contract', [runtimeContractEdit(PREVIOUS_CONTRACT)]);
    releases('release', 'storefront', '--from', built);
    try {
      const manifests: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/mf-manifest.json')) manifests.push(request.url());
      });
      await searchBib(page, DEMO_EVENT, DEMO_BIB);
      expect(manifests.some((url) => url.startsWith(deploymentUrl('storefront')) && url.includes('/releases/'))).toBe(true);
      await photoCards(page).first().getByRole('button', { name: 'Add To Cart' }).click();
      // The shell's navbar reads the same cart atom the storefront just wrote.
      await expect(page.getByTestId('cart-count')).toContainText('1');
      await expect(bottomBar(page)).toContainText('You have 1 Image(s)');

      const runtime = await loadedCopies(page, '@finishline/shared/runtime');
      expect(runtime).toHaveLength(1);
      expect(runtime[0]).toMatchObject({ version: currentRuntimeContract(), from: 'shell' });
      expect(runtime[0].useIn).toEqual(expect.arrayContaining(['shell', 'storefront']));
    } finally {
      releases('rollback', 'storefront', 'initial');
    }
  });

  test('(b) a storefront with a new pricing rule in shared ships it alone; release, rollback and release again, the shell untouched', async ({ page }) => {
    const { pid: shellPid, since: shellSince } = readProcesses().deployments.shell;
    const shellBefore = await shellFingerprint();
    const built = buildFromOtherCheckout('storefront', 'new-collage-rule', [
      { file: 'shared/src/pricing/pricing.ts', find: 'export const COLLAGE_MIN_PHOTOS = 3;', replace: 'export const COLLAGE_MIN_PHOTOS = 4;' },
      { file: 'shared/src/pricing/pricing.ts', find: `'${OLD_COLLAGE_WARNING}'`, replace: `'${NEW_COLLAGE_WARNING}'` },
    ]);

    await addOneCollagePhotoAndOpenCart(page);
    await expect(page.getByTestId('collage-section')).toContainText(OLD_COLLAGE_WARNING);

    try {
      const first = releases('release', 'storefront', '--from', built);
      await page.reload();
      await expect(page.getByTestId('collage-section')).toContainText(NEW_COLLAGE_WARNING);

      releases('rollback', 'storefront');
      await page.reload();
      await expect(page.getByTestId('collage-section')).toContainText(OLD_COLLAGE_WARNING);

      const again = releases('release', 'storefront', '--from', built);
      expect(again).not.toEqual(first); // a new immutable version, never the old folder rewritten
      await page.reload();
      await expect(page.getByTestId('collage-section')).toContainText(NEW_COLLAGE_WARNING);
      expect(releases('list')).toMatch(/storefront: live v\d+/);
    } finally {
      releases('rollback', 'storefront', 'initial');
    }
    await page.reload();
    await expect(page.getByTestId('collage-section')).toContainText(OLD_COLLAGE_WARNING);
    expect(readProcesses().deployments.shell).toMatchObject({ pid: shellPid, since: shellSince });
    expect(await shellFingerprint()).toEqual(shellBefore);
  });

  test(`(c) a certificate remote that needs contract ${NEXT_MAJOR_CONTRACT} shows "${UPDATING}" and every other route works`, async ({ page }) => {
    const built = buildFromOtherCheckout('certificate', 'next-major-contract', [runtimeContractEdit(NEXT_MAJOR_CONTRACT)]);
    releases('release', 'certificate', '--from', built);
    try {
      await page.goto('/eventcertificate');
      await expect(page.getByText(UPDATING)).toBeVisible();
      await expect(page.getByTestId('remote-incompatible')).toHaveAttribute('data-remote-incompatible', 'certificate');
      await expect(page.getByTestId('navbar')).toBeVisible();

      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
      await page.goto('/order-history');
      await expect(page.locator('[data-remote="account"]')).toBeAttached();
      await page.goto('/contact-us');
      await expect(page.getByText(UPDATING)).toHaveCount(0);
    } finally {
      releases('rollback', 'certificate', 'initial');
    }
    await page.goto('/eventcertificate');
    await expect(page.locator('[data-remote="certificate"]')).toBeAttached();
    await expect(page.getByText(UPDATING)).toHaveCount(0);
  });
});
