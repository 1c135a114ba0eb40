import type { AppContext } from '../../context';
import { badRequest } from '../../http/envelope';
import { verifyCaptcha, captchaNeeded } from '../../security/captcha';
import { subjectRules } from '../../security/limits';
import { limitReached, recordHit } from '../../security/subjectCounters';
import { hashToken, numericCode, safeEqual } from '../../security/tokens';
import { findEvent } from '../events';
import { maskEmail, normaliseBib } from '../../rules/privacy';

export const OTP_PURPOSE = 'privacy_otp';
export const OTP_DIGITS = 6;
export const OTP_TTL_MINUTES = 10;
export const OTP_MAX_ATTEMPTS = 5;
/** The drawer offers Resend after this countdown (spec: 30 seconds). */
export const OTP_RESEND_SECONDS = 30;

export const OTP_MESSAGES = {
  sent: (email: string) => `OTP sent to ${email}`,
  verified: 'OTP Verified Successfully',
  noSession: 'Your search session is expired please search again.',
  noEmail: 'No email address is registered for this BIB. Please contact support.',
  notNeeded: 'This event does not need an OTP.',
  expired: 'The OTP has expired. Please click Resend to get a new one.',
  wrong: (left: number) => `Invalid OTP. ${left} attempt${left === 1 ? '' : 's'} left.`,
  locked: 'Too many wrong attempts. Please click Resend to get a new OTP.',
  captchaNeeded: 'Several OTPs were sent for this BIB recently. Please complete the captcha to get another one.',
} as const;

/** A code is bound to the search session, the event and the BIB it was mailed for. */
function otpSubject(sessionId: number, eventId: number, bib: string): string {
  return `session:${sessionId}:event:${eventId}:bib:${bib}`;
}

async function privacyEventAndEmail(ctx: AppContext, eventId: number, bibNumber: string) {
  const event = await findEvent(ctx.db, eventId);
  if (!event) throw badRequest('We could not find this event. Please choose an event from the list.');
  if (!event.privacy_check) throw badRequest(OTP_MESSAGES.notNeeded);
  const bib = normaliseBib(bibNumber);
  const rows = await ctx.db.query<{ email: string | null; name: string }>('select email, name from participants where event_id = $1 and bib_number = $2', [
    event.id,
    bib,
  ]);
  const participant = rows[0];
  if (!participant?.email) throw badRequest(OTP_MESSAGES.noEmail);
  return { event, bib, email: participant.email, name: participant.name };
}

/**
 * Mails a fresh 6-digit code to the participant's email; only its hash is stored, with an expiry
 * and an attempt limit. Earlier codes of the same subject stop working.
 */
export async function generatePrivacyOtp(ctx: AppContext, input: { eventID: number; bibNumber: string; gCaptchToken?: string }, sessionId: number) {
  const { event, bib, email, name } = await privacyEventAndEmail(ctx, input.eventID, input.bibNumber);
  // Anyone may ask for a BIB's code, so the BIB's mails are never refused (its owner would be shut
  // out): past a few, each further one needs a solved captcha. The route limits each address.
  const bibRule = subjectRules.otpBib(ctx.config, event.id, bib);
  if (await limitReached(ctx.db, bibRule)) {
    if (!input.gCaptchToken) throw captchaNeeded(OTP_MESSAGES.captchaNeeded, 'standard');
    await verifyCaptcha(ctx, input.gCaptchToken);
  }
  await recordHit(ctx.db, bibRule);
  const subject = otpSubject(sessionId, event.id, bib);
  const code = numericCode(OTP_DIGITS);
  await ctx.db.transaction(async (tx) => {
    await tx.query('update one_time_codes set used_at = now() where purpose = $1 and subject = $2 and used_at is null', [OTP_PURPOSE, subject]);
    await tx.query(
      `insert into one_time_codes (purpose, subject, code_hash, expires_at, max_attempts)
       values ($1, $2, $3, now() + make_interval(mins => $4), $5)`,
      [OTP_PURPOSE, subject, hashToken(code), OTP_TTL_MINUTES, OTP_MAX_ATTEMPTS],
    );
  });
  await ctx.mailer.send({
    to: email,
    subject: `Your OTP for ${event.name} photos`,
    text: `Hello ${name},\n\nYour OTP to view the photos of BIB ${bib} at ${event.name} is ${code}.\nIt is valid for ${OTP_TTL_MINUTES} minutes. If you did not ask for it, ignore this mail.\n`,
    tag: OTP_PURPOSE,
  });
  const masked = maskEmail(email);
  return { message: OTP_MESSAGES.sent(masked), result: { email: masked, resendAfterSeconds: OTP_RESEND_SECONDS } };
}

/** Checks a code; on success the BIB counts as verified for this search session. */
export async function verifyPrivacyOtp(ctx: AppContext, input: { eventID: number; bibNumber: string; otp: string }, sessionId: number): Promise<void> {
  const { event, bib } = await privacyEventAndEmail(ctx, input.eventID, input.bibNumber);
  const subject = otpSubject(sessionId, event.id, bib);
  const rows = await ctx.db.query<{ id: number; code_hash: string; attempts: number; max_attempts: number; expired: boolean }>(
    `select id, code_hash, attempts, max_attempts, expires_at <= now() as expired
       from one_time_codes where purpose = $1 and subject = $2 and used_at is null
      order by id desc limit 1`,
    [OTP_PURPOSE, subject],
  );
  const row = rows[0];
  if (!row || row.expired) throw badRequest(OTP_MESSAGES.expired);
  if (row.attempts >= row.max_attempts) throw badRequest(OTP_MESSAGES.locked);
  if (!safeEqual(row.code_hash, hashToken(input.otp))) {
    await ctx.db.query('update one_time_codes set attempts = attempts + 1 where id = $1', [row.id]);
    const left = row.max_attempts - row.attempts - 1;
    throw badRequest(left > 0 ? OTP_MESSAGES.wrong(left) : OTP_MESSAGES.locked);
  }
  await ctx.db.transaction(async (tx) => {
    await tx.query('update one_time_codes set used_at = now() where id = $1', [row.id]);
    await tx.query(
      `insert into session_verified_bibs (session_id, event_id, bib_number) values ($1, $2, $3)
       on conflict (session_id, event_id, bib_number) do nothing`,
      [sessionId, event.id, bib],
    );
  });
}
