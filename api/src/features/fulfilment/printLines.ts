import {
  PRINT_LINE_NEXT,
  PRINT_STATUS_LABELS,
  REPLACEMENT_WINDOW_DAYS,
  type FulfilmentLine,
  type OrderPrintLine,
  type PrintLineStatus,
  type ReplacementRequestView,
  type ReplacementStatus,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { AppError, badRequest, notFound } from '../../http/envelope';
import { deliverSoon, enqueueMail } from '../../mail/outbox';

/**
 * Print lines: one per paid print or collage item (made by materialisePrintLines, idempotent: the
 * partial unique index keeps one per item) and one per approved replacement. A line moves forward
 * only (PRINT_LINE_NEXT); a move is one conditional update, so of two fulfilment users acting on one
 * line at once exactly one changes it and the other is told what it became.
 */

export const LINE_NOT_FOUND_MESSAGE = 'We could not find this print line.';
export const backwardsMessage = (from: PrintLineStatus, to: PrintLineStatus) =>
  `A print line only moves forward one step at a time: a ${from} line cannot become ${to}.`;
export const changedMeanwhileMessage = (now: PrintLineStatus) => `Someone else changed this line a moment ago: it is ${now} now.`;
export const heldMessage = (reason: string) => `This line is held and cannot be printed: ${reason}`;
export const FILE_NOT_READY_MESSAGE = 'The print-ready file of this line is not made yet. Please try again in a minute.';
export const DISPATCHED_ADDRESS_MESSAGE = 'The address of an order cannot be changed once a print of it is shipped.';

export interface PrintLineRow {
  [column: string]: unknown;
  id: number;
  order_id: number;
  order_item_id: number;
  kind: 'print' | 'collage';
  photo_ids: number[];
  print_product_id: number | null;
  orientation: string | null;
  quantity: number;
  amount: number;
  refunded: number;
  status: PrintLineStatus;
  file_state: 'pending' | 'ready' | 'held';
  file_key: string | null;
  file_width: number | null;
  file_height: number | null;
  file_dpi: number | null;
  hold_reason: string | null;
  warning: string | null;
  courier: string | null;
  tracking_number: string | null;
  replacement_of: number | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** Paid print and collage items without their line get one (the job and the queue call this; the order page for its order). */
export async function materialisePrintLines(db: Db, orderId: number | null = null): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `insert into print_lines (order_id, order_item_id, kind, photo_ids, print_product_id, orientation, quantity, amount, created_at, status_changed_at)
     select o.id, i.id, i.kind, i.photo_ids, i.print_product_id, i.orientation, i.quantity, i.total, coalesce(o.paid_at, now()), coalesce(o.paid_at, now())
       from order_items i join orders o on o.id = i.order_id
      where i.kind in ('print', 'collage') and o.status in ('Paid', 'Downloaded') and ($1::int is null or o.id = $1)
        and not exists (select 1 from print_lines l where l.order_item_id = i.id and l.replacement_of is null)
     on conflict (order_item_id) where replacement_of is null do nothing
     returning id`,
    [orderId],
  );
  return rows.length;
}

// A line with its order, product, pending refunds (migration 411), newest batch download (412) and newest replacement request.
export const LINE_SELECT = `
  select l.*, o.order_ref, o.name as buyer_name, o.phone, o.email, o.shipping_address, o.pincode, o.print_instruction, o.bib_number, o.paid_at,
         e.name as event_name, coalesce(pp.name, case when l.kind = 'collage' then 'Journey-map collage (' || coalesce(l.orientation, 'Vertical') || ')' end) as product,
         coalesce(rp.pending, 0) as refund_pending, rp.last_error as refund_error, pb.last_batch, rr.*
    from print_lines l
    join orders o on o.id = l.order_id
    join events e on e.id = o.event_id
    left join print_products pp on pp.id = l.print_product_id
    left join lateral (
      select sum(f.amount) as pending, (array_agg(f.last_error order by f.id desc))[1] as last_error
        from print_refunds f where f.line_id = l.id and f.status = 'pending') rp on true
    left join lateral (select max(bl.batch_id) as last_batch from print_batch_lines bl where bl.line_id = l.id) pb on true
    left join lateral (
      select q.id as rr_id, q.status as rr_status, q.note as rr_note, q.decline_reason as rr_decline_reason,
             q.replacement_line_id as rr_replacement_line_id, q.created_at as rr_created_at, q.decided_at as rr_decided_at
        from print_replacement_requests q where q.line_id = l.id order by q.id desc limit 1) rr on true`;

