import type { Db } from '../../db/db';

/** BIB numbers are matched trimmed and case-insensitively; they are stored upper case. */
export function normaliseBib(bib: string): string {
  return bib.trim().toUpperCase();
}

/**
 * Whether the BIB was verified by OTP in this search session for this event. The OTP feature
 * inserts the row into session_verified_bibs; until then a privacy-checked event shows no photos.
 */
export async function isBibVerified(db: Db, sessionId: number, eventId: number, bib: string): Promise<boolean> {
  const rows = await db.query('select 1 from session_verified_bibs where session_id = $1 and event_id = $2 and bib_number = $3', [
    sessionId,
    eventId,
    normaliseBib(bib),
  ]);
  return rows.length > 0;
}

/** Masks an email for the OTP drawer: "runner@finishline.test" -> "ru****@finishline.test". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '****';
  const local = email.slice(0, at);
  const visible = local.length <= 2 ? local.slice(0, 1) : local.slice(0, 2);
  return `${visible}****${email.slice(at)}`;
}
