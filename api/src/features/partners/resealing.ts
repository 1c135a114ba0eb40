import type { Db } from '../../db/db';
import { keyId, seal, sealedKeyId, unseal, type Keyring } from '../../security/sealing';
import { sealContext } from './profiles';

/**
 * Key rotation for partners' sealed bank account numbers and PANs. The operator sets the new key as
 * PARTNER_DATA_KEY and the old one in PARTNER_DATA_PREVIOUS_KEYS on every instance (both open, only
 * the new one seals), then runs `pnpm admin reseal-partner-data`, which moves each profile onto the
 * new key in its own short transaction; afterwards the old key can be dropped. A value that no
 * configured key opens is left as it is and reported: nothing is ever overwritten with less.
 */

export interface ResealReport {
  keyId: string;
  resealed: number;
  alreadyCurrent: number;
  /** Profiles (user ids) no configured key opens: left untouched. */
  unopened: number[];
}

interface SealedRow {
  [column: string]: unknown;
  user_id: number;
  bank_account_number_enc: string;
  pan_enc: string;
}

export async function resealPartnerData(db: Db, current: Buffer, previous: readonly Buffer[]): Promise<ResealReport> {
  const ring: Keyring = [current, ...previous];
  const currentId = keyId(current);
  const report: ResealReport = { keyId: currentId, resealed: 0, alreadyCurrent: 0, unopened: [] };
  const ids = await db.query<{ user_id: number }>('select user_id from partner_profiles order by user_id');
  for (const { user_id: userId } of ids) {
    await db.transaction(async (tx) => {
      // Locked while re-sealed: a partner updating their details meanwhile waits, and wins after.
      const [row] = await tx.query<SealedRow>('select user_id, bank_account_number_enc, pan_enc from partner_profiles where user_id = $1 for update', [userId]);
      if (!row) return;
      if (sealedKeyId(row.bank_account_number_enc) === currentId && sealedKeyId(row.pan_enc) === currentId) {
        report.alreadyCurrent += 1;
        return;
      }
      let accountNumber: string;
      let pan: string;
      try {
        accountNumber = unseal(ring, row.bank_account_number_enc, sealContext('bank_account_number_enc', userId));
        pan = unseal(ring, row.pan_enc, sealContext('pan_enc', userId));
      } catch {
        report.unopened.push(userId);
        return;
      }
      await tx.query('update partner_profiles set bank_account_number_enc = $2, pan_enc = $3 where user_id = $1', [
        userId,
        seal(current, accountNumber, sealContext('bank_account_number_enc', userId)),
        seal(current, pan, sealContext('pan_enc', userId)),
      ]);
      report.resealed += 1;
    });
  }
  return report;
}