export interface LineViewRow extends PrintLineRow {
  order_ref: string;
  buyer_name: string;
  phone: string;
  email: string;
  shipping_address: string | null;
  pincode: string | null;
  print_instruction: string;
  bib_number: string;
  paid_at: Date | null;
  event_name: string;
  product: string;
  refund_pending: number | string;
  refund_error: string | null;
  last_batch: number | null;
  rr_id: number | null;
  rr_status: ReplacementStatus | null;
  rr_note: string | null;
  rr_decline_reason: string | null;
  rr_replacement_line_id: number | null;
  rr_created_at: Date | null;
  rr_decided_at: Date | null;
}

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/** The line's newest replacement request, from the LINE_SELECT columns. */
function replacementOf(r: LineViewRow): ReplacementRequestView | null {
  if (r.rr_id === null || r.rr_id === undefined) return null;
  return {
    id: r.rr_id,
    lineId: r.id,
    status: r.rr_status!,
    note: r.rr_note ?? '',
    declineReason: r.rr_decline_reason,
    replacementLineId: r.rr_replacement_line_id,
    createdAt: iso(r.rr_created_at)!,
    decidedAt: iso(r.rr_decided_at),
  };
}

/** Delivered less than the window ago (the runner may ask for a replacement until then). */
export function withinReplacementWindow(deliveredAt: Date | string | null, now = Date.now()): boolean {
  return deliveredAt !== null && now - new Date(deliveredAt).getTime() <= REPLACEMENT_WINDOW_DAYS * 86_400_000;
}

