import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runAdmin } from '../src/cli/admin';
import { loadConfig, parsePartnerDataKey } from '../src/config/config';
import { openDb, type Db } from '../src/db/db';
import { migrate } from '../src/db/migrate';
import { createUser } from '../src/features/accounts/users';
import { sealContext, sealPartnerSecrets } from '../src/features/partners';
import { keyId, seal, sealedKeyId, unseal } from '../src/security/sealing';

/**
 * Rotating the key of partners' bank details: values name the key they were sealed with, the old key
 * keeps opening them until `pnpm admin reseal-partner-data` has moved every profile onto the new key,
 * and a value no configured key opens is reported and left untouched.
 */
const keyA = crypto.randomBytes(32);
const keyB = crypto.randomBytes(32);

async function addProfile(db: Db, email: string, key: Buffer, secrets: { accountNumber: string; pan: string }): Promise<number> {
  const userId = await createUser(db, { firstName: 'Meera', lastName: 'Lens', email, password: 'Finish@2026' });
  const s = sealPartnerSecrets(key, userId, secrets);
  await db.query(
    `insert into partner_profiles (user_id, first_name, last_name, mobile, nickname, bank_account_name, bank_account_number_enc, bank_account_last4,
       bank_account_type, bank_name, bank_branch, bank_ifsc, pan_enc, pan_last4)
     values ($1, 'Meera', 'Lens', '9876512345', $2, 'Meera Lens', $3, $4, 1, 'Canara Bank', 'Koramangala', 'CNRB0001234', $5, $6)`,
    [userId, email.split('@')[0], s.accountNumberEnc, s.accountLast4, s.panEnc, s.panLast4],
  );
  return userId;
}

const sealedRows = (db: Db) =>
  db.query<{ user_id: number; bank_account_number_enc: string; pan_enc: string; bank_account_last4: string }>(
    'select user_id, bank_account_number_enc, pan_enc, bank_account_last4 from partner_profiles order by user_id',
  );

describe('sealed values name their key', () => {
  it('opens with the key it names among several, refuses a missing key by its id, and still opens values from before key ids', () => {
    const sealed = seal(keyA, '000123456789', 'partner_profiles.pan_enc:7');
    expect(sealedKeyId(sealed)).toBe(keyId(keyA));
    expect(unseal([keyB, keyA], sealed, 'partner_profiles.pan_enc:7')).toBe('000123456789');
    expect(() => unseal([keyB], sealed, 'partner_profiles.pan_enc:7')).toThrow(`sealed with key ${keyId(keyA)}, which is not configured`);
    expect(() => unseal([keyB, keyA], sealed, 'partner_profiles.pan_enc:8')).toThrow();

    // The format before key ids: nonce | tag | ciphertext after "v1.", opened by whichever key fits.
    const nonce = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', keyA, nonce);
    cipher.setAAD(Buffer.from('ctx', 'utf8'));
    const body = Buffer.concat([cipher.update('ABCPL1234Q', 'utf8'), cipher.final()]);
    const v1 = `v1.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url')}`;
    expect(sealedKeyId(v1)).toBeNull();
    expect(unseal([keyB, keyA], v1, 'ctx')).toBe('ABCPL1234Q');
    expect(() => unseal([keyB], v1, 'ctx')).toThrow();
  });

  it('reads PARTNER_DATA_PREVIOUS_KEYS as a comma-separated list and names the setting of a bad key', () => {
    const saved = process.env.PARTNER_DATA_PREVIOUS_KEYS;
    try {
      process.env.PARTNER_DATA_PREVIOUS_KEYS = `${keyA.toString('base64')}, ${keyB.toString('hex')}`;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-keys-'));
      const config = loadConfig({ dataDir: dir });
      expect(config.partnerDataPreviousKeys.map(keyId)).toEqual([keyId(keyA), keyId(keyB)]);
      fs.rmSync(dir, { recursive: true, force: true });
    } finally {
      if (saved === undefined) delete process.env.PARTNER_DATA_PREVIOUS_KEYS;
      else process.env.PARTNER_DATA_PREVIOUS_KEYS = saved;
    }
    expect(() => parsePartnerDataKey('c2hvcnQ=', 'PARTNER_DATA_PREVIOUS_KEYS')).toThrow('PARTNER_DATA_PREVIOUS_KEYS: a key must be 32 bytes');
  });
});

describe('pnpm admin reseal-partner-data', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-reseal-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('moves every profile onto the new key, is a no-op when run again, and leaves a value no key opens untouched', async () => {
    const db = await openDb({ url: null, dataDir: dir });
    await migrate(db);
    const first = await addProfile(db, 'meera@example.com', keyA, { accountNumber: '000123456789', pan: 'ABCPL1234Q' });
    const second = await addProfile(db, 'arjun@example.com', keyA, { accountNumber: '50100234564321', pan: 'ABKPS4321F' });
    await db.close();

    // Rotated: the new key seals, the old one is still configured.
    const rotated = loadConfig({ dataDir: dir, databaseUrl: null, partnerDataKey: keyB, partnerDataPreviousKeys: [keyA] });
    expect(await runAdmin(['reseal-partner-data'], rotated)).toEqual({
      code: 0,
      out: `2 partner profile(s) re-sealed under key ${keyId(keyB)}; 0 already were.`,
    });
    let check = await openDb({ url: null, dataDir: dir });
    try {
      const rows = await sealedRows(check);
      expect(rows.map((r) => [sealedKeyId(r.bank_account_number_enc), sealedKeyId(r.pan_enc)])).toEqual([
        [keyId(keyB), keyId(keyB)],
        [keyId(keyB), keyId(keyB)],
      ]);
      // The old key is no longer needed: the new one alone opens everything, with the same values.
      expect(unseal(keyB, rows[0]!.bank_account_number_enc, sealContext('bank_account_number_enc', first))).toBe('000123456789');
      expect(unseal(keyB, rows[1]!.pan_enc, sealContext('pan_enc', second))).toBe('ABKPS4321F');
      expect(rows.map((r) => r.bank_account_last4)).toEqual(['6789', '4321']);
      // A third profile sealed with a key this setup does not know.
      await addProfile(check, 'lost@example.com', crypto.randomBytes(32), { accountNumber: '111122223333', pan: 'AAAPL0000A' });
    } finally {
      await check.close();
    }

    const again = await runAdmin(['reseal-partner-data'], loadConfig({ dataDir: dir, databaseUrl: null, partnerDataKey: keyB, partnerDataPreviousKeys: [] }));
    expect(again.code).toBe(1);
    expect(again.out).toContain(`0 partner profile(s) re-sealed under key ${keyId(keyB)}; 2 already were.`);
    expect(again.out).toContain('1 profile(s) could not be opened with the configured keys and were left as they are (accounts 3)');

    check = await openDb({ url: null, dataDir: dir });
    try {
      const lost = (await sealedRows(check))[2]!;
      expect(sealedKeyId(lost.bank_account_number_enc)).not.toBe(keyId(keyB));
    } finally {
      await check.close();
    }
    expect(await runAdmin(['reseal-partner-data', 'extra'], loadConfig({ dataDir: dir, databaseUrl: null }))).toMatchObject({ code: 2 });
  }, 180_000); // a file-backed database migrated from empty: about 20 s alone, over a minute beside other work
});
