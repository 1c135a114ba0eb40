import { isApiError } from '@finishline/shared/runtime';
import type { CaptchaNeeded, CaptchaStrength } from '../types/accounts';

// Pure reading of an ApiError's payload: lives outside the run-time contract (api/errors.ts) so a
// remote can ship changes to it alone.
/** The captcha a failed call asks for before it is sent again (its result is CaptchaNeeded), or null. */
export function captchaNeededOf(error: unknown): CaptchaStrength | null {
  if (!isApiError(error) || typeof error.payload !== 'object' || error.payload === null) return null;
  const value = (error.payload as Partial<CaptchaNeeded>).captcha;
  return value === 'standard' || value === 'strong' ? value : null;
}
