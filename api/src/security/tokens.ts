import crypto from 'node:crypto';

/** A random URL-safe token (256 bits). */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Tokens and codes are stored only as this hash, so a database leak reveals no usable token. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** A numeric one-time code of the given length, uniformly random. */
export function numericCode(digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i++) out += crypto.randomInt(0, 10).toString();
  return out;
}

export function hmac(secret: string, data: string): string {
  return crypto.createHmac('sha256', secret).update(data).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
