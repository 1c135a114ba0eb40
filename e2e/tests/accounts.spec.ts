import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { API_URL } from '../support/system';
import {
  accountMenuEntries,
  DEMO_PASSWORD,
  DEMO_USERS,
  formNamed,
  logOutThroughMenu,
  mailsTo,
  signInThroughForm,
  signUpThroughForm,
  solveCaptcha,
  typeAndLeave,
  uniqueEmail,
} from './accounts.helpers';

test.describe('accounts journeys', () => {
  test('sign up, read the welcome mail, sign in, change password, log out: the old token is refused', async ({ page }) => {
    const email = uniqueEmail('runner');
    const newPassword = 'Faster2027';

    await page.goto('/sign-up');
    const signUp = formNamed(page, 'Sign up');
    await expect(signUp.getByLabel('First name')).toBeVisible();
    await expectAccessible(page, 'sign up');
    await signUp.getByLabel('First name').fill('Anita');
    await signUp.getByLabel('Last name').fill('Desai');
    await signUp.getByLabel('Email').fill(email);
    await signUp.getByLabel('Phone').fill('9876543210');
    await signUp.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await signUp.getByLabel('Confirm password').fill(DEMO_PASSWORD);
    const solveMs = await solveCaptcha(signUp, 'Sign Up');
    test.info().annotations.push({ type: 'captcha solve (ms, incl. the widget minimum of 500)', description: String(solveMs) });
    await signUp.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect(page.getByText('Registered Successfully ! Please sign in.')).toBeVisible();
    await page.waitForURL('**/sign-in');

    // The welcome mail, read from the development outbox (JSON and the HTML page).
    const welcome = await mailsTo(email, 'welcome');
    expect(welcome).toHaveLength(1);
    expect(welcome[0].subject).toBe('Welcome to Finishline');
    await page.goto(`${API_URL}/dev/outbox?to=${encodeURIComponent(email)}`);
    await expect(page.getByText('Welcome to Finishline')).toBeVisible();

    await signInThroughForm(page, email, DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/');
    await expect(page.getByTestId('account-button')).toContainText('Anita');
    // A new account has not proved its address yet: the menu offers Confirm Email (the demo accounts' are proven).
    expect(await accountMenuEntries(page)).toEqual(['Orders History', 'Confirm Email', 'Change Password', 'List your race', 'Log out']);
    const stored = await page.evaluate(() => ({
      name: localStorage.getItem('Name'),
      email: localStorage.getItem('Email'),
      id: localStorage.getItem('ID'),
      signedIn: localStorage.getItem('isSignedIn'),
      organiser: localStorage.getItem('isOrganiser'),
      partner: localStorage.getItem('isPartner'),
    }));
    expect(stored).toMatchObject({ name: 'Anita', email, signedIn: 'true', organiser: 'false', partner: 'false' });
    expect(Number(stored.id)).toBeGreaterThan(0);

    // Change password from the account menu.
    await page.getByTestId('account-button').click();
    await page.getByTestId('account-menu-change-password').click();
    await page.waitForURL('**/change-password');
    const change = formNamed(page, 'Change password');
    const submit = change.getByRole('button', { name: 'Submit' });
    await expect(submit).toBeDisabled();
    await expectAccessible(page, 'change password');
    await change.getByLabel('Old password').fill(DEMO_PASSWORD);
    await change.getByLabel('New password').fill(newPassword);
    await change.getByLabel('Confirm password').fill(newPassword);
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page.getByText('Password changed successfully')).toBeVisible();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 10_000 });

    // Log out: the server revokes the token, the browser forgets it.
    const token = await page.evaluate(() => localStorage.getItem('session_token'));
    expect(token).toBeTruthy();
    const before = await fetch(`${API_URL}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(before.status).toBe(200);
    await logOutThroughMenu(page);
    expect(await page.evaluate(() => [localStorage.getItem('session_token'), localStorage.getItem('isSignedIn'), localStorage.getItem('Name')])).toEqual([
      null,
      null,
      null,
    ]);
    const after = await fetch(`${API_URL}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);

    // The new password works; the old one no longer does.
    await signInThroughForm(page, email, DEMO_PASSWORD);
    await expect(page.getByText('Invalid email or password.')).toBeVisible();
    await signInThroughForm(page, email, newPassword);
    await expect(page.getByTestId('account-button')).toContainText('Anita');
  });

  for (const [role, email, expected] of [
    ['organiser', DEMO_USERS.organiser, ['Orders History', 'Change Password', 'Event Dashboard', 'Log out']],
    [
      'partner',
      DEMO_USERS.partner,
      ['Orders History', 'Change Password', 'Registration', 'Upload', 'My Photos', 'Videos', 'My Share', 'List your race', 'Log out'],
    ],
    ['runner', DEMO_USERS.runner, ['Orders History', 'Change Password', 'List your race', 'Log out']],
  ] as const) {
    test(`the ${role} sees only the menu entries the role allows`, async ({ page }) => {
      await signInThroughForm(page, email, DEMO_PASSWORD);
      await expect(page.getByTestId('account-button')).toBeVisible();
      expect(await accountMenuEntries(page)).toEqual([...expected]);
      await logOutThroughMenu(page);
    });
  }

  test('forgot password: the mailed code resets it, a wrong code is refused', async ({ page, request }) => {
    const email = uniqueEmail('forgot');
    const signUp = await request.post(`${API_URL}/api/auth/password-code`, { data: { email } });
    expect(signUp.status()).toBe(200); // same answer for an address without an account
    expect(await mailsTo(email)).toHaveLength(0);

    // An account to reset: made through the sign-up form.
    await signUpThroughForm(page, { firstName: 'Rahul', lastName: 'Verma', email, phone: '9123456789', password: 'rahul-pass-1' });

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await formNamed(page, 'Forgot password').getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/reset-password');
    const reset = formNamed(page, 'Reset password');
    await expect(reset.getByLabel('Email')).toHaveValue(email);
    expect(await page.evaluate(() => localStorage.getItem('passcode'))).toBeNull();

    const mails = await mailsTo(email, 'password_code');
    expect(mails).toHaveLength(1);
    const code = /is (\d{6})/.exec(mails[0].text)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);

    const wrongCode = code === '000000' ? '111111' : '000000';
    await reset.getByLabel('Passcode').fill(wrongCode);
    await reset.getByLabel('New password').fill('Rahul2027x');
    await reset.getByLabel('Confirm password').fill('Rahul2027x');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('please provide a valid passcode')).toBeVisible();

    await reset.getByLabel('Passcode').fill(code);
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Your password has been reset. Please sign in with your new password.')).toBeVisible();
    await page.waitForURL('**/sign-in');
    await signInThroughForm(page, email, 'Rahul2027x');
    await expect(page.getByTestId('account-button')).toContainText('Rahul');
  });

  test("each form shows the spec's validation messages for bad input", async ({ page }) => {
    await page.goto('/sign-in');
    const signIn = formNamed(page, 'Sign in');
    await typeAndLeave(signIn, 'Email', 'runner@');
    await expect(signIn.getByText('Invalid email')).toBeVisible();
    await typeAndLeave(signIn, 'Password', 'short');
    await expect(signIn.getByText('Must be atleast 8 letters long!')).toBeVisible();
    await typeAndLeave(signIn, 'Password', '');
    await expect(signIn.getByText('Required!')).toBeVisible();

    await page.goto('/sign-up');
    const signUp = formNamed(page, 'Sign up');
    await typeAndLeave(signUp, 'Phone', '12345');
    await expect(signUp.getByText('Invalid phone number!')).toBeVisible();
    await typeAndLeave(signUp, 'Password', 'longenough');
    await typeAndLeave(signUp, 'Confirm password', 'different1');
    await expect(signUp.getByText('Passwords must match')).toBeVisible();
    // The ISD code dropdown searches by country name.
    await signUp.getByTestId('isd-code').click();
    await page.keyboard.type('united king');
    await page.locator('.ant-select-item-option').filter({ hasText: 'United Kingdom' }).click();
    await expect(signUp.getByTestId('isd-code')).toContainText('+44');
    await typeAndLeave(signUp, 'Phone', '7911123456');
    await expect(signUp.getByText('Invalid phone number!')).toHaveCount(0);

    await page.goto('/contact-us');
    const contact = formNamed(page, 'Contact us');
    await typeAndLeave(contact, 'First name', 'Al');
    await expect(contact.getByText('Too Short!')).toBeVisible();
    await typeAndLeave(contact, 'Last name', 'Rao2');
    await expect(contact.getByText('only alphabets')).toBeVisible();
    await typeAndLeave(contact, 'Phone', '98765');
    await expect(contact.getByText('Must contain 10 Digits!')).toBeVisible();

    await page.goto('/reset-password');
    const reset = formNamed(page, 'Reset password');
    await typeAndLeave(reset, 'Passcode', 'abc');
    await expect(reset.getByText('Enter the passcode')).toBeVisible();
    await typeAndLeave(reset, 'Email', 'someone@');
    await expect(reset.getByText('Enter a Valid mail')).toBeVisible();
    await typeAndLeave(reset, 'New password', 'alllowercase1');
    await expect(
      reset.getByText('Password must be at least eight characters long and should include one each of uppercase, lowercase, number, special character.'),
    ).toBeVisible();
  });

  test('the server refuses a missing or forged captcha', async ({ request }) => {
    const missing = await request.post(`${API_URL}/api/auth/login`, { data: { email: DEMO_USERS.runner, password: DEMO_PASSWORD } });
    expect(missing.status()).toBe(400);
    expect((await missing.json()).Message).toBe('Please complete the captcha.');

    // What the widget sends in its test mode, and a made-up solution: neither passes.
    const forgedPayloads = [
      Buffer.from(JSON.stringify({ challenge: null, solution: null, test: true })).toString('base64'),
      Buffer.from(
        JSON.stringify({
          challenge: {
            parameters: { algorithm: 'PBKDF2/SHA-256', nonce: '00', salt: '00', cost: 1, keyLength: 32, keyPrefix: '00' },
            signature: 'f'.repeat(64),
          },
          solution: { counter: 1, derivedKey: '00'.repeat(32) },
        }),
      ).toString('base64'),
    ];
    for (const gCaptchToken of forgedPayloads) {
      const forged = await request.post(`${API_URL}/api/auth/login`, { data: { email: DEMO_USERS.runner, password: DEMO_PASSWORD, gCaptchToken } });
      expect(forged.status()).toBe(400);
      expect((await forged.json()).Message).toBe('The captcha could not be verified. Please solve it again.');
    }
    const contact = await request.post(`${API_URL}/api/contact`, {
      data: { firstName: 'Kavya', lastName: 'Menon', email: 'kavya@example.com', isdCode: '+91', phoneNo: '9123456780', message: 'Hello' },
    });
    expect((await contact.json()).Message).toBe('Please complete the captcha.');
  });

  test('contact form: sent with the captcha, stored and mailed to support', async ({ page }) => {
    await page.goto('/contact-us');
    await expect(page.getByTestId('whatsapp-link')).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+$/);
    await expect(page.getByTestId('mail-link')).toHaveAttribute('href', /^mailto:/);
    const form = formNamed(page, 'Contact us');
    const marker = `Photos missing ${Date.now()}`;
    await form.getByLabel('First name').fill('Kavya');
    await form.getByLabel('Last name').fill('Menon');
    await form.getByLabel('Email').fill('kavya@example.com');
    await form.getByLabel('Phone').fill('9123456780');
    await form.getByLabel('Message').fill(marker);
    await solveCaptcha(form, 'Send');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Thank you for contacting us. Our support team will reply within 48 hours.')).toBeVisible();
    await expect(form.getByLabel('Message')).toHaveValue('');
    const support = await fetch(`${API_URL}/dev/outbox.json?tag=contact`).then((r) => r.json() as Promise<{ result: Array<{ text: string }> }>);
    expect(support.result.some((mail) => mail.text.includes(marker))).toBe(true);
  });

  test("an account's failed sign-ins ask for a stronger captcha, not a lock-out: its owner signs in with it", async ({ page }) => {
    const email = uniqueEmail('guarded');
    const password = 'Guarded@2026';
    await signUpThroughForm(page, { firstName: 'Gita', lastName: 'Nair', email, phone: '9123456781', password });
    // Someone guesses: 5 failures (the API's default before the strong captcha).
    for (let attempt = 1; attempt <= 5; attempt++) {
      await signInThroughForm(page, email, `Wrong-guess-${attempt}`);
      await expect(page.getByText('Invalid email or password.').last()).toBeVisible();
    }
    // The answer to the fifth already swapped in the strong captcha.
    await expect(formNamed(page, 'Sign in').getByTestId('captcha')).toHaveAttribute('data-strength', 'strong');

    // The owner, on a fresh page with the standard captcha and the right password: asked for the strong one.
    await signInThroughForm(page, email, password);
    await expect(
      page.getByText('There were several failed sign-ins to this account. Please solve the captcha again (it takes a little longer) and sign in.'),
    ).toBeVisible();
    const form = formNamed(page, 'Sign in');
    await expect(form.getByTestId('captcha')).toHaveAttribute('data-strength', 'strong');
    const solveMs = await solveCaptcha(form, 'Sign In');
    test.info().annotations.push({ type: 'strong captcha solve (ms)', description: String(solveMs) });
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByTestId('account-button')).toContainText('Gita');
  });
});
