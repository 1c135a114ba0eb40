import { isApiError } from '@finishline/shared/runtime';
import type { CaptchaNeeded, CaptchaStrength, EmailProofNeeded } from '../types/accounts';

// Pure reading of an ApiError's payload: lives outside the run-time contract (api/errors.ts) so a
// remote can ship changes to it alone.
/** The captcha a failed call asks for before it is sent again (its result is CaptchaNeeded), or null. */
export function captchaNeededOf(error: unknown): CaptchaStrength | null {
  if (!isApiError(error) || typeof error.payload !== 'object' || error.payload === null) return null;
  const value = (error.payload as Partial<CaptchaNeeded>).captcha;
  return value === 'standard' || value === 'strong' ? value : null;
}

/** The address to prove when a failed call answers that the order waits for the email proof (its result is EmailProofNeeded), or null. */
export function emailProofNeededOf(error: unknown): string | null {
  if (!isApiError(error) || error.statusCode !== 403 || typeof error.payload !== 'object' || error.payload === null) return null;
  const needed = error.payload as Partial<EmailProofNeeded>;
  return needed.emailProof === 'needed' && typeof needed.email === 'string' ? needed.email : null;
}
