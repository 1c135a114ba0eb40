import {
  PARTNER_MESSAGES,
  type PartnerEventOption,
  type PartnerLookupResult,
  type PartnerOwnRegistration,
  type PartnerProfileView,
  type RegisterPartnerInput,
  type RegisterPartnerResult,
} from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { badRequest } from '../../http/envelope';
import { seal } from '../../security/sealing';
import type { UserRow } from '../accounts';

/**
 * A photographer's partner profile (one per account) and their registration per event. The bank
 * account number and the PAN are sealed with the partner data key before they reach the database and
 * never leave it again: the pages show the last four characters only.
 */

/** What the seal of each secret column is bound to, so a sealed value opens only in its own row and column. */
export const sealContext = (column: 'bank_account_number_enc' | 'pan_enc', userId: number) => `partner_profiles.${column}:${userId}`;

/** The secrets as stored: sealed, with the last four characters kept apart for the masked view. */
export function sealPartnerSecrets(key: Buffer, userId: number, secrets: { accountNumber: string; pan: string }) {
  return {
    accountNumberEnc: seal(key, secrets.accountNumber, sealContext('bank_account_number_enc', userId)),
    accountLast4: secrets.accountNumber.slice(-4),
    panEnc: seal(key, secrets.pan, sealContext('pan_enc', userId)),
    panLast4: secrets.pan.slice(-4),
  };
}

const masked = (last4: string) => `XXXXXX${last4}`;

interface ProfileRow {
  [column: string]: unknown;
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  mobile: string;
  nickname: string;
  bank_account_name: string;
  bank_account_last4: string;
  bank_account_type: 1 | 2;
  bank_name: string;
  bank_branch: string;
  bank_ifsc: string;
  pan_last4: string;
}

/** The profile columns that may be shown; the sealed columns are never selected here. */
const PROFILE_SELECT = `select pp.user_id, u.email, pp.first_name, pp.last_name, pp.mobile, pp.nickname, pp.bank_account_name, pp.bank_account_last4,
       pp.bank_account_type, pp.bank_name, pp.bank_branch, pp.bank_ifsc, pp.pan_last4
  from partner_profiles pp join users u on u.id = pp.user_id where pp.user_id = $1`;

const toView = (r: ProfileRow): PartnerProfileView => ({
  partnerid: r.user_id,
  firstname: r.first_name,
  lastname: r.last_name,
  partnername: `${r.first_name} ${r.last_name}`,
  email: r.email,
  mobile: r.mobile,
  nickname: r.nickname,
  bankaccname: r.bank_account_name,
  bankaccnum: masked(r.bank_account_last4),
  bankacctype: Number(r.bank_account_type) as 1 | 2,
  bankname: r.bank_name,
  bankbranch: r.bank_branch,
  bankifsc: r.bank_ifsc,
  pannum: masked(r.pan_last4),
});

async function profileOf(db: Db, userId: number): Promise<PartnerProfileView | null> {
  const rows = await db.query<ProfileRow>(PROFILE_SELECT, [userId]);
  return rows[0] ? toView(rows[0]) : null;
}

async function registrationOf(db: Db, userId: number, eventId: number): Promise<PartnerOwnRegistration | null> {
  const rows = await db.query<{ status: PartnerOwnRegistration['status']; dates: string[]; remarks: string; share_percent: number }>(
    `select status, array(select to_char(d, 'YYYY-MM-DD') from unnest(dates_available) d order by d) as dates, remarks, share_percent
       from event_partners where event_id = $1 and user_id = $2`,
    [eventId, userId],
  );
  const r = rows[0];
  return r ? { eventId, status: r.status, datesAvailable: r.dates, remarks: r.remarks, sharePercent: r.share_percent } : null;
}

/**
 * Spec: searchable (and published) events are offered to photographers; an organiser also opens
 * registration early (partner_registration), so photographers line up before race day while the
 * race is still hidden from runners.
 */
const OPEN_EVENT_SQL = `(e.partner_registration or (e.issearchable and e.published))`;

interface EventOptionRow {
  [column: string]: unknown;
  event_id: number;
  event_name: string;
  event_from_date: string;
  event_to_date: string;
  event_location: string;
  dates: string[];
}
const EVENT_OPTION_SELECT = `select e.id as event_id, e.name as event_name, to_char(e.from_date, 'YYYY-MM-DD') as event_from_date,
       to_char(e.to_date, 'YYYY-MM-DD') as event_to_date, e.location as event_location,
       array(select to_char(d, 'YYYY-MM-DD') from generate_series(e.from_date, e.to_date, interval '1 day') d) as dates
  from events e`;
const toOption = (r: EventOptionRow): PartnerEventOption => ({ ...r, event_location: r.event_location || null });

/** The events a photographer may register for, newest first; `search` matches any part of the name. */
export async function partnerEventOptions(db: Db, search: string | undefined): Promise<PartnerEventOption[]> {
  const rows = await db.query<EventOptionRow>(
    `${EVENT_OPTION_SELECT} where ${OPEN_EVENT_SQL} and ($1::text is null or e.name ilike '%' || $1 || '%') order by e.from_date desc, e.id limit 100`,
    [search ? search.replace(/[\\%_]/g, (c) => `\\${c}`) : null],
  );
  return rows.map(toOption);
}

