import fs from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { API_URL } from '../support/system';
import { expectAccessible, expectNoSidewaysScroll } from '../support/accessibility';
import { apiEventId, DEMO_EVENT } from '../support/storefront';
import { accountMenuEntries, DEMO_PASSWORD, DEMO_USERS, signInThroughForm, signUpThroughForm, uniqueEmail } from './accounts.helpers';

/**
 * The photographer's journeys: a runner registers for an event (the form's messages, the Welcome
 * reply), the organiser approves, the page then shows the locked nick name and masked bank details and
 * an update works; the demo partner's My Share shows the seeded sales at the agreed share, with the
 * chart and the CSV; a runner is sent to /unauthorizeduser.
 */
interface Answer<T> {
  status: number;
  body: { StatusCode: number; Message: string; result: T };
}
async function api<T>(route: string, body: unknown, token?: string): Promise<Answer<T>> {
  const response = await fetch(`${API_URL}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
}

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('session_token') ?? '');
/** Rupees as the pages show them (whole amounts without paise, others with two decimals). */
const inr = (n: number) => `₹${n.toLocaleString('en-IN', { minimumFractionDigits: Number.isInteger(n) ? 0 : 2, maximumFractionDigits: 2 })}`;

const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true };

async function signedIn(
  browser: Browser,
  email: string,
  password = DEMO_PASSWORD,
  device: Parameters<Browser['newContext']>[0] = {},
): Promise<{ page: Page; token: string }> {
  const context = await browser.newContext(device);
  const page = await context.newPage();
  await signInThroughForm(page, email, password);
  await expect(page).not.toHaveURL(/sign-in/);
  await expect(page.getByTestId('account-button')).toBeVisible();
  return { page, token: await tokenOf(page) };
}

async function pickEvent(page: Page, letters: string, name: string): Promise<void> {
  await page.getByLabel('Event', { exact: true }).fill(letters);
  await page.locator('.ant-select-item-option', { hasText: name }).first().click();
  await expect(page.getByTestId('partner-selected-event')).toContainText(name);
}

test.describe.configure({ mode: 'serial' });

test.describe('partner: registration, approval, My Share', () => {
  const email = uniqueEmail('photographer');
  const nickname = `ph${String(Date.now()).slice(-6)}`;

  test('a runner registers as a photographer: the form’s messages, then the Welcome reply', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signUpThroughForm(page, { firstName: 'Rhea', lastName: 'Kapoor', email, phone: '9820098765', password: DEMO_PASSWORD });
    await signInThroughForm(page, email, DEMO_PASSWORD);
    await expect(page.getByTestId('account-button')).toBeVisible();

    // Not a partner yet: My Share is refused.
    await page.goto('/show_revenue');
    await page.waitForURL('**/unauthorizeduser');
    await expect(page.getByText('You are not authorized to access this page.')).toBeVisible();

    await page.goto('/registration');
    await expect(page.getByRole('heading', { name: 'Event registration' })).toBeVisible();
    // The search input takes 2 letters.
    await page.getByLabel('Event', { exact: true }).fill('Mumbai');
    await expect(page.getByLabel('Event', { exact: true })).toHaveValue('Mu');
    await pickEvent(page, 'Mu', DEMO_EVENT);
    const form = page.getByRole('form', { name: 'Partner registration form' });
    await expect(form.getByLabel('Email', { exact: true })).toHaveValue(email);
    await expectAccessible(page, 'the registration form');

    await form.getByRole('button', { name: 'Register' }).click();
    for (const text of [
      'First name is required',
      'Nick name must have 6 to 8 characters',
      'Incorrect account number format',
      'Incorrect IFSC Code format',
      'Incorrect PAN Card format',
      'Please agree to the partner terms',
      'Camera and availability remarks are required',
      'Please tick the dates you are available on',
    ]) {
      await expect(form.getByText(text, { exact: true })).toBeVisible();
    }
    await form.getByLabel('First name').fill('Rhea');
    await form.getByLabel('Last name').fill('Kapoor');
    await form.getByLabel('Mobile number').fill('9820098765');
    await form.getByLabel(/^Nick name/).fill('rhea');
    await form.getByLabel('Account holder name').fill('Rhea Kapoor');
    await form.getByLabel('Account number').fill('1234');
    await form.getByLabel('Bank name').fill('HDFC Bank');
    await form.getByLabel('Branch').fill('Bandra');
    await form.getByLabel('IFSC code').fill('HDFC0A12345');
    await form.getByLabel('PAN', { exact: true }).fill('ABCDE12345');
    await form.getByLabel('Camera and availability remarks').fill('Two bodies, 70-200 mm; all day');
    await form.getByRole('button', { name: 'Register' }).click();
    for (const text of [
      'Nick name must have 6 to 8 characters',
      'Incorrect account number format',
      'Incorrect IFSC Code format',
      'Incorrect PAN Card format',
    ]) {
      await expect(form.getByText(text, { exact: true })).toBeVisible();
    }
    await expect(page.getByTestId('partner-reply')).toHaveCount(0);

    await form.getByLabel(/^Nick name/).fill(nickname);
    await form.getByLabel('Account number').fill('501002345678');
    await form.getByLabel('IFSC code').fill('HDFC0012345');
    await form.getByLabel('PAN', { exact: true }).fill('ABCPK1234R');
    await form.getByRole('radio', { name: 'Current' }).check();
    await form.getByRole('checkbox', { name: '2026-01-18' }).check();
    await expect(form.getByText('JPG files of 3-4MB')).toBeVisible();
    await form.getByRole('checkbox', { name: 'I agree to the partner terms' }).check();
    await form.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByTestId('partner-reply')).toContainText(/^Welcome to Finishline, Rhea!/);
    await expect(page.getByTestId('partner-status')).toContainText('Waiting for the organiser’s approval');
    // The account is a partner now: the menu offers every photographer page, named as on the page.
    await page.reload();
    expect(await accountMenuEntries(page)).toEqual(expect.arrayContaining(['Registration', 'Upload', 'My Photos', 'My Share']));
    await context.close();
  });

  test('the organiser approves; the page shows the locked nick name and masked bank details; an update works', async ({ browser }) => {
    const eventId = await apiEventId(DEMO_EVENT);
    const runner = await signedIn(browser, email);
    const lookup = await api<{ partner: { partnerid: number } }>('/api/partner/registration/lookup', { eventId }, runner.token);
    const organiser = await signedIn(browser, DEMO_USERS.organiser);
    const approved = await api(
      '/api/organiser/partners/decide',
      { eventId, partnerUserId: lookup.body.result.partner.partnerid, decision: 'approved' },
      organiser.token,
    );
    expect(approved.status, approved.body.Message).toBe(200);
    await organiser.page.context().close();

    const page = runner.page;
    await page.goto('/registration');
    await pickEvent(page, 'Mu', DEMO_EVENT);
    await expect(page.getByTestId('partner-status')).toContainText('Approved');
    const form = page.getByRole('form', { name: 'Partner registration form' });
    const nick = form.getByLabel('Nick name (locked)');
    await expect(nick).toHaveValue(nickname);
    await expect(nick).toHaveAttribute('readonly', '');
    // Masked: the last four only, in the labels; the inputs are empty (empty keeps the stored values).
    await expect(form.getByText('Account number (XXXXXX5678; leave empty to keep it)')).toBeVisible();
    await expect(form.getByText('PAN (XXXXXX234R; leave empty to keep it)')).toBeVisible();
    await expect(page.locator('body')).not.toContainText('501002345678');
    await expect(page.locator('body')).not.toContainText('ABCPK1234R');

    await form.getByLabel('Branch').fill('Khar West');
    await form.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByTestId('partner-reply')).toHaveText('Your partner details are updated.');
    await page.reload();
    await pickEvent(page, 'Mu', DEMO_EVENT);
    await expect(form.getByLabel('Branch')).toHaveValue('Khar West');
    await expect(page.getByTestId('partner-status')).toContainText('Approved');
    await page.context().close();
  });

  test('the demo partner’s My Share: the seeded sales at the agreed share, the chart and the CSV', async ({ browser }) => {
    const eventId = await apiEventId(DEMO_EVENT);
    const organiser = await signedIn(browser, DEMO_USERS.organiser);
    // The organiser's ledger of the same event: what the partner's page must agree with.
    const ledger = await api<Array<{ nickname: string; sales: number; share: number; share_percent: number }>>(
      '/api/organiser/dashboard/partners',
      { eventId },
      organiser.token,
    );
    const kabir = ledger.body.result.find((r) => r.nickname === 'kabirsh')!;
    expect(kabir.share).toBeGreaterThan(0);
    expect(kabir.share_percent).toBe(70);
    await organiser.page.context().close();

    const { page } = await signedIn(browser, DEMO_USERS.partner);
    await page.getByTestId('account-button').click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item', { hasText: 'My Share' }).click();
    await page.waitForURL('**/show_revenue');
    await expect(page.getByRole('heading', { name: 'My Share' })).toBeVisible();
    const row = page.locator('tr.ant-table-row', { hasText: DEMO_EVENT });
    await expect(row).toBeVisible();
    const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
    expect(cells).toEqual([
      DEMO_EVENT,
      inr(kabir.sales),
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^\d+$/),
      '70',
      inr(kabir.share),
    ]);
    // Approved for two seeded events (and any race a journey before this one created and approved it
    // for, as the certificate journey does): a row per event.
    await expect(page.locator('tr.ant-table-row').nth(1)).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Your share per day chart' }).locator('svg.recharts-surface')).toBeVisible();
    await expect(page.getByText('No payouts yet.')).toBeVisible();
    await expectAccessible(page, 'My Share');

    // GET DATA for one event narrows the rows.
    await page.getByRole('combobox', { name: 'Event' }).click();
    await page.locator('.ant-select-item-option', { hasText: DEMO_EVENT }).click();
    await page.getByRole('button', { name: 'GET DATA' }).click();
    await expect(page.locator('tr.ant-table-row')).toHaveCount(1);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV: my-share.csv' }).click();
    const csv = fs.readFileSync(await (await download).path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toBe('Event,price,totalorders,totalimages,userimages,share_percent,usr_share');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe([DEMO_EVENT, kabir.sales, cells[2], cells[3], cells[4], 70, kabir.share].join(','));

    // The organiser records a payout on the Photographers tab: more than the share is refused.
    const organiserAgain = await signedIn(browser, DEMO_USERS.organiser);
    const dashboard = organiserAgain.page;
    await dashboard.goto(`/organization_dashboard?event=${eventId}&tab=photographers`);
    const payout = dashboard.getByRole('region', { name: 'Record a payout' });
    await payout.getByRole('combobox', { name: 'Photographer to pay' }).click();
    await dashboard.locator('.ant-select-item-option', { hasText: 'Kabir Shah' }).click();
    await payout.getByLabel('Amount paid (₹)').fill('9999999');
    await payout.getByLabel('Transfer reference').fill('UTR-E2E-1');
    await payout.getByRole('button', { name: 'Record payout' }).click();
    await expect(dashboard.getByText(`The payout is more than the share still to pay (${inr(kabir.share)}).`)).toBeVisible();
    await payout.getByLabel('Amount paid (₹)').fill('100');
    await payout.getByRole('button', { name: 'Record payout' }).click();
    await expect(dashboard.getByText('The payout is recorded.')).toBeVisible();
    await dashboard.context().close();

    await page.reload();
    await page.getByRole('combobox', { name: 'Event' }).click();
    await page.locator('.ant-select-item-option', { hasText: DEMO_EVENT }).click();
    await page.getByRole('button', { name: 'GET DATA' }).click();
    const payouts = page.getByRole('region', { name: 'Payouts' });
    await expect(payouts.locator('tr.ant-table-row', { hasText: 'UTR-E2E-1' })).toContainText('₹100');
    const stillToPay = inr(Math.round((kabir.share - 100) * 100) / 100).replace(/[.]/g, '\\.');
    await expect(payouts).toContainText(new RegExp(`Still to pay\\s*${stillToPay}`));
    await page.context().close();
  });

  test('at 360 px: the partner pages never scroll sideways (My Share’s table scrolls inside itself); My Photos picks the only event', async ({ browser }) => {
    // The photographer registered above is approved for one event only.
    const { page } = await signedIn(browser, email, DEMO_PASSWORD, PHONE);
    await page.goto('/show_revenue');
    await expect(page.getByRole('heading', { name: 'My Share' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'GET DATA' })).toBeEnabled();
    await expect(page.locator('.ant-table')).toBeVisible();
    await expectNoSidewaysScroll(page, 'My Share for a new photographer');
    await page.context().close();

    const partner = await signedIn(browser, DEMO_USERS.partner, DEMO_PASSWORD, PHONE);
    await partner.page.goto('/show_revenue');
    // The share table (the payouts table below may hold the payout recorded above).
    const shareTable = partner.page.locator('.ant-table').first();
    // A row per approved event: two seeded, and races journeys create (the certificate journey's).
    await expect(shareTable.locator('tr.ant-table-row').nth(1)).toBeVisible();
    await expectNoSidewaysScroll(partner.page, 'My Share');
    // The wide table scrolls inside its own box instead.
    const table = await shareTable
      .locator('.ant-table-content, .ant-table-body')
      .first()
      .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, overflow: getComputedStyle(el).overflowX }));
    expect(table.overflow).toMatch(/auto|scroll/);
    expect(table.scroll).toBeGreaterThan(table.client);
    await expectAccessible(partner.page, 'My Share at 360 px');
    await partner.page.goto('/registration');
    await expect(partner.page.getByRole('heading', { name: 'Event registration' })).toBeVisible();
    await expectNoSidewaysScroll(partner.page, 'the registration page');
    await partner.page.goto('/upload');
    await expect(partner.page.getByTestId('supply-event')).toBeVisible();
    await expectNoSidewaysScroll(partner.page, 'the upload page');
    await expectAccessible(partner.page, 'the upload page');
    await partner.page.context().close();

    const single = await signedIn(browser, email, DEMO_PASSWORD, PHONE);
    await single.page.goto('/photos');
    await expect(single.page.getByTestId('supply-event')).toContainText(DEMO_EVENT);
    await expect(single.page.getByText('Uploaded')).toBeVisible();
    await expectNoSidewaysScroll(single.page, 'My Photos');
    await expectAccessible(single.page, 'My Photos');
    await single.page.context().close();
  });
});
