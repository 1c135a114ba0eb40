import { ORGANISER_REQUEST_MESSAGES, type OperatorEventRow, type OrganiserRequestFields, type OrganiserRequestView } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { AppError, notFound } from '../../http/envelope';
import { deliverSoon, enqueueMail } from '../../mail/outbox';
import { setRole } from '../accounts';

/**
 * "List your race": any signed-in account asks to organise races (one request waits at a time);
 * an operator approves, which grants the organiser role through setRole (recorded in role_changes),
 * or declines with a reason. Either answer is mailed once (outbox, deduplicated by the request).
 */

interface RequestRow {
  [column: string]: unknown;
  id: number;
  user_id: number;
  race_name: string;
  from_date: string | Date;
  to_date: string | Date;
  city: string;
  expected_runners: number;
  contact_name: string;
  contact_phone: string;
  note: string;
  status: OrganiserRequestView['status'];
  decline_reason: string | null;
  decided_at: Date | null;
  created_at: Date;
  email: string;
  first_name: string;
  last_name: string;
}

const REQUEST_SELECT = `select r.*, u.email, u.first_name, u.last_name from organiser_requests r join users u on u.id = r.user_id`;

const day = (value: string | Date) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

function view(r: RequestRow): OrganiserRequestView {
  return {
    id: r.id,
    raceName: r.race_name,
    fromDate: day(r.from_date),
    toDate: day(r.to_date),
    city: r.city,
    expectedRunners: r.expected_runners,
    contactName: r.contact_name,
    contactPhone: r.contact_phone,
    note: r.note,
    status: r.status,
    declineReason: r.decline_reason,
    createdAt: new Date(r.created_at).toISOString(),
    decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    accountEmail: r.email,
    accountName: `${r.first_name} ${r.last_name}`.trim(),
  };
}

async function requestById(db: Db, id: number): Promise<RequestRow | null> {
  return (await db.query<RequestRow>(`${REQUEST_SELECT} where r.id = $1`, [id]))[0] ?? null;
}

export async function askToOrganise(
  ctx: AppContext,
  user: { id: number; is_organiser: boolean },
  input: Required<OrganiserRequestFields>,
  log: (error: unknown) => void,
): Promise<OrganiserRequestView> {
  if (user.is_organiser) throw new AppError(409, ORGANISER_REQUEST_MESSAGES.organiserAlready);
  const { id, mailId } = await ctx.db.transaction(async (tx) => {
    // The partial unique index keeps one waiting request per account, even for two tabs at once.
    const rows = await tx.query<{ id: number }>(
      `insert into organiser_requests (user_id, race_name, from_date, to_date, city, expected_runners, contact_name, contact_phone, note)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (user_id) where status = 'pending' do nothing returning id`,
      [user.id, input.raceName, input.fromDate, input.toDate, input.city, input.expectedRunners, input.contactName, input.contactPhone, input.note],
    );
    if (!rows[0]) throw new AppError(409, ORGANISER_REQUEST_MESSAGES.pendingAlready);
    const row = (await requestById(tx, rows[0].id))!;
    const mail = await enqueueMail(
      tx,
      {
        to: row.email,
        subject: `We received your request to list ${row.race_name}`,
        text: [
          `Hello ${row.first_name},`,
          `Thank you for asking to list ${row.race_name} (${row.city}, ${day(row.from_date)}). We review requests within two working days and mail you the answer.`,
        ].join('\n\n'),
        tag: 'organiser_request_received',
      },
      { dedupeKey: `organiser_request_received:${row.id}` },
    );
    return { id: row.id, mailId: mail };
  });
  await deliverSoon(ctx, mailId, log);
  return view((await requestById(ctx.db, id))!);
}

export async function myOrganiserRequest(db: Db, userId: number): Promise<OrganiserRequestView | null> {
  const rows = await db.query<RequestRow>(`${REQUEST_SELECT} where r.user_id = $1 order by r.id desc limit 1`, [userId]);
  return rows[0] ? view(rows[0]) : null;
}

