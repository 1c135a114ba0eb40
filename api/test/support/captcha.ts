import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { API_ROUTES } from '@finishline/shared/pure';

/**
 * Does what the ALTCHA widget does in the browser: fetches a challenge from the running server,
 * finds its counter by proof of work and returns the base64 payload the forms send as gCaptchToken.
 */
export async function solveCaptcha(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}${API_ROUTES.captchaChallenge}`);
  const challenge = (await response.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
  if (!solution) throw new Error('captcha not solved in time');
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}
