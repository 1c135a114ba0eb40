import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { AppContext } from '../context';
import { AppError } from '../http/envelope';
import { hmac } from './tokens';

/**
 * Self-hosted proof-of-work captcha (ALTCHA v2). The server issues a signed challenge whose secret
 * counter the browser must find; a solved challenge is accepted once (captcha_used) and only before
 * it expires. No third party is called and no secret reaches the browser.
 */

export const CAPTCHA_ALGORITHM = 'PBKDF2/SHA-256';
export const CAPTCHA_REQUIRED_MESSAGE = 'Please complete the captcha.';
export const CAPTCHA_INVALID_MESSAGE = 'The captcha could not be verified. Please solve it again.';
export const CAPTCHA_EXPIRED_MESSAGE = 'The captcha has expired. Please solve it again.';
export const CAPTCHA_REUSED_MESSAGE = 'This captcha was already used. Please solve it again.';

/** Two secrets derived from the signing secret: one signs challenges, one signs the expected key. */
function secrets(ctx: AppContext) {
  return {
    challenge: hmac(ctx.config.signingSecret, 'altcha-challenge'),
    key: hmac(ctx.config.signingSecret, 'altcha-key'),
  };
}

export async function issueCaptchaChallenge(ctx: AppContext): Promise<Challenge> {
  const { captchaCost, captchaMaxCounter, captchaTtlSeconds } = ctx.config.security;
  const s = secrets(ctx);
  // The counter is drawn from the upper three quarters so no challenge is trivially cheap.
  const low = Math.max(1, Math.floor(captchaMaxCounter / 4));
  return createChallenge({
    algorithm: CAPTCHA_ALGORITHM,
    cost: captchaCost,
    counter: randomInt(captchaMaxCounter, low),
    deriveKey,
    expiresAt: new Date(Date.now() + captchaTtlSeconds * 1000),
    hmacSignatureSecret: s.challenge,
    hmacKeySignatureSecret: s.key,
  });
}

interface CaptchaPayload {
  challenge: Challenge;
  solution: Solution;
}

function decodePayload(payload: unknown): CaptchaPayload | null {
  if (typeof payload !== 'string' || payload.length === 0 || payload.length > 8000) return null;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as Partial<CaptchaPayload>;
    const { challenge, solution } = parsed;
    if (!challenge || typeof challenge !== 'object' || !challenge.parameters || typeof challenge.signature !== 'string') return null;
    if (!solution || typeof solution !== 'object' || !Number.isInteger(solution.counter) || typeof solution.derivedKey !== 'string') return null;
    return { challenge, solution };
  } catch {
    return null;
  }
}

/**
 * Verifies a solved challenge (the widget's base64 payload) and marks it used. Throws a 400 with a
 * clear message when the payload is missing, wrong, expired or already used. Guest checkout and
 * pre-order call this too.
 */
export async function verifyCaptcha(ctx: AppContext, payload: unknown): Promise<void> {
  if (payload === undefined || payload === null || payload === '') throw new AppError(400, CAPTCHA_REQUIRED_MESSAGE);
  const decoded = decodePayload(payload);
  if (!decoded) throw new AppError(400, CAPTCHA_INVALID_MESSAGE);
  const s = secrets(ctx);
  let outcome = { verified: false, expired: false };
  try {
    outcome = await verifySolution({
      challenge: decoded.challenge,
      solution: decoded.solution,
      deriveKey,
      hmacSignatureSecret: s.challenge,
      hmacKeySignatureSecret: s.key,
    });
  } catch {
    // A malformed challenge (bad hex, unknown algorithm) is simply not verified.
  }
  const { verified, expired } = outcome;
  if (expired) throw new AppError(400, CAPTCHA_EXPIRED_MESSAGE);
  if (!verified) throw new AppError(400, CAPTCHA_INVALID_MESSAGE);
  // Single use: the signature identifies the challenge; the insert fails when it was seen before.
  const inserted = await ctx.db.query<{ signature: string }>(
    'insert into captcha_used (signature) values ($1) on conflict (signature) do nothing returning signature',
    [decoded.challenge.signature],
  );
  if (inserted.length === 0) throw new AppError(400, CAPTCHA_REUSED_MESSAGE);
  // Used signatures matter only until their challenge expires; prune now and then.
  if (Math.random() < 0.01) {
    await ctx.db.query(`delete from captcha_used where used_at < now() - make_interval(secs => $1)`, [ctx.config.security.captchaTtlSeconds * 2]);
  }
}