export async function operatorRequests(db: Db): Promise<{ pending: OrganiserRequestView[]; decided: OrganiserRequestView[] }> {
  const pending = await db.query<RequestRow>(`${REQUEST_SELECT} where r.status = 'pending' order by r.created_at, r.id`);
  const decided = await db.query<RequestRow>(`${REQUEST_SELECT} where r.status <> 'pending' order by r.decided_at desc, r.id desc limit 50`);
  return { pending: pending.map(view), decided: decided.map(view) };
}

/** Approves (grants the organiser role) or declines one waiting request; of two operators at once, one answers. */
export async function decideOrganiserRequest(
  ctx: AppContext,
  input: { requestId: number; approve: boolean; reason?: string },
  operatorId: number,
  log: (error: unknown) => void,
): Promise<OrganiserRequestView> {
  const mailId = await ctx.db.transaction(async (tx) => {
    const rows = await tx.query<{ id: number }>(
      `update organiser_requests set status = $2, decline_reason = $3, decided_by = $4, decided_at = now()
        where id = $1 and status = 'pending' returning id`,
      [input.requestId, input.approve ? 'approved' : 'declined', input.approve ? null : (input.reason ?? '').trim(), operatorId],
    );
    if (!rows[0]) {
      if (!(await requestById(tx, input.requestId))) throw notFound('We could not find this request.');
      throw new AppError(409, ORGANISER_REQUEST_MESSAGES.decidedAlready);
    }
    const row = (await requestById(tx, input.requestId))!;
    if (input.approve) await setRole(tx, row.email, 'organiser', true, { userId: operatorId, via: 'api' });
    const text = input.approve
      ? [
          `Hello ${row.first_name},`,
          `Your request to list ${row.race_name} is approved: your account now organises races. Sign in again and open Event Dashboard from the account menu to create the race, invite photographers and import the participant list.`,
        ]
      : [
          `Hello ${row.first_name},`,
          `We cannot list ${row.race_name} for now: ${row.decline_reason}`,
          'You may send a new request from List your race at any time.',
        ];
    return enqueueMail(
      tx,
      {
        to: row.email,
        subject: input.approve ? `${row.race_name} can be listed on Finishline` : `Your request to list ${row.race_name}`,
        text: text.join('\n\n'),
        tag: input.approve ? 'organiser_request_approved' : 'organiser_request_declined',
      },
      { dedupeKey: `organiser_request_decided:${row.id}` },
    );
  });
  await deliverSoon(ctx, mailId, log);
  return view((await requestById(ctx.db, input.requestId))!);
}

/** Every event with its state: published, open to photographers, organisers, photos, participants, paid orders. */
export async function operatorEvents(db: Db): Promise<OperatorEventRow[]> {
  const rows = await db.query<{
    id: number;
    name: string;
    from_date: string | Date;
    published: boolean;
    registration_open: boolean;
    organisers: string[] | null;
    photos: number;
    participants: number;
    paid_orders: number;
  }>(
    `select e.id, e.name, e.from_date, (e.published and e.issearchable) as published, e.partner_registration as registration_open,
            (select array_agg(distinct u.email order by u.email) from users u where u.id = e.organiser_user_id) as organisers,
            (select count(*)::int from photos p where p.event_id = e.id) as photos,
            (select count(*)::int from participants pa where pa.event_id = e.id) as participants,
            (select count(*)::int from orders o where o.event_id = e.id and o.status in ('Paid', 'Downloaded')) as paid_orders
       from events e
      order by e.from_date desc, e.id desc`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    fromDate: day(r.from_date),
    published: r.published,
    registrationOpen: r.registration_open,
    organisers: r.organisers ?? [],
    photos: r.photos,
    participants: r.participants,
    paidOrders: r.paid_orders,
  }));
}
