import {
  formatRupees,
  type PartnerDailyShare,
  type PartnerPayout,
  type PartnerRevenueRow,
  type PartnerShareResult,
  type RecordPartnerPayoutRequest,
} from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { badRequest } from '../../http/envelope';
import { PHOTO_SALES_CTE, partnerSales } from '../../rules/photoSales';

/**
 * My Share: the partner's share of the paid orders that hold their photos, computed every time from
 * the orders through the one ledger rule (rules/photoSales.ts), at the share percent agreed per event.
 * Payouts are the only money figure stored here; what is still to pay is the share less them.
 */
const money = (value: unknown) => Math.round(Number(value ?? 0) * 100) / 100;

interface PayoutRow {
  [column: string]: unknown;
  id: number;
  event_id: number;
  event_name: string;
  amount: string;
  reference: string;
  paid_at: Date;
}

async function payoutsOf(db: Db, userId: number, eventId: number | null): Promise<PartnerPayout[]> {
  const rows = await db.query<PayoutRow>(
    `select p.id, p.event_id, e.name as event_name, p.amount, p.reference, p.paid_at
       from partner_payouts p join events e on e.id = p.event_id
      where p.user_id = $1 and ($2::int is null or p.event_id = $2) order by p.paid_at desc, p.id desc`,
    [userId, eventId],
  );
  return rows.map((r) => ({
    id: r.id,
    event_id: r.event_id,
    event_name: r.event_name,
    amount: money(r.amount),
    reference: r.reference,
    paid_at: new Date(r.paid_at).toISOString(),
  }));
}

/** The share earned per day of payment (India time), for the chart. */
async function dailyShare(db: Db, userId: number, eventId: number | null): Promise<PartnerDailyShare[]> {
  const rows = await db.query<{ day: string; userimages: number; usr_share: number }>(
    `with ${PHOTO_SALES_CTE}
     select to_char((s.paid_at at time zone 'Asia/Kolkata')::date, 'YYYY-MM-DD') as day, count(*)::int as userimages,
            sum(s.net * coalesce(ep.share_percent, 70) / 100)::float8 as usr_share
       from photo_sales s join photos p on p.id = s.photo_id
       left join event_partners ep on ep.event_id = s.event_id and ep.user_id = p.partner_user_id
      where p.partner_user_id = $1 and ($2::int is null or s.event_id = $2)
      group by 1 order by 1`,
    [userId, eventId],
  );
  return rows.map((r) => ({ day: r.day, userimages: r.userimages, usr_share: money(r.usr_share) }));
}

/** The partner's revenue rows: every event they are approved for (or sold photos at), or the one asked for. */
export async function partnerShare(db: Db, userId: number, eventId: number | null): Promise<PartnerShareResult> {
  const events = await db.query<{ event_id: number; event_name: string; event_from_date: string; share_percent: number }>(
    `select e.id as event_id, e.name as event_name, to_char(e.from_date, 'YYYY-MM-DD') as event_from_date, ep.share_percent
       from event_partners ep join events e on e.id = ep.event_id
      where ep.user_id = $1 and ep.status = 'approved' order by e.from_date desc, e.id`,
    [userId],
  );
  const sales = await partnerSales(db, { partnerUserId: userId, eventId: eventId ?? undefined });
  const names = new Map(events.map((e) => [e.event_id, e]));
  const missing = sales.filter((s) => !names.has(s.event_id)).map((s) => s.event_id);
  if (missing.length > 0) {
    const more = await db.query<{ event_id: number; event_name: string; event_from_date: string }>(
      `select id as event_id, name as event_name, to_char(from_date, 'YYYY-MM-DD') as event_from_date from events where id = any($1::int[])`,
      [missing],
    );
    for (const e of more) names.set(e.event_id, { ...e, share_percent: 70 });
  }
  const shown = [...names.values()].filter((e) => eventId === null || e.event_id === eventId);
  const usr_revenue: PartnerRevenueRow[] = shown.map((e) => {
    const s = sales.find((row) => row.event_id === e.event_id);
    return {
      event_id: e.event_id,
      event_name: e.event_name,
      price: money(s?.sales),
      totalorders: s?.orders ?? 0,
      totalimages: s?.images_in_orders ?? 0,
      userimages: s?.partner_images ?? 0,
      share_percent: s?.share_percent ?? e.share_percent,
      usr_share: money(s?.share),
    };
  });
  const list = await payoutsOf(db, userId, eventId);
  const earned = money(usr_revenue.reduce((sum, r) => sum + r.usr_share, 0));
  const paid = money(list.reduce((sum, p) => sum + p.amount, 0));
  return {
    usr_revenue,
    eventdetails: events.map(({ event_id, event_name, event_from_date }) => ({ event_id, event_name, event_from_date })),
    daily: await dailyShare(db, userId, eventId),
    payouts: { earned, paid, pending: money(earned - paid), list },
  };
}

/**
 * The organiser records a payout to a photographer of their event. It may not exceed the share still
 * to pay for that event; the registration row is locked so two payouts at once cannot both pass.
 */
export async function recordPayout(db: Db, input: RecordPartnerPayoutRequest, recordedBy: number): Promise<PartnerPayout> {
  return db.transaction(async (tx) => {
    const registered = await tx.query('select 1 from event_partners where event_id = $1 and user_id = $2 for update', [input.eventId, input.partnerUserId]);
    if (registered.length === 0) throw badRequest('This photographer has not registered for this event.');
    const share = money((await partnerSales(tx, { partnerUserId: input.partnerUserId, eventId: input.eventId }))[0]?.share);
    const paid = money(
      (
        await tx.query<{ paid: string }>('select coalesce(sum(amount), 0) as paid from partner_payouts where event_id = $1 and user_id = $2', [
          input.eventId,
          input.partnerUserId,
        ])
      )[0]?.paid,
    );
    const pending = money(share - paid);
    if (input.amount > pending) throw badRequest(`The payout is more than the share still to pay (${formatRupees(pending)}).`);
    const id = (
      await tx.query<{ id: number }>(
        'insert into partner_payouts (event_id, user_id, amount, reference, recorded_by) values ($1, $2, $3, $4, $5) returning id',
        [input.eventId, input.partnerUserId, input.amount, input.reference, recordedBy],
      )
    )[0]!.id;
    return (await payoutsOf(tx, input.partnerUserId, input.eventId)).find((p) => p.id === id)!;
  });
}
