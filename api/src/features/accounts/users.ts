import crypto from 'node:crypto';
import argon2 from 'argon2';
import { DEFAULT_ISD_CODE, type User } from '@finishline/shared/pure';
import type { Db } from '../../db/db';

export interface NewUser {
  firstName: string;
  lastName: string;
  email: string;
  password: string | null; // null for social sign-in accounts
  primaryPhone?: string;
  isdCode?: string;
  isOrganiser?: boolean;
  isPartner?: boolean;
  loginType?: 1 | 2;
  /** The address is already proven (Google's verified ID token, the demo accounts). */
  emailVerified?: boolean;
}

export interface UserRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  primary_phone: string;
  isd_code: string;
  gender: string | null;
  address: string | null;
  pincode: string | null;
  password_hash: string | null;
  is_organiser: boolean;
  is_partner: boolean;
  /** Platform staff who grant the organiser role. */
  is_operator?: boolean;
  /** Fulfilment staff: print, pack and ship print lines, refund them (migration 120). */
  is_fulfilment?: boolean;
  /** When the account proved it reads its email (null: not yet; see migration 110). */
  email_verified_at: Date | null;
}

export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

/**
 * Hash of a random password made once per process with the same parameters as real ones: an
 * unknown email or a password-less (social or guest) account is checked against it, so every
 * sign-in costs one argon2 verification and the answer time does not tell which emails exist.
 */
let dummyHash: Promise<string> | null = null;
const dummyPasswordHash = () => (dummyHash ??= hashPassword(crypto.randomBytes(24).toString('base64url')));

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  try {
    if (!hash) {
      await argon2.verify(await dummyPasswordHash(), password);
      return false;
    }
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export async function createUser(db: Db, input: NewUser): Promise<number> {
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  const rows = await db.query<{ id: number }>(
    `insert into users (first_name, last_name, email, primary_phone, isd_code, password_hash, is_organiser, is_partner, login_type, email_verified_at)
     values ($1, $2, lower($3), $4, $5, $6, $7, $8, $9, case when $10 then now() end) returning id`,
    [
      input.firstName.trim(),
      input.lastName.trim(),
      input.email.trim(),
      input.primaryPhone ?? '',
      input.isdCode ?? DEFAULT_ISD_CODE,
      passwordHash,
      input.isOrganiser ?? false,
      input.isPartner ?? false,
      input.loginType ?? 1,
      input.emailVerified ?? false,
    ],
  );
  return rows[0].id;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow & Record<string, unknown>>('select * from users where lower(email) = lower($1)', [email.trim()]);
  return rows[0] ?? null;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | null> {
  const rows = await db.query<UserRow & Record<string, unknown>>('select * from users where id = $1', [id]);
  return rows[0] ?? null;
}

/** Records that the account proved its email address (the first proof's time is kept). */
export async function markEmailVerified(db: Pick<Db, 'query'>, userId: number): Promise<void> {
  await db.query('update users set email_verified_at = coalesce(email_verified_at, now()) where id = $1', [userId]);
}

/** The user as the browser sees it (never the password hash). */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    primaryPhone: row.primary_phone,
    gender: row.gender,
    address: row.address,
    pincode: row.pincode,
    isdCode: row.isd_code,
    isOrganiser: row.is_organiser,
    isPartner: row.is_partner,
    emailVerified: row.email_verified_at !== null,
  };
}
