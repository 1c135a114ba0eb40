import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { API_ROUTES, type CaptchaStrength } from '@finishline/shared/pure';

/**
 * Does what the ALTCHA widget does in the browser: fetches a challenge from the running server,
 * finds its counter by proof of work and returns the base64 payload the forms send as gCaptchToken.
 */
export async function solveCaptcha(baseUrl: string, strength: CaptchaStrength = 'standard'): Promise<string> {
  const response = await fetch(`${baseUrl}${API_ROUTES.captchaChallenge}?strength=${strength}`);
  const challenge = (await response.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
  if (!solution) throw new Error('captcha not solved in time');
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** A valid contact form with a freshly solved captcha; overrides replace single fields. */
export async function contactForm(baseUrl: string, overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    firstName: 'Kavya',
    lastName: 'Menon',
    email: 'kavya@example.com',
    isdCode: '+91',
    phoneNo: '9123456780',
    message: 'My photos from the Kochi half marathon are missing.',
    bibId: 'KM1042',
    gCaptchToken: await solveCaptcha(baseUrl),
    ...overrides,
  };
}
