import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { API_URL } from '../support/system';

export const DEMO_PASSWORD = 'Finish@2026';
export const DEMO_USERS = {
  runner: 'runner@finishline.test',
  organiser: 'organiser@finishline.test',
  partner: 'partner@finishline.test',
} as const;

export interface Mail {
  to: string;
  subject: string;
  text: string;
  tag: string;
}

/** The development outbox page's JSON twin: the mails the API wrote, newest first. */
export async function mailsTo(address: string, tag?: string): Promise<Mail[]> {
  const query = new URLSearchParams({ to: address, ...(tag ? { tag } : {}) });
  const response = await fetch(`${API_URL}/dev/outbox.json?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: Mail[] }).result;
}

/** Ticks the ALTCHA box of the form and waits until the proof of work is done (the submit button enables). */
export async function solveCaptcha(form: Locator, submitName: string | RegExp): Promise<number> {
  const submit = form.getByRole('button', { name: submitName, exact: true });
  await expect(submit).toBeDisabled();
  const started = Date.now();
  // Where a person clicks: the box (its tick mark sits over the input).
  await form.getByTestId('captcha').locator('.altcha-checkbox').click();
  await expect(submit).toBeEnabled({ timeout: 20_000 });
  return Date.now() - started;
}

/** A form of the page by its accessible name (each account form has an aria-label). */
export const formNamed = (page: Page, name: string) => page.getByRole('form', { name });

/** Shows the field's validation message after typing a value and leaving the field. */
export async function typeAndLeave(scope: Page | Locator, label: string, value: string): Promise<void> {
  const field = scope.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.blur();
}

/** Makes an account through the sign-up form; the page ends on /sign-in. */
export async function signUpThroughForm(
  page: Page,
  account: { firstName: string; lastName: string; email: string; phone: string; password: string },
): Promise<void> {
  await page.goto('/sign-up');
  const form = formNamed(page, 'Sign up');
  await form.getByLabel('First name').fill(account.firstName);
  await form.getByLabel('Last name').fill(account.lastName);
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Phone').fill(account.phone);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByLabel('Confirm password').fill(account.password);
  await solveCaptcha(form, 'Sign Up');
  await form.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.waitForURL('**/sign-in');
}

export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  const form = formNamed(page, 'Sign in');
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await solveCaptcha(form, 'Sign In');
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** The account dropdown's entries, as shown to the signed-in user. */
export async function accountMenuEntries(page: Page): Promise<string[]> {
  await page.getByTestId('account-button').click();
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item');
  await expect(menu.first()).toBeVisible();
  const entries = (await menu.allInnerTexts()).map((text) => text.trim());
  await page.keyboard.press('Escape');
  return entries;
}

export async function logOutThroughMenu(page: Page): Promise<void> {
  await page.getByTestId('account-button').click();
  await page.getByTestId('account-menu-logout').click();
  await expect(page.getByTestId('navbar').getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
}

export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** A new browser context signed in as this demo account (password DEMO_PASSWORD), on a page showing the account button. */
export async function signedInPage(browser: Browser, email: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  await signInThroughForm(page, email, DEMO_PASSWORD);
  await expect(page.getByTestId('account-button')).toBeVisible();
  return page;
}
