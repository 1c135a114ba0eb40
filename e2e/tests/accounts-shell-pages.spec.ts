import { expect, test } from '@playwright/test';
import { API_URL } from '../support/system';
import { DEMO_PASSWORD, DEMO_USERS, signInThroughForm } from './accounts.helpers';

test.describe('shell pages: FAQ, legal, errors, navbar', () => {
  test('FAQ: 23 expandable questions, Still have questions leads to Contact Us, scroll to top', async ({ page }) => {
    await page.goto('/faqs');
    const questions = page.getByTestId('faq-list').locator('.ant-collapse-header');
    await expect(questions).toHaveCount(23);
    await page.getByText('Do you deliver prints outside India?').click();
    await expect(page.getByText('Prints are delivered only to addresses in India')).toBeVisible();
    await page.getByText('How long can I download my photos?').click();
    await expect(page.getByText('Downloads are available for 30 days')).toBeVisible();
    await page.mouse.wheel(0, 4000);
    const backTop = page.getByRole('button', { name: 'Scroll to top' });
    await expect(backTop).toBeVisible();
    await backTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(50);
    await page.getByRole('button', { name: 'Still have questions' }).click();
    await page.waitForURL('**/contact-us');
  });

  test('terms, privacy policy (effective 15 July 2021) and the error pages', async ({ page }) => {
    await page.goto('/terms-and-conditions');
    await expect(page.getByRole('heading', { name: 'Terms and Conditions' })).toBeVisible();
    await expect(page.getByText('Digital downloads are non-refundable')).toBeVisible();
    await page.goto('/privacypolicy');
    await expect(page.getByText('Effective 15 July 2021')).toBeVisible();
    await page.goto('/errorone');
    await expect(page.getByText('Error 404: the server cannot find the requested resource.')).toBeVisible();
    await page.goto('/errortwo');
    await expect(page.getByText(/unexpected condition/)).toBeVisible();
  });

  test('the catch-all shows the home page', async ({ page }) => {
    await page.goto('/no-such-page-here');
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
  });

  test('unauthorised page: its Log out link ends the session', async ({ page }) => {
    await signInThroughForm(page, DEMO_USERS.runner, DEMO_PASSWORD);
    await expect(page.getByTestId('account-button')).toBeVisible();
    const token = await page.evaluate(() => localStorage.getItem('session_token'));
    await page.goto('/unauthorizeduser');
    await expect(page.getByText('You are not authorized to access this page.')).toBeVisible();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('session_token'))).toBeNull();
    expect((await fetch(`${API_URL}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  test('navbar: Events opens the events site in a new window, sticky after 250px, fits 360px', async ({ page, context }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/faqs');
    const navbar = page.getByTestId('navbar');
    await expect(navbar.getByRole('button', { name: 'My Cart' })).toBeVisible();
    await expect(navbar.getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.mouse.wheel(0, 600);
    await expect(navbar).toHaveAttribute('data-sticky', 'true');
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(navbar).toHaveAttribute('data-sticky', 'false');

    await navbar.getByRole('button', { name: 'Menu' }).click();
    const popupPromise = context.waitForEvent('page');
    await page.getByRole('dialog').getByRole('button', { name: 'Events' }).click();
    const popup = await popupPromise;
    expect(popup.url()).not.toContain('localhost');
    await popup.close();
  });
});

test.describe('first visit: cookie consent and pre-order popup', () => {
  // A browser that has never been here: nothing stored yet.
  test.use({ storageState: { cookies: [], origins: [] } });

  test('both cookie buttons store consent; the pre-order popup waits for the next visit, shows once, and never for an organiser', async ({ page, browser }) => {
    await page.goto('/');
    const cookies = page.getByRole('dialog', { name: 'We use cookies' });
    await expect(cookies).toBeVisible();
    await cookies.getByRole('button', { name: 'Accept Cookies' }).click();
    expect(await page.evaluate(() => localStorage.getItem('Cookies'))).toBe('true');
    const popup = page.getByRole('dialog', { name: 'Pre-order your race photos' });
    // Not on top of the decision just made: the home page stays the visitor's.
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
    await page.waitForTimeout(2_000);
    await expect(popup).toHaveCount(0);

    await page.reload();
    await expect(popup).toBeVisible();
    await popup.getByRole('button', { name: 'Ignore' }).click();
    await expect(popup).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Pre-order your race photos' })).toHaveCount(0);
    await expect(page.getByRole('dialog', { name: 'We use cookies' })).toHaveCount(0);

    // Another new browser: Cancel also stores consent, and on the next visit Pre Order goes to the pre-order page.
    const other = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const second = await other.newPage();
    await second.goto(page.url());
    await second.getByRole('dialog', { name: 'We use cookies' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await second.evaluate(() => localStorage.getItem('Cookies'))).toBe('true');
    await second.reload();
    await second.getByRole('dialog', { name: 'Pre-order your race photos' }).getByRole('button', { name: 'Pre Order' }).click();
    await second.waitForURL(/\/preorder\?eventId=\d+/);
    expect(await second.evaluate(() => localStorage.getItem('preOrderPopupShown'))).toBe('true');
    await other.close();

    // An organiser signing in on a browser that never saw the popup lands at work, not on a popup.
    const third = await browser.newContext({
      storageState: { cookies: [], origins: [{ origin: new URL(page.url()).origin, localStorage: [{ name: 'Cookies', value: 'true' }] }] },
    });
    const organiserPage = await third.newPage();
    await signInThroughForm(organiserPage, DEMO_USERS.organiser, DEMO_PASSWORD);
    await expect(organiserPage.getByTestId('account-button')).toBeVisible();
    await organiserPage.goto('/');
    await expect(organiserPage.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
    await organiserPage.waitForTimeout(2_000);
    await expect(organiserPage.getByRole('dialog', { name: 'Pre-order your race photos' })).toHaveCount(0);
    await third.close();
  });
});
