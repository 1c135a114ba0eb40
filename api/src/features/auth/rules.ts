import type { AppContext } from '../../context';
import type { RateLimitRule } from '../../security/rateLimit';

/** The rate-limit rules of the account calls; their limits come from configuration (env). */

export const SIGN_IN_LIMIT_MESSAGE = 'Too many failed sign-in attempts. Please wait 15 minutes and try again, or reset your password.';
export const PASSWORD_CODE_LIMIT_MESSAGE = 'Too many passcode requests. Please wait an hour and try again.';
export const SIGN_UP_LIMIT_MESSAGE = 'Too many sign-ups from this network. Please try again later.';

const normalEmail = (email: string) => email.trim().toLowerCase();

/** Failed sign-ins counted per account and per client address. */
export function signInRules(ctx: AppContext, email: string, ip: string): RateLimitRule[] {
  const s = ctx.config.security;
  return [
    { bucket: `signin:account:${normalEmail(email)}`, limit: s.signInFailuresPerAccount, windowSeconds: s.signInWindowSeconds, message: SIGN_IN_LIMIT_MESSAGE },
    { bucket: `signin:ip:${ip}`, limit: s.signInFailuresPerIp, windowSeconds: s.signInWindowSeconds, message: SIGN_IN_LIMIT_MESSAGE },
  ];
}

export function passwordCodeRules(ctx: AppContext, email: string, ip: string): RateLimitRule[] {
  const s = ctx.config.security;
  return [
    { bucket: `pwcode:email:${normalEmail(email)}`, limit: s.passwordCodesPerEmail, windowSeconds: s.passwordCodeWindowSeconds, message: PASSWORD_CODE_LIMIT_MESSAGE },
    { bucket: `pwcode:ip:${ip}`, limit: s.passwordCodesPerIp, windowSeconds: s.passwordCodeWindowSeconds, message: PASSWORD_CODE_LIMIT_MESSAGE },
  ];
}

export function signUpRule(ctx: AppContext, ip: string): RateLimitRule {
  return { bucket: `signup:ip:${ip}`, limit: ctx.config.security.signUpsPerIp, windowSeconds: 3600, message: SIGN_UP_LIMIT_MESSAGE };
}

export function signInAccountBucket(email: string): string {
  return `signin:account:${normalEmail(email)}`;
}
