import type { AppContext } from '../../context';

/** The account mails. Every mail goes through ctx.mailer (outbox folder by default, SMTP when configured). */

/** An account mail: the greeting, its paragraphs and the team's signature. */
async function sendAccountMail(ctx: AppContext, mail: { to: string; tag: string; subject: string; firstName: string; body: string[] }): Promise<void> {
  await ctx.mailer.send({
    to: mail.to,
    tag: mail.tag,
    subject: mail.subject,
    text: [`Hi ${mail.firstName},`, '', ...mail.body, '', 'Team Finishline'].join('\n'),
  });
}

/** The lines of a mail that carry an email proof code: what it is for, where to type it, how long it lasts. */
function emailProofLines(ctx: AppContext, code: string, minutes: number): string[] {
  return [
    `Your code to confirm this email address is ${code}`,
    '',
    `Sign in and enter it at ${ctx.config.shellUrl}/verify-email (or on your order history). It is valid for ${minutes} minutes and can be used once.`,
    'Orders placed with this address without signing in show in your order history once the address is confirmed.',
  ];
}

/** The welcome mail; a sign-up's carries the first email proof code (Google's needs none: Google proved the address). */
export async function sendWelcomeMail(ctx: AppContext, to: string, firstName: string, proof?: { code: string; minutes: number }): Promise<void> {
  await sendAccountMail(ctx, {
    to,
    firstName,
    tag: 'welcome',
    subject: 'Welcome to Finishline',
    body: [
      'Your Finishline account is ready. Sign in to see your order history and check out faster:',
      `${ctx.config.shellUrl}/sign-in`,
      '',
      ...(proof
        ? [
            ...emailProofLines(ctx, proof.code, proof.minutes),
            '',
            `If you did not create this account, someone signed up with your address. Take the account over by resetting its password at ${ctx.config.shellUrl}/forgot-password: nothing placed with your address without signing in is shown to it before the address is confirmed.`,
            '',
          ]
        : []),
      'Find your race photos by BIB number or with a selfie, and download them for 30 days after purchase.',
    ],
  });
}

export async function sendEmailCodeMail(ctx: AppContext, to: string, firstName: string, code: string, minutes: number): Promise<void> {
  await sendAccountMail(ctx, {
    to,
    firstName,
    tag: 'email_code',
    subject: 'Confirm your email address',
    body: [...emailProofLines(ctx, code, minutes), '', 'If you did not ask for it, ignore this mail.'],
  });
}

/**
 * Google proved the address of an account whose password was set before the address was proven:
 * anyone could have set it, so it was removed and the other sessions ended.
 */
export async function sendUnprovenPasswordRemovedMail(ctx: AppContext, to: string, firstName: string): Promise<void> {
  await sendAccountMail(ctx, {
    to,
    firstName,
    tag: 'password_removed',
    subject: 'Your Finishline email address is confirmed',
    body: [
      'Your Google sign-in confirmed that this email address is yours.',
      'The password of this account had been set before the address was confirmed, so we could not tell who set it: it was removed, and every other device was signed out.',
      `Sign in with Google, or choose a new password at ${ctx.config.shellUrl}/forgot-password.`,
    ],
  });
}

export async function sendPasswordCodeMail(ctx: AppContext, to: string, firstName: string, code: string, minutes: number): Promise<void> {
  await sendAccountMail(ctx, {
    to,
    firstName,
    tag: 'password_code',
    subject: 'Your Finishline passcode',
    body: [
      `Your passcode to reset your password is ${code}`,
      '',
      `It is valid for ${minutes} minutes and can be used once. Enter it on the Reset Password page.`,
      'If you did not ask for it, ignore this mail: your password stays as it is.',
    ],
  });
}

export async function sendPasswordChangedMail(ctx: AppContext, to: string, firstName: string): Promise<void> {
  await sendAccountMail(ctx, {
    to,
    firstName,
    tag: 'password_changed',
    subject: 'Your Finishline password was changed',
    body: [
      'The password of your Finishline account was just changed, and other devices were signed out.',
      `If this was not you, reset your password at ${ctx.config.shellUrl}/forgot-password and write to ${ctx.config.mail.supportAddress}.`,
    ],
  });
}
