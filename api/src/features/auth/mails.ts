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

export async function sendWelcomeMail(ctx: AppContext, to: string, firstName: string): Promise<void> {
  await sendAccountMail(ctx, {
    to,
    firstName,
    tag: 'welcome',
    subject: 'Welcome to Finishline',
    body: [
      'Your Finishline account is ready. Sign in to see your order history and check out faster:',
      `${ctx.config.shellUrl}/sign-in`,
      '',
      'Find your race photos by BIB number or with a selfie, and download them for 30 days after purchase.',
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
