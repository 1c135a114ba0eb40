import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { API_URL, deploymentUrl, readProcesses, REMOTES, SHELL_URL } from '../support/system';
import { DEMO_EVENT } from '../support/storefront';
import { bottomBar, photoCards, searchBib } from './cart.helpers';
import { DEMO_PASSWORD, DEMO_USERS, formNamed, signInThroughForm, solveCaptcha } from './accounts.helpers';
import { PAY_BUTTON } from './orders.helpers';

/**
 * The shell's and the remotes' servers send a Content-Security-Policy built from the runtime config,
 * and the whole shop still works under it: no request, script, style, image or captcha worker of a
 * real journey is blocked.
 */

/** Every CSP violation the page reports, from both its event and the browser's console message. */
async function watchPolicyViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  await page.exposeFunction('reportPolicyViolation', (text: string) => violations.push(`event: ${text}`));
  // Before any script of the page runs, on every document the page opens.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportPolicyViolation: (text: string) => void }).reportPolicyViolation;
      void report(`${event.effectiveDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  return violations;
}

/** The policy as directive -> sources. */
function directivesOf(policy: string | undefined): Record<string, string[]> {
  expect(policy, 'Content-Security-Policy header').toBeTruthy();
  return Object.fromEntries(
    policy!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

function expectBrowserProtections(headers: Headers): Record<string, string[]> {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  const policy = directivesOf(headers.get('content-security-policy') ?? undefined);
  expect(policy['frame-ancestors']).toEqual(["'none'"]);
  expect(policy['object-src']).toEqual(["'none'"]);
  expect(policy['script-src']).not.toContain("'unsafe-inline'");
  expect(policy['script-src']).not.toContain("'unsafe-eval'");
  return policy;
}

test.describe('security headers of the shell and the remotes', () => {
  test('every answer carries them; the policy names the API and the remotes from the runtime config; caching is unchanged', async () => {
    const page = await fetch(`${SHELL_URL}/`);
    expect(page.status).toBe(200);
    const policy = expectBrowserProtections(page.headers);
    const remoteOrigins = REMOTES.map((name) => deploymentUrl(name));
    // The page's one inline script (the first route's preloads) is allowed by the hash of its exact text, as a browser computes it.
    const inlineScripts = [...(await page.text()).matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
    expect(inlineScripts).toHaveLength(1);
    const inlineHash = `'sha256-${createHash('sha256').update(inlineScripts[0]).digest('base64')}'`;
    expect(policy['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", inlineHash, ...remoteOrigins]);
    expect(policy['connect-src']).toEqual(expect.arrayContaining(["'self'", API_URL, ...remoteOrigins]));
    expect(policy['img-src']).toEqual(expect.arrayContaining([API_URL]));
    expect(policy['media-src']).toEqual(expect.arrayContaining([API_URL]));
    expect(page.headers.get('cache-control')).toBe('no-cache');

    // A client-side route, the runtime config and a missing file answer with the same protections.
    for (const [url, status] of [
      [`${SHELL_URL}/order-history`, 200],
      [`${SHELL_URL}/runtime-config.json`, 200],
      [`${SHELL_URL}/no-such-file.js`, 404],
    ] as const) {
      const response = await fetch(url);
      expect(response.status).toBe(status);
      expectBrowserProtections(response.headers);
    }
    expect((await fetch(`${SHELL_URL}/runtime-config.json`)).headers.get('cache-control')).toBe('no-store');

    // A remote: its manifest, its entry, a content-hashed chunk (cached for a year) and a missing file.
    const storefront = deploymentUrl('storefront');
    const chunk = fs.readdirSync(readProcesses().deployments.storefront.dir).find((file) => /\.[0-9a-f]{8}\.js$/.test(file));
    expect(chunk).toBeTruthy();
    for (const file of ['mf-manifest.json', 'remoteEntry.js', chunk!, 'index.html']) {
      const response = await fetch(`${storefront}/${file}`);
      expect(response.status).toBe(200);
      const remotePolicy = expectBrowserProtections(response.headers);
      expect(remotePolicy['connect-src']).toEqual(expect.arrayContaining([API_URL]));
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect((await fetch(`${storefront}/${chunk}`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${storefront}/remoteEntry.js`)).headers.get('cache-control')).toBe('no-cache');
    const missing = await fetch(`${storefront}/nothing-here.js`);
    expect(missing.status).toBe(404);
    expectBrowserProtections(missing.headers);
  });

  test('the watch for violations sees one when the policy blocks something', async ({ page }) => {
    const violations = await watchPolicyViolations(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
    expect(violations).toEqual([]);
    // An image from an origin the policy does not name (127.0.0.1 is not localhost to the browser).
    await page.evaluate(
      (src) => {
        const image = document.createElement('img');
        image.src = src;
        document.body.append(image);
      },
      `http://127.0.0.1:${new URL(API_URL).port}/health`,
    );
    await expect.poll(() => violations.filter((v) => v.startsWith('event: img-src blocked')).length).toBe(1);
    await expect.poll(() => violations.filter((v) => v.startsWith('console:')).length).toBeGreaterThan(0);
  });

  test('nothing is blocked from home to checkout, sign-in with the captcha and the order history', async ({ page }) => {
    const violations = await watchPolicyViolations(page);

    // Home -> event -> BIB search -> products: the previews are the API's signed images.
    await searchBib(page, DEMO_EVENT, 'TT20608');
    const previews = page.getByTestId('photo-grid').locator('img');
    await expect(previews.first()).toBeVisible();
    await expect.poll(() => previews.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // -> cart -> checkout page, whose guest form carries the captcha: it must solve under the policy.
    await photoCards(page).nth(0).getByRole('button', { name: 'Add To Cart' }).click();
    await page.evaluate(() => localStorage.setItem('showModal', 'false'));
    await bottomBar(page).getByRole('button', { name: 'Proceed to checkout' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByTestId('bill-summary')).toHaveAttribute('data-source', 'server');
    await page.getByTestId('bill-summary').getByRole('button', { name: 'Proceed to checkout' }).click();
    await expect(page).toHaveURL(/\/checkoutPage-authentication$/);
    await page.getByRole('tab', { name: 'Guest Checkout' }).click();
    const guest = formNamed(page, 'Guest checkout');
    await guest.getByLabel('Name', { exact: true }).fill('Policy Check');
    await guest.getByLabel('Email', { exact: true }).fill('policy-check@example.com');
    await guest.getByLabel('Phone number', { exact: true }).fill('9876543210');
    await solveCaptcha(guest, PAY_BUTTON);

    // Sign-in page: the captcha again, then a real sign-in, then the account's order history.
    await signInThroughForm(page, DEMO_USERS.runner, DEMO_PASSWORD);
    await expect(page.getByTestId('account-button')).toBeVisible();
    await page.goto('/order-history');
    await expect(page.getByRole('heading', { name: 'Order History' })).toBeVisible();

    expect(violations).toEqual([]);
  });
});
