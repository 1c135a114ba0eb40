import crypto from 'node:crypto';

/**
 * Encryption at rest of a partner's bank account number and PAN: AES-256-GCM with a fresh 12-byte
 * nonce per value. The stored text is "v2.<key id>." + base64url(nonce | tag | ciphertext), where the
 * key id is the first 8 hex characters of the key's SHA-256: after a key rotation each value names the
 * key it needs, and `pnpm admin reseal-partner-data` moves every value onto the current key. Values
 * written before key ids ("v1." + ...) open with whichever configured key fits. The context (table,
 * column and owner, e.g. "partner_profiles.pan_enc:42") is bound as additional data, so a sealed
 * value copied into another row or column does not open.
 */
const V1 = 'v1.';
const V2 = 'v2.';

/** The current key first, then the keys it replaced (still able to open older values). */
export type Keyring = Buffer | readonly Buffer[];

const keysOf = (keys: Keyring): readonly Buffer[] => (Buffer.isBuffer(keys) ? [keys] : keys);

/** A key's public name: safe to print and to store beside what it sealed. */
export function keyId(key: Buffer): string {
  return crypto.createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function seal(key: Buffer, plaintext: string, context: string): string {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${V2}${keyId(key)}.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The id of the key a value was sealed with; null for a value from before key ids. */
export function sealedKeyId(sealed: string): string | null {
  return sealed.startsWith(V2) ? sealed.slice(V2.length, V2.length + 8) : null;
}

function open(key: Buffer, raw: Buffer, context: string): string {
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/**
 * Opens a sealed value with the key it names (or, for a value from before key ids, any key of the
 * ring that fits); throws when no configured key, the context or the text is the one it was sealed with.
 */
export function unseal(keys: Keyring, sealed: string, context: string): string {
  const ring = keysOf(keys);
  const id = sealedKeyId(sealed);
  const body = id !== null ? sealed.slice(V2.length + 9) : sealed.startsWith(V1) ? sealed.slice(V1.length) : null;
  const raw = body === null ? null : Buffer.from(body, 'base64url');
  if (!raw || raw.length < 28) throw new Error('not a sealed value');
  if (id !== null) {
    const key = ring.find((k) => keyId(k) === id);
    if (!key) throw new Error(`sealed with key ${id}, which is not configured (PARTNER_DATA_KEY or PARTNER_DATA_PREVIOUS_KEYS)`);
    return open(key, raw, context);
  }
  let failure: unknown = new Error('no key configured');
  for (const key of ring) {
    try {
      return open(key, raw, context);
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}