async function openEvent(db: Db, eventId: number): Promise<PartnerEventOption> {
  const rows = await db.query<EventOptionRow>(`${EVENT_OPTION_SELECT} where e.id = $1 and ${OPEN_EVENT_SQL}`, [eventId]);
  if (!rows[0]) throw badRequest('This event is not open to photographers.');
  return toOption(rows[0]);
}

/** Spec's look-up of a partner for an event: form_type 1 once the account has a partner profile. */
export async function lookupPartner(db: Db, user: UserRow, eventId: number): Promise<PartnerLookupResult> {
  await openEvent(db, eventId);
  const partner = await profileOf(db, user.id);
  return { form_type: partner ? 1 : 0, email: user.email, partner, registration: partner ? await registrationOf(db, user.id, eventId) : null };
}

/**
 * Registers (form_type 0) or updates (form_type 1) the signed-in account's partner details and its
 * registration for the event. A new registration waits for the event's organiser; an existing one
 * keeps its status (the organiser's decision stands) and takes the new dates and remarks. The account
 * becomes a partner at once, which opens My Share; every event's figures still need approval.
 */
export async function registerPartner(
  db: Db,
  key: Buffer,
  user: UserRow,
  input: RegisterPartnerInput,
  /** Runs last in the transaction with the answer (the route stores it for the request's Idempotency-Key). */
  beforeCommit: (tx: Db, answer: { result: RegisterPartnerResult; message: string }) => Promise<void> = async () => undefined,
): Promise<{ result: RegisterPartnerResult; message: string }> {
  if (input.emailId.toLowerCase() !== user.email.toLowerCase()) throw badRequest('Please use the email of the account you are signed in with.');
  return db.transaction(async (tx) => {
    const event = await openEvent(tx, input.eventId);
    const outside = input.availabledate.filter((d) => !event.dates.includes(d));
    if (outside.length > 0) throw badRequest('Please tick only dates of the event.');
    const existing = await tx.query<{ nickname: string }>('select nickname from partner_profiles where user_id = $1 for update', [user.id]);
    const profile = existing[0];
    if (input.form_type === 0 && profile) throw badRequest('You are already registered as a partner: update your details instead.');
    if (input.form_type === 1 && !profile) throw badRequest('There are no partner details to update yet: please register first.');
    if (profile && profile.nickname.toLowerCase() !== input.nickname.toLowerCase()) throw badRequest(PARTNER_MESSAGES.nicknameLocked);
    if (!profile) {
      const taken = await tx.query('select 1 from partner_profiles where lower(nickname) = lower($1)', [input.nickname]);
      if (taken.length > 0) throw badRequest('This nick name is taken: please choose another.');
    }

    const fields = [
      input.firstname,
      input.lastname,
      input.mobilenumber,
      input.bankaccname,
      input.bankacctype,
      input.bankname,
      input.bankbranch,
      input.bankifsc,
    ];
    if (!profile) {
      const s = sealPartnerSecrets(key, user.id, { accountNumber: input.bankaccnum, pan: input.pannum });
      await tx.query(
        `insert into partner_profiles (user_id, first_name, last_name, mobile, bank_account_name, bank_account_type, bank_name, bank_branch, bank_ifsc,
                                       nickname, bank_account_number_enc, bank_account_last4, pan_enc, pan_last4)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [user.id, ...fields, input.nickname, s.accountNumberEnc, s.accountLast4, s.panEnc, s.panLast4],
      );
    } else {
      await tx.query(
        `update partner_profiles set first_name = $2, last_name = $3, mobile = $4, bank_account_name = $5, bank_account_type = $6, bank_name = $7,
                bank_branch = $8, bank_ifsc = $9, updated_at = now() where user_id = $1`,
        [user.id, ...fields],
      );
      // Left empty on an update: the stored account number or PAN stays.
      const s = sealPartnerSecrets(key, user.id, { accountNumber: input.bankaccnum || '', pan: input.pannum || '' });
      if (input.bankaccnum)
        await tx.query('update partner_profiles set bank_account_number_enc = $2, bank_account_last4 = $3 where user_id = $1', [
          user.id,
          s.accountNumberEnc,
          s.accountLast4,
        ]);
      if (input.pannum) await tx.query('update partner_profiles set pan_enc = $2, pan_last4 = $3 where user_id = $1', [user.id, s.panEnc, s.panLast4]);
    }
    const before = await registrationOf(tx, user.id, input.eventId);
    await tx.query(
      `insert into event_partners (event_id, user_id, dates_available, remarks, terms_accepted_at) values ($1, $2, $3::date[], $4, now())
       on conflict (event_id, user_id) do update set dates_available = excluded.dates_available, remarks = excluded.remarks,
         terms_accepted_at = now(), updated_at = now()`,
      [input.eventId, user.id, input.availabledate, input.partnerremarks],
    );
    await tx.query('update users set is_partner = true where id = $1', [user.id]);
    const result = { partner: (await profileOf(tx, user.id))!, registration: (await registrationOf(tx, user.id, input.eventId))! };
    const waiting = before ? '' : ` Your registration for ${event.event_name} is waiting for the organiser's approval.`;
    const message = profile ? `Your partner details are updated.${waiting}` : `Welcome to Finishline, ${input.firstname}!${waiting}`;
    await beforeCommit(tx, { result, message });
    return { result, message };
  });
}
