import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll, smallTargets } from '../support/accessibility';
import {
  accountMenuEntries,
  DEMO_PASSWORD,
  logOutThroughMenu,
  mailsTo,
  signedInPage,
  signInThroughForm,
  signUpThroughForm,
  uniqueEmail,
} from './accounts.helpers';

/**
 * "List your race" and the operator console, on a phone: a new account asks to organise a race
 * (the form refuses a last day before the first), the operator declines with a reason the account
 * reads, the account asks again, the operator approves on a desktop, and after signing in again the
 * account has the Event Dashboard; each answer is mailed once. The console also shows every event.
 */
const OPERATOR = 'operator@finishline.test';

const signedIn = (browser: Browser, email: string, viewport: { width: number; height: number }) =>
  signedInPage(browser, email, { viewport, hasTouch: viewport.width < 500 });

async function fillRequest(page: Page, fields: { race: string; from: string; to: string }): Promise<void> {
  const form = page.getByRole('form', { name: 'List your race' });
  await form.getByLabel('Race name').fill(fields.race);
  await form.getByLabel('First day').fill(fields.from);
  await form.getByLabel('Last day').fill(fields.to);
  await form.getByLabel('City').fill('Nashik');
  await form.getByLabel('Expected runners').fill('2500');
  await form.getByLabel('Contact name').fill('Kavya Iyer');
  await form.getByLabel('Contact mobile').fill('9876543210');
}

test('a new account lists its race: declined with a reason, asked again, approved; it then organises races', async ({ browser }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('kavya.race');
  const race = `Nashik Vineyard Half ${Date.now() % 100000}`;
  const phone = await (await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true })).newPage();
  await signUpThroughForm(phone, {
    firstName: 'Kavya',
    lastName: 'Iyer',
    email,
    phone: `98${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    password: DEMO_PASSWORD,
  });
  await signInThroughForm(phone, email, DEMO_PASSWORD);
  await expect(phone.getByTestId('account-button')).toBeVisible();
  await phone.goto('/list-your-race');
  await expect(phone.getByRole('heading', { name: 'List your race' })).toBeVisible();
  await expectAccessible(phone, 'List your race at 360 x 740');
  await expectNoSidewaysScroll(phone, 'List your race at 360 x 740');
  expect.soft(await smallTargets(phone, '[data-testid="list-your-race"]'), 'targets under 44 px on List your race').toEqual([]);

  // The form says what is wrong before anything is sent.
  await fillRequest(phone, { race, from: '2099-02-14', to: '2099-02-13' });
  await phone.getByRole('button', { name: 'Send request' }).click();
  await expect(phone.getByText('The last day cannot be before the first day.')).toBeVisible();
  await phone.getByLabel('Last day').fill('2099-02-15');
  await phone.getByRole('button', { name: 'Send request' }).click();
  await expect(phone.getByText('Thank you. We review requests within two working days and mail you the answer.')).toBeVisible();
  await expect(phone.getByText('Your request is being reviewed')).toBeVisible();
  await expect.poll(async () => (await mailsTo(email, 'organiser_request_received')).length).toBe(1);

  // The operator declines with a reason.
  const operator = await signedIn(browser, OPERATOR, { width: 1280, height: 800 });
  expect(await accountMenuEntries(operator)).toContain('Operator Console');
  await operator.getByTestId('account-button').click();
  await operator.getByTestId('account-menu-operator').click();
  await expect(operator.getByRole('heading', { name: 'Operator Console' })).toBeVisible();
  const card = operator.getByTestId('organiser-request').filter({ hasText: race });
  await expect(card).toContainText(`Nashik, 14 Feb 2099 to 15 Feb 2099, about 2,500 runners`);
  await expect(card).toContainText(`Account: Kavya Iyer (${email})`);
  await expectAccessible(operator, 'the Operator Console at 1280 x 800');
  await card.getByRole('button', { name: `Decline: ${race}` }).click();
  const dialog = operator.getByRole('dialog', { name: `Decline: ${race}` });
  await dialog.getByRole('button', { name: 'Decline and mail the reason' }).click();
  await expect(dialog.getByText('Please say why the request is declined.')).toBeVisible();
  await dialog.getByLabel('Reason (the account reads it)').fill('Please send the city permit for the route.');
  await dialog.getByRole('button', { name: 'Decline and mail the reason' }).click();
  await expect(operator.getByText('Declined: the reason is mailed.')).toBeVisible();
  // Answered: no longer waiting (it moves under "Answered recently").
  await expect(operator.getByRole('button', { name: `Approve: ${race}` })).toHaveCount(0);
  await expect
    .poll(async () => (await mailsTo(email, 'organiser_request_declined')).map((m) => m.text.includes('Please send the city permit for the route.')))
    .toEqual([true]);

  // The account reads the reason and asks again.
  await phone.reload();
  await expect(phone.getByText(`We could not list ${race}`)).toBeVisible();
  await expect(phone.getByText('Please send the city permit for the route. You may send a new request below.')).toBeVisible();
  await fillRequest(phone, { race, from: '2099-02-14', to: '2099-02-14' });
  await phone.getByRole('button', { name: 'Send request' }).click();
  await expect(phone.getByText('Your request is being reviewed')).toBeVisible();

  // Approved: the account organises races from its next sign-in.
  await operator.reload();
  await operator.getByRole('button', { name: `Approve: ${race}` }).click();
  await expect(operator.getByText(`Approved: ${email} now organises races.`)).toBeVisible();
  await expect.poll(async () => (await mailsTo(email, 'organiser_request_approved')).length).toBe(1);

  await logOutThroughMenu(phone);
  await signInThroughForm(phone, email, DEMO_PASSWORD);
  await expect(phone.getByTestId('account-button')).toBeVisible();
  await phone.goto('/list-your-race');
  await expect(phone.getByText('Your account organises races')).toBeVisible();
  await phone.getByRole('link', { name: 'Open the Event Dashboard' }).click();
  await phone.waitForURL('**/organization_dashboard');

  // Every event at a glance, with its state.
  const events = operator.getByRole('region', { name: 'Every event' }).or(operator.locator('section[aria-labelledby="events-heading"]'));
  await expect(events.getByRole('row').filter({ hasText: 'Mumbai Coastal Marathon 2026' })).toContainText('Published');
});
