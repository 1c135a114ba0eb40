import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { hmac, numericCode, safeEqual } from '../../security/tokens';

/**
 * One-time password-reset codes: mailed to the account's address, stored only as an HMAC, valid for
 * a few minutes, a limited number of tries, usable once. The browser never receives the code.
 */

export const PASSWORD_RESET_PURPOSE = 'password_reset';
export const PASSWORD_CODE_DIGITS = 6;

function codeHash(ctx: AppContext, subject: string, code: string): string {
  return hmac(ctx.config.signingSecret, `${PASSWORD_RESET_PURPOSE}:${subject}:${code}`);
}

const subjectOf = (email: string) => email.trim().toLowerCase();

/** Issues a new code for the email, retiring any earlier one, and returns it (for the mail only). */
export async function issuePasswordCode(ctx: AppContext, email: string): Promise<string> {
  const subject = subjectOf(email);
  const code = numericCode(PASSWORD_CODE_DIGITS);
  const { passwordCodeMinutes, passwordCodeMaxAttempts } = ctx.config.security;
  await ctx.db.transaction(async (tx) => {
    await tx.query('update one_time_codes set used_at = now() where purpose = $1 and subject = $2 and used_at is null', [PASSWORD_RESET_PURPOSE, subject]);
    await tx.query(
      `insert into one_time_codes (purpose, subject, code_hash, expires_at, max_attempts)
       values ($1, $2, $3, now() + make_interval(mins => $4), $5)`,
      [PASSWORD_RESET_PURPOSE, subject, codeHash(ctx, subject, code), passwordCodeMinutes, passwordCodeMaxAttempts],
    );
  });
  return code;
}

export type CodeCheck = 'ok' | 'wrong' | 'none';

/**
 * Checks a code inside the caller's transaction: 'ok' marks it used; 'wrong' counts a try (the code
 * dies after its last try); 'none' when no live code exists for the email.
 */
export async function consumePasswordCode(ctx: AppContext, tx: Db, email: string, code: string): Promise<CodeCheck> {
  const subject = subjectOf(email);
  const rows = await tx.query<{ id: number; code_hash: string }>(
    `select id, code_hash from one_time_codes
      where purpose = $1 and subject = $2 and used_at is null and expires_at > now() and attempts < max_attempts
      order by id desc limit 1 for update`,
    [PASSWORD_RESET_PURPOSE, subject],
  );
  const row = rows[0];
  if (!row) return 'none';
  if (!safeEqual(row.code_hash, codeHash(ctx, subject, code.trim()))) {
    await tx.query('update one_time_codes set attempts = attempts + 1 where id = $1', [row.id]);
    return 'wrong';
  }
  await tx.query('update one_time_codes set used_at = now(), attempts = attempts + 1 where id = $1', [row.id]);
  return 'ok';
}