export function toFulfilmentLine(r: LineViewRow, now = Date.now()): FulfilmentLine {
  return {
    id: r.id,
    orderItemId: r.order_item_id,
    orderRef: r.order_ref,
    kind: r.kind,
    product: r.product,
    quantity: r.quantity,
    photoIds: r.photo_ids,
    orientation: r.orientation,
    status: r.status,
    fileState: r.file_state,
    fileDpi: r.file_dpi,
    fileWidth: r.file_width,
    fileHeight: r.file_height,
    holdReason: r.hold_reason,
    warning: r.warning,
    courier: r.courier,
    trackingNumber: r.tracking_number,
    amount: Number(r.amount),
    refunded: Number(r.refunded),
    refundPending: Number(r.refund_pending),
    refundError: r.refund_error,
    lastBatch: r.last_batch,
    replacementOf: r.replacement_of,
    replacementRequest: replacementOf(r),
    buyerName: r.buyer_name,
    phone: r.phone,
    shippingAddress: r.shipping_address,
    pincode: r.pincode,
    printInstruction: r.print_instruction,
    eventName: r.event_name,
    bibNumber: r.bib_number,
    paidAt: r.paid_at ? new Date(r.paid_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
    ageHours: Math.floor((now - new Date(r.created_at).getTime()) / 3_600_000),
  };
}

/** The queue: lines oldest first, of one status or all, optionally of order references starting with search. */
export async function fulfilmentQueue(db: Db, filter: { status: PrintLineStatus | 'all'; search: string }): Promise<FulfilmentLine[]> {
  await materialisePrintLines(db);
  const rows = await db.query<LineViewRow>(
    `${LINE_SELECT}
      where ($1 = 'all' or l.status = $1) and ($2 = '' or o.order_ref like $2 || '%')
      order by l.created_at, l.id
      limit 500`,
    [filter.status, filter.search.trim().toUpperCase()],
  );
  return rows.map((r) => toFulfilmentLine(r));
}

export async function fulfilmentLine(db: Db, lineId: number): Promise<FulfilmentLine> {
  const rows = await db.query<LineViewRow>(`${LINE_SELECT} where l.id = $1`, [lineId]);
  if (!rows[0]) throw notFound(LINE_NOT_FOUND_MESSAGE);
  return toFulfilmentLine(rows[0]);
}

/** The lines of one order as the runner's order page shows them. */
export async function orderPrintLines(db: Db, orderId: number): Promise<OrderPrintLine[]> {
  await materialisePrintLines(db, orderId);
  const rows = await db.query<LineViewRow>(`${LINE_SELECT} where l.order_id = $1 order by l.id`, [orderId]);
  return rows.map((r) => orderPrintLineOf(r));
}

export function orderPrintLineOf(r: LineViewRow, now = Date.now()): OrderPrintLine {
  const request = replacementOf(r);
  return {
    id: r.id,
    kind: r.kind,
    product: r.product,
    status: r.status,
    statusLabel: PRINT_STATUS_LABELS[r.status],
    courier: r.courier,
    trackingNumber: r.tracking_number,
    replacementOf: r.replacement_of,
    refunded: Number(r.refunded),
    refundPending: Number(r.refund_pending),
    deliveredAt: iso(r.delivered_at),
    canRequestReplacement: r.status === 'delivered' && withinReplacementWindow(r.delivered_at, now) && (request === null || request.status === 'declined'),
    replacementRequest: request,
  };
}

/** Which statuses may move to `to` (the reverse of PRINT_LINE_NEXT). */
function fromStatusesOf(to: PrintLineStatus): PrintLineStatus[] {
  return (Object.keys(PRINT_LINE_NEXT) as PrintLineStatus[]).filter((from) => PRINT_LINE_NEXT[from].includes(to));
}

const TIME_COLUMN: Partial<Record<PrintLineStatus, string>> = {
  printed: 'printed_at',
  shipped: 'shipped_at',
  delivered: 'delivered_at',
  returned: 'returned_at',
};

/**
 * Moves a line to `to`: refused backwards (400), refused for a held or not yet ready file (409 for
 * not ready, 400 held), and one conditional update, so a concurrent second move finds the line
 * changed (409). Shipped and delivered write one mail each into the outbox in the same transaction
 * (key per line and status: one per change), sent right after the commit.
 */
export async function moveLine(
  ctx: AppContext,
  input: { lineId: number; status: PrintLineStatus; courier?: string; trackingNumber?: string },
  byUserId: number,
  log: (error: unknown) => void,
): Promise<FulfilmentLine> {
  const to = input.status;
  const from = fromStatusesOf(to);
  const mailId = await ctx.db.transaction(async (tx) => {
    const current = (await tx.query<PrintLineRow>('select * from print_lines where id = $1', [input.lineId]))[0];
    if (!current) throw notFound(LINE_NOT_FOUND_MESSAGE);
    if (to === 'printed' && current.file_state === 'held') throw badRequest(heldMessage(current.hold_reason ?? ''));
    if (to === 'printed' && current.file_state !== 'ready') throw new AppError(409, FILE_NOT_READY_MESSAGE);
    // Already there: someone else moved it a moment ago. Anything else not allowed is a step back or a skip.
    if (current.status === to) throw new AppError(409, changedMeanwhileMessage(current.status));
    if (!from.includes(current.status)) throw badRequest(backwardsMessage(current.status, to));
    const column = TIME_COLUMN[to]!;
    const moved = await tx.query<PrintLineRow>(
      `update print_lines set status = $2, ${column} = now(), status_changed_at = now(),
              courier = case when $2 = 'shipped' then $4 else courier end,
              tracking_number = case when $2 = 'shipped' then $5 else tracking_number end
        where id = $1 and status = $3 returning *`,
      [input.lineId, to, current.status, input.courier ?? null, input.trackingNumber ?? null],
    );
    if (!moved[0]) {
      const now = (await tx.query<{ status: PrintLineStatus }>('select status from print_lines where id = $1', [input.lineId]))[0];
      throw new AppError(409, changedMeanwhileMessage(now?.status ?? current.status));
    }
    await tx.query('insert into print_line_changes (line_id, from_status, to_status, changed_by) values ($1, $2, $3, $4)', [
      input.lineId,
      current.status,
      to,
      byUserId,
    ]);
    if (to === 'shipped' || to === 'delivered') return enqueueStatusMail(tx, moved[0]);
    return null;
  });
  await deliverSoon(ctx, mailId, log);
  return fulfilmentLine(ctx.db, input.lineId);
}

async function enqueueStatusMail(tx: Db, line: PrintLineRow): Promise<number | null> {
  const rows = await tx.query<LineViewRow>(`${LINE_SELECT} where l.id = $1`, [line.id]);
  const view = rows[0]!;
  const shipped = line.status === 'shipped';
  const text = shipped
    ? [
        `Hello ${view.buyer_name},`,
        `Your ${view.product} from ${view.event_name} (order ${view.order_ref}) is on its way.`,
        `Courier: ${line.courier}. Tracking number: ${line.tracking_number}.`,
        `It goes to: ${view.shipping_address ?? ''} ${view.pincode ?? ''}`.trim(),
      ]
    : [
        `Hello ${view.buyer_name},`,
        `Your ${view.product} from ${view.event_name} (order ${view.order_ref}) was delivered.`,
        'If it arrived damaged, ask for a replacement from your order page within 7 days, with a photo of the damage.',
      ];
  return enqueueMail(
    tx,
    {
      to: view.email,
      subject: shipped ? `Your print from order ${view.order_ref} is on its way` : `Your print from order ${view.order_ref} was delivered`,
      text: text.join('\n\n'),
      tag: shipped ? 'print_shipped' : 'print_delivered',
    },
    { dedupeKey: `print_${line.status}:${line.id}`, orderId: line.order_id },
  );
}
