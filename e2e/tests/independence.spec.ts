import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  DATA_DIR,
  deploymentUrl,
  PORTS,
  readProcesses,
  REPO_ROOT,
  restoreDeployment,
  startDeployment,
  stopDeployment,
  type Deployment,
} from '../support/system';
import { BIB_PLACEHOLDER, chooseEvent, DEMO_BIB } from '../support/storefront';
import { DEMO_PASSWORD, DEMO_USERS, signInThroughForm } from './accounts.helpers';

const FALLBACK = 'This part of Finishline is not reachable right now.';
const NEVER_FOR_RUNNERS: Deployment[] = ['partner', 'organiser', 'certificate'];

function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

const fromDeployment = (urls: string[], name: Deployment) => urls.filter((url) => new URL(url).port === String(PORTS[name]));

async function sha256(url: string): Promise<string> {
  const body = Buffer.from(await (await fetch(url)).arrayBuffer());
  return crypto.createHash('sha256').update(body).digest('hex');
}

test.describe('remotes are independent deployments', () => {
  test('(a) on / and /products the browser requests no file of partner, organiser or certificate', async ({ page }) => {
    const urls = recordRequests(page);
    await page.goto('/');
    await chooseEvent(page);
    await page.getByPlaceholder(BIB_PLACEHOLDER).fill(DEMO_BIB);
    await page.getByRole('button', { name: 'Find My Photos' }).click();
    await page.waitForURL('**/products');
    await expect(page.getByTestId('photo-grid').locator('img').first()).toBeVisible();
    await page.reload(); // /products loaded directly, too
    await expect(page.getByTestId('congrats-bar')).toBeVisible();

    expect(fromDeployment(urls, 'storefront').some((url) => url.endsWith('/mf-manifest.json'))).toBe(true);
    for (const name of NEVER_FOR_RUNNERS) expect(fromDeployment(urls, name), `${name} files requested`).toEqual([]);
    expect(fromDeployment(urls, 'account')).toEqual([]);
  });

  test('(a) a partner’s pages, opened directly, load the shell and the partner remote only', async ({ browser }) => {
    const context = await browser.newContext();
    const signIn = await context.newPage();
    await signInThroughForm(signIn, DEMO_USERS.partner, DEMO_PASSWORD);
    await expect(signIn.getByTestId('account-button')).toBeVisible();
    await signIn.close();
    // A fresh tab of the signed-in partner: only what /show_revenue and /registration need is fetched.
    const page = await context.newPage();
    const urls = recordRequests(page);
    await page.goto('/registration');
    await expect(page.getByRole('heading', { name: 'Event registration' })).toBeVisible();
    const registrationFiles = fromDeployment(urls, 'partner').filter((url) => url.endsWith('.js'));
    await page.goto('/show_revenue');
    await expect(page.getByRole('heading', { name: 'My Share' })).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Your share per day chart' }).locator('svg.recharts-surface')).toBeVisible();
    // The chart library comes with My Share's chart only, not with the registration page.
    const holdsCharts = async (list: string[]) =>
      (await Promise.all(list.map(async (url) => (await (await fetch(url)).text()).includes('recharts-surface')))).some(Boolean);
    expect(await holdsCharts(registrationFiles)).toBe(false);
    expect(await holdsCharts(fromDeployment(urls, 'partner').filter((url) => url.endsWith('.js')))).toBe(true);

    expect(fromDeployment(urls, 'partner').some((url) => url.endsWith('/mf-manifest.json'))).toBe(true);
    for (const name of ['storefront', 'account', 'organiser', 'certificate'] as const)
      expect(fromDeployment(urls, name), `${name} files requested`).toEqual([]);
    await context.close();
  });

  test('(b) with the storefront down its routes show the fallback, shell pages still work, Retry recovers', async ({ page }) => {
    await stopDeployment('storefront');
    try {
      await page.goto('/');
      await expect(page.getByText(FALLBACK)).toBeVisible();
      await expect(page.getByTestId('navbar')).toBeVisible();

      await page.goto('/unauthorizeduser');
      await expect(page.getByText('You are not authorized to access this page.')).toBeVisible();
      await expect(page.locator('[data-remote]')).toHaveCount(0);
      // Another remote is unaffected.
      await page.goto('/order-history');
      await expect(page.locator('[data-remote="account"]')).toBeAttached();
      await expect(page.getByText(FALLBACK)).toHaveCount(0);

      await page.goto('/products');
      await expect(page.getByText(FALLBACK)).toBeVisible();
    } finally {
      await restoreDeployment('storefront');
    }
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.locator('[data-remote="storefront"]')).toBeAttached();
    await expect(page.getByText(FALLBACK)).toHaveCount(0);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
  });

  test('(b) with the account remote down its routes show the fallback and the storefront still works', async ({ page }) => {
    await stopDeployment('account');
    try {
      await page.goto('/order-history');
      await expect(page.getByText(FALLBACK)).toBeVisible();
      await expect(page.locator('[data-remote="account"]')).toHaveCount(0);
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
      await chooseEvent(page);
      await page.getByPlaceholder(BIB_PLACEHOLDER).fill(DEMO_BIB);
      await page.getByPlaceholder(BIB_PLACEHOLDER).press('Enter');
      await expect(page.getByTestId('congrats-bar')).toBeVisible();
    } finally {
      await restoreDeployment('account');
    }
    await page.goto('/order-history');
    await expect(page.locator('[data-remote="account"]')).toBeAttached();
    await expect(page.getByText(FALLBACK)).toHaveCount(0);
  });

  test('(c) a remote rebuilt with a visible change and restarted alone shows it on reload; nothing else changes', async ({ page }) => {
    test.setTimeout(600_000);
    const banner = `Storefront redeployed ${Date.now()}`;
    const outputDir = path.join(DATA_DIR, 'storefront-redeploy');
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
    await expect(page.getByTestId('build-banner')).toHaveCount(0);

    const others: Deployment[] = ['shell', 'account', 'partner', 'organiser', 'certificate'];
    const before = readProcesses().deployments;
    const shellFiles = ['index.html', 'main.js', 'remoteEntry.js', 'mf-manifest.json'];
    const shellHashes = await Promise.all(shellFiles.map((file) => sha256(`${deploymentUrl('shell')}/${file}`)));
    const accountManifest = await sha256(`${deploymentUrl('account')}/mf-manifest.json`);

    const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'webpack-cli', 'bin', 'cli.js'), '--mode', 'production'], {
      cwd: path.join(REPO_ROOT, 'mfe-storefront'),
      env: { ...process.env, BUILD_BANNER: banner, OUTPUT_DIR: outputDir },
      encoding: 'utf8',
    });
    expect(build.status, build.stderr + build.stdout).toBe(0);
    expect(fs.existsSync(path.join(outputDir, 'mf-manifest.json'))).toBe(true);

    await stopDeployment('storefront');
    try {
      await startDeployment('storefront', { dir: outputDir });
      await page.reload();
      await expect(page.getByTestId('build-banner')).toHaveText(banner);
      await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();

      const after = readProcesses().deployments;
      for (const name of others)
        expect({ pid: after[name].pid, since: after[name].since }, `${name} was restarted`).toEqual({ pid: before[name].pid, since: before[name].since });
      expect(await Promise.all(shellFiles.map((file) => sha256(`${deploymentUrl('shell')}/${file}`)))).toEqual(shellHashes);
      expect(await sha256(`${deploymentUrl('account')}/mf-manifest.json`)).toBe(accountManifest);
    } finally {
      await restoreDeployment('storefront');
    }
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
    await expect(page.getByTestId('build-banner')).toHaveCount(0);
  });

  test('(d) React is loaded once: one renderer, one shared copy used by shell and storefront', async ({ page }) => {
    // A stand-in for the React DevTools hook: every react-dom copy registers its renderer with it.
    await page.addInitScript(() => {
      const versions: string[] = [];
      (window as unknown as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        renderers: new Map(),
        inject(renderer: { version: string }) {
          versions.push(renderer.version);
          return versions.length;
        },
        onCommitFiberRoot() {},
        onCommitFiberUnmount() {},
        onPostCommitFiberRoot() {},
        checkDCE() {},
        injectedVersions: versions,
      };
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();

    const seen = await page.evaluate(() => {
      const w = window as unknown as {
        __REACT_DEVTOOLS_GLOBAL_HOOK__: { injectedVersions: string[] };
        __FEDERATION__: { __SHARE__: Record<string, Record<string, Record<string, Record<string, { from: string; loaded?: boolean; useIn: string[] }>>>> };
      };
      const copies: Record<string, Array<{ version: string; from: string; useIn: string[] }>> = {};
      for (const scopes of Object.values(w.__FEDERATION__.__SHARE__)) {
        for (const packages of Object.values(scopes)) {
          for (const name of ['react', 'react-dom']) {
            for (const [version, shared] of Object.entries(packages[name] ?? {})) {
              if (!shared.loaded) continue;
              const list = (copies[name] ??= []);
              if (!list.some((copy) => copy.version === version && copy.from === shared.from)) list.push({ version, from: shared.from, useIn: shared.useIn });
            }
          }
        }
      }
      return { renderers: w.__REACT_DEVTOOLS_GLOBAL_HOOK__.injectedVersions, copies };
    });
    expect(seen.renderers).toHaveLength(1);
    expect(seen.copies.react).toHaveLength(1);
    expect(seen.copies['react-dom']).toHaveLength(1);
    expect(seen.copies.react[0].from).toBe('shell');
    expect(seen.copies.react[0].useIn).toEqual(expect.arrayContaining(['shell', 'storefront']));
  });
});
