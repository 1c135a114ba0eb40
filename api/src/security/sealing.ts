import crypto from 'node:crypto';

/**
 * Encryption at rest of a partner's bank account number and PAN: AES-256-GCM with a fresh 12-byte
 * nonce per value. The stored text is "v1." + base64url(nonce | tag | ciphertext). The context (table,
 * column and owner, e.g. "partner_profiles.pan_enc:42") is bound as additional data, so a sealed
 * value copied into another row or column does not open.
 */
const VERSION = 'v1.';

export function seal(key: Buffer, plaintext: string, context: string): string {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
}

/** Opens a sealed value; throws when the key, the context or the text is not the one it was sealed with. */
export function unseal(key: Buffer, sealed: string, context: string): string {
  if (!sealed.startsWith(VERSION)) throw new Error('not a sealed value');
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
  if (raw.length < 28) throw new Error('not a sealed value');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
