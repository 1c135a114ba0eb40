import type { EventPartnerRegistration, PartnerRegistrationStatus } from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { badRequest } from '../../http/envelope';

interface RegistrationRow {
  [column: string]: unknown;
  event_id: number;
  user_id: number;
  first_name: string;
  last_name: string;
  nickname: string;
  email: string;
  mobile: string;
  status: PartnerRegistrationStatus;
  dates_available: string[];
  remarks: string;
  share_percent: number;
  created_at: Date;
  decided_at: Date | null;
}

const REGISTRATION_COLUMNS = `r.event_id, r.user_id, pp.first_name, pp.last_name, pp.nickname, u.email, pp.mobile, r.status,
  array(select to_char(d, 'YYYY-MM-DD') from unnest(r.dates_available) d order by d) as dates_available,
  r.remarks, r.share_percent, r.created_at, r.decided_at`;
const REGISTRATION_FROM = `event_partners r join users u on u.id = r.user_id join partner_profiles pp on pp.user_id = r.user_id`;

const toRegistration = (r: RegistrationRow): EventPartnerRegistration => ({
  eventId: r.event_id,
  partnerUserId: r.user_id,
  firstName: r.first_name,
  lastName: r.last_name,
  nickname: r.nickname,
  email: r.email,
  mobile: r.mobile,
  status: r.status,
  datesAvailable: r.dates_available,
  remarks: r.remarks,
  sharePercent: r.share_percent,
  registeredAt: new Date(r.created_at).toISOString(),
  decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
});

/** Every photographer registration of one event, pending first, then by when they registered. */
export async function registrationsOfEvent(db: Db, eventId: number): Promise<EventPartnerRegistration[]> {
  const rows = await db.query<RegistrationRow>(
    `select ${REGISTRATION_COLUMNS} from ${REGISTRATION_FROM}
      where r.event_id = $1
      order by (r.status = 'pending') desc, r.created_at, r.user_id`,
    [eventId],
  );
  return rows.map(toRegistration);
}

/**
 * Approves or rejects one registration, recording who decided and when; approving also makes the
 * account a partner (the role that opens the partner's screens). A rejected photographer may be
 * approved later and the other way round: the latest decision holds.
 */
export async function decideRegistration(
  db: Db,
  input: { eventId: number; partnerUserId: number; decision: 'approved' | 'rejected'; sharePercent?: number },
  decidedBy: number,
): Promise<EventPartnerRegistration> {
  return db.transaction(async (tx) => {
    const updated = await tx.query<{ user_id: number }>(
      `update event_partners set status = $3, share_percent = coalesce($4, share_percent), decided_by = $5, decided_at = now(), updated_at = now()
        where event_id = $1 and user_id = $2 returning user_id`,
      [input.eventId, input.partnerUserId, input.decision, input.sharePercent ?? null, decidedBy],
    );
    if (updated.length === 0) throw badRequest('This photographer has not registered for this event.');
    if (input.decision === 'approved') await tx.query('update users set is_partner = true where id = $1', [input.partnerUserId]);
    const rows = await tx.query<RegistrationRow>(`select ${REGISTRATION_COLUMNS} from ${REGISTRATION_FROM} where r.event_id = $1 and r.user_id = $2`, [
      input.eventId,
      input.partnerUserId,
    ]);
    return toRegistration(rows[0]);
  });
}
