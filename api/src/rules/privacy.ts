import type { Db } from '../db/db';
import { AppError } from '../http/envelope';
import { hashToken } from '../security/tokens';

export const PRIVACY_OTP_REQUIRED_MESSAGE = 'Please verify the OTP sent to the participant to see these photos.';

/** BIB numbers are matched trimmed and case-insensitively; they are stored upper case. */
export function normaliseBib(bib: string): string {
  return bib.trim().toUpperCase();
}

/**
 * The privacy rule, in one place for every path that releases photos (BIB search, photo pages,
 * selfie results, the cart bill and create-order, pre-order mapping): in a privacy-checked event a
 * BIB's photos go only to a session that verified that BIB by OTP. Returns the BIBs still locked.
 */
export async function lockedBibs(db: Db, event: { id: number; privacy_check: boolean }, bibs: Iterable<string>, sessionId: number | null): Promise<string[]> {
  const wanted = bibsToRelease(event, bibs);
  if (wanted.length === 0 || sessionId === null) return wanted;
  const rows = await db.query<{ bib_number: string }>(
    'select bib_number from session_verified_bibs where session_id = $1 and event_id = $2 and bib_number = any($3::text[])',
    [sessionId, event.id, wanted],
  );
  return lockedAfter(
    wanted,
    rows.map((r) => r.bib_number),
  );
}

/** The BIBs the rule must see verified: none outside a privacy-checked event. */
function bibsToRelease(event: { privacy_check: boolean }, bibs: Iterable<string>): string[] {
  if (!event.privacy_check) return [];
  return [...new Set([...bibs].map(normaliseBib))].filter(Boolean);
}

function lockedAfter(wanted: string[], verified: Iterable<string>): string[] {
  const released = new Set(verified);
  return wanted.filter((bib) => !released.has(bib));
}

/**
 * The same rule for BIBs whose session's verifications were read in a larger statement with
 * verifiedBibsSql (the cart bill reads everything in one round trip): refuses (403) unless released.
 */
export function assertBibsReleasedBy(event: { privacy_check: boolean }, bibs: Iterable<string>, sessionId: number | null, verified: Iterable<string>): void {
  const wanted = bibsToRelease(event, bibs);
  if (wanted.length === 0) return;
  if (sessionId === null || lockedAfter(wanted, verified).length > 0) throw new AppError(403, PRIVACY_OTP_REQUIRED_MESSAGE);
}

/** SQL: the BIBs of this event this session verified, as a text array (the placeholders of session and event). */
export const verifiedBibsSql = (sessionParam: string, eventParam: string): string =>
  `(select coalesce(array_agg(bib_number), '{}') from session_verified_bibs where session_id = ${sessionParam}::int and event_id = ${eventParam})`;

/**
 * The same rule for one BIB whose verification was read in a larger statement with verifiedBibSql
 * (the BIB search reads everything in one round trip): released, or still locked.
 */
export function bibReleased(event: { privacy_check: boolean }, bib: string, sessionId: number | null, verified: boolean): boolean {
  if (!event.privacy_check || !normaliseBib(bib)) return true;
  return sessionId !== null && verified;
}

/** SQL: this session verified this BIB of this event (the placeholders of session, event and BIB). */
export const verifiedBibSql = (sessionParam: string, eventParam: string, bibParam: string): string =>
  `exists (select 1 from session_verified_bibs where session_id = ${sessionParam}::int and event_id = ${eventParam} and bib_number = ${bibParam})`;

/** Whether the BIB was verified by OTP in this search session for this event. */
export async function isBibVerified(db: Db, sessionId: number, eventId: number, bib: string): Promise<boolean> {
  return (await lockedBibs(db, { id: eventId, privacy_check: true }, [bib], sessionId)).length === 0;
}

/** Refuses (403) unless every BIB is released to this session under the privacy rule. */
export async function assertBibsReleased(
  db: Db,
  event: { id: number; privacy_check: boolean },
  bibs: Iterable<string>,
  sessionId: number | null,
): Promise<void> {
  if ((await lockedBibs(db, event, bibs, sessionId)).length > 0) throw new AppError(403, PRIVACY_OTP_REQUIRED_MESSAGE);
}

/** Unlabeled photos are released only where the organiser shows them (the event's showunlabeled). */
export const unlabeledNotShownMessage = (eventName: string) => `Unlabeled photos of ${eventName} are not available.`;

/** Refuses (400) the unlabeled photos of an event that does not show them: not paged, not priced, not sold. */
export function assertUnlabeledReleased(event: { name: string; showunlabeled: boolean }): void {
  if (!event.showunlabeled) throw new AppError(400, unlabeledNotShownMessage(event.name));
}

/** The BIBs a visitor's session verified go with them into the session they sign in to. */
export async function carryVerifiedBibs(db: Db, fromSessionId: number, toToken: string): Promise<void> {
  await db.query(
    `insert into session_verified_bibs (session_id, event_id, bib_number)
     select s.id, v.event_id, v.bib_number from session_verified_bibs v, sessions s
      where v.session_id = $1 and s.token_hash = $2
     on conflict (session_id, event_id, bib_number) do nothing`,
    [fromSessionId, hashToken(toToken)],
  );
}

/** Masks an email for the OTP drawer: "runner@finishline.test" -> "ru****@finishline.test". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '****';
  const local = email.slice(0, at);
  const visible = local.length <= 2 ? local.slice(0, 1) : local.slice(0, 2);
  return `${visible}****${email.slice(at)}`;
}
