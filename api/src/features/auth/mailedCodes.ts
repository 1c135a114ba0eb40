import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { hmac, numericCode, safeEqual } from '../../security/tokens';

/**
 * One-time codes mailed to an address: the password reset's passcode and the email proof's code.
 * Stored only as an HMAC, valid for a few minutes, a limited number of tries, usable once; a new
 * code retires the earlier one of the same kind and subject. The browser never receives a code.
 */
export interface CodeKind {
  purpose: 'password_reset' | 'email_proof';
  minutes: number;
  maxAttempts: number;
}

export const MAILED_CODE_DIGITS = 6;

export const passwordResetCodes = (ctx: AppContext): CodeKind => ({
  purpose: 'password_reset',
  minutes: ctx.config.security.passwordCodeMinutes,
  maxAttempts: ctx.config.security.passwordCodeMaxAttempts,
});

export const emailProofCodes = (ctx: AppContext): CodeKind => ({
  purpose: 'email_proof',
  minutes: ctx.config.security.emailCodeMinutes,
  maxAttempts: ctx.config.security.emailCodeMaxAttempts,
});

function codeHash(ctx: AppContext, purpose: string, subject: string, code: string): string {
  return hmac(ctx.config.signingSecret, `${purpose}:${subject}:${code}`);
}

/** Issues a new code for the subject, retiring any earlier one of its kind, and returns it (for the mail only). */
export async function issueCode(ctx: AppContext, kind: CodeKind, subject: string): Promise<string> {
  const code = numericCode(MAILED_CODE_DIGITS);
  await ctx.db.transaction(async (tx) => {
    await tx.query('update one_time_codes set used_at = now() where purpose = $1 and subject = $2 and used_at is null', [kind.purpose, subject]);
    await tx.query(
      `insert into one_time_codes (purpose, subject, code_hash, expires_at, max_attempts)
       values ($1, $2, $3, now() + make_interval(mins => $4), $5)`,
      [kind.purpose, subject, codeHash(ctx, kind.purpose, subject, code), kind.minutes, kind.maxAttempts],
    );
  });
  return code;
}

export type CodeCheck = 'ok' | 'wrong' | 'none';

/**
 * Checks a code inside the caller's transaction: 'ok' marks it used; 'wrong' counts a try (the code
 * dies after its last try); 'none' when no live code exists for the subject.
 */
export async function consumeCode(ctx: AppContext, tx: Db, kind: CodeKind, subject: string, code: string): Promise<CodeCheck> {
  const rows = await tx.query<{ id: number; code_hash: string }>(
    `select id, code_hash from one_time_codes
      where purpose = $1 and subject = $2 and used_at is null and expires_at > now() and attempts < max_attempts
      order by id desc limit 1 for update`,
    [kind.purpose, subject],
  );
  const row = rows[0];
  if (!row) return 'none';
  if (!safeEqual(row.code_hash, codeHash(ctx, kind.purpose, subject, code.trim()))) {
    await tx.query('update one_time_codes set attempts = attempts + 1 where id = $1', [row.id]);
    return 'wrong';
  }
  await tx.query('update one_time_codes set used_at = now(), attempts = attempts + 1 where id = $1', [row.id]);
  return 'ok';
}

/** The password reset's subject: the account's address. */
export const passwordCodeSubject = (email: string) => email.trim().toLowerCase();

/** The email proof's subject: the account and the address it proves (a code proves nothing for another account). */
export const emailProofSubject = (user: { id: number; email: string }) => `${user.id}:${user.email.trim().toLowerCase()}`;
