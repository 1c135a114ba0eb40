import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import type { CaptchaNeeded, CaptchaStrength } from '@finishline/shared/pure';
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

/** A 400 whose result tells the form which captcha to show before sending again. */
export function captchaNeeded(message: string, strength: CaptchaStrength): AppError {
  const result: CaptchaNeeded = { captcha: strength };
  return new AppError(400, message, result);
}

/** Two secrets derived from the signing secret: one signs challenges, one signs the expected key. */
function secrets(ctx: AppContext) {
  return {
    challenge: hmac(ctx.config.signingSecret, 'altcha-challenge'),
    key: hmac(ctx.config.signingSecret, 'altcha-key'),
  };
}

/**
 * A strong challenge (asked after repeated failures on one account) has a counter range
 * CAPTCHA_STRONG_FACTOR times wider: that much more work per try. Its strength is in the signed
 * parameters, so a standard solution cannot pass for a strong one.
 */
export async function issueCaptchaChallenge(ctx: AppContext, strength: CaptchaStrength = 'standard'): Promise<Challenge> {
  const { captchaCost, captchaMaxCounter, captchaTtlSeconds, captchaStrongFactor } = ctx.config.security;
  const s = secrets(ctx);
  const maxCounter = strength === 'strong' ? captchaMaxCounter * Math.max(1, captchaStrongFactor) : captchaMaxCounter;
  // The counter is drawn from the upper three quarters so no challenge is trivially cheap.
  const low = Math.max(1, Math.floor(maxCounter / 4));
  return createChallenge({
    algorithm: CAPTCHA_ALGORITHM,
    cost: captchaCost,
    counter: randomInt(maxCounter, low),
    data: { strength },
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
 * pre-order call this too. `strongNeeded` is the message when a strong captcha is required and the
 * payload is a standard one.
 */
export async function verifyCaptcha(ctx: AppContext, payload: unknown, options: { strongNeeded?: string } = {}): Promise<void> {
  if (payload === undefined || payload === null || payload === '') throw new AppError(400, CAPTCHA_REQUIRED_MESSAGE);
  const decoded = decodePayload(payload);
  if (!decoded) throw new AppError(400, CAPTCHA_INVALID_MESSAGE);
  // Read before verifying, but the signature check below covers it: a rewritten strength fails there.
  if (options.strongNeeded && decoded.challenge.parameters.data?.strength !== 'strong') throw captchaNeeded(options.strongNeeded, 'strong');
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
