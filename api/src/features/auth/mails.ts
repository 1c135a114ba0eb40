import type { AppContext } from '../../context';

/** The account mails. Every mail goes through ctx.mailer (outbox folder by default, SMTP when configured). */

export async function sendWelcomeMail(ctx: AppContext, to: string, firstName: string): Promise<void> {
  const signInUrl = `${ctx.config.shellUrl}/sign-in`;
  await ctx.mailer.send({
    to,
    tag: 'welcome',
    subject: 'Welcome to Finishline',
    text: [
      `Hi ${firstName},`,
      '',
      'Your Finishline account is ready. Sign in to see your order history and check out faster:',
      signInUrl,
      '',
      'Find your race photos by BIB number or with a selfie, and download them for 30 days after purchase.',
      '',
      'Team Finishline',
    ].join('\n'),
  });
}

export async function sendPasswordCodeMail(ctx: AppContext, to: string, firstName: string, code: string, minutes: number): Promise<void> {
  await ctx.mailer.send({
    to,
    tag: 'password_code',
    subject: 'Your Finishline passcode',
    text: [
      `Hi ${firstName},`,
      '',
      `Your passcode to reset your password is ${code}`,
      '',
      `It is valid for ${minutes} minutes and can be used once. Enter it on the Reset Password page.`,
      'If you did not ask for it, ignore this mail: your password stays as it is.',
      '',
      'Team Finishline',
    ].join('\n'),
  });
}

export async function sendPasswordChangedMail(ctx: AppContext, to: string, firstName: string): Promise<void> {
  await ctx.mailer.send({
    to,
    tag: 'password_changed',
    subject: 'Your Finishline password was changed',
    text: [
      `Hi ${firstName},`,
      '',
      'The password of your Finishline account was just changed, and other devices were signed out.',
      `If this was not you, reset your password at ${ctx.config.shellUrl}/forgot-password and write to ${ctx.config.mail.supportAddress}.`,
      '',
      'Team Finishline',
    ].join('\n'),
  });
}
