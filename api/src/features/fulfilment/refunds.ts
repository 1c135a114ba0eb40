import crypto from 'node:crypto';
import { DOWNLOADS_NOT_REFUNDABLE_MESSAGE, REFUND_POLICY, type PrintRefundResult, type PrintRefundStatus } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { badRequest, notFound } from '../../http/envelope';
import { deliverSoon, enqueueMail } from '../../mail/outbox';
import { refundPayment } from '../../payu/refundPayment';
import { fulfilmentLine, LINE_SELECT, materialisePrintLines, type LineViewRow } from './printLines';

/**
 * Refunds of print and collage lines (docs/prints.md, "Refunds"). A refund is recorded first, in a
 * transaction that locks its line: the same request key answers with the refund already recorded
 * (a retry or a double click refunds once), and the amount may not exceed what is left of the line
 * (paid, less refunded, less refunds still pending), so two refunds at once leave one result. Then
 * the gateway is asked (cancel_refund_transaction with the refund's own token, so the gateway too
 * refunds a token once). Accepted: the refund counts (print_lines.refunded, the organiser's ledger)
 * and the runner gets one mail. Not accepted: it stays pending ("Refund pending") and is asked again
 * on the next attempt of the same key or by the print-refunds job, until the gateway accepts it.
 */

export const ORDER_ITEM_NOT_FOUND_MESSAGE = 'We could not find this order line.';
export const NOT_PAID_MESSAGE = 'Only a paid order can be refunded.';
export const refundTooLargeMessage = (left: number) =>
  left > 0 ? `A refund cannot be larger than what is left of the line: ₹${formatRupees(left)} at most.` : 'Nothing is left to refund on this line.';
export const refundPendingMessage = (amount: number) =>
  `The gateway did not accept the refund of ₹${formatRupees(amount)} yet: it shows as Refund pending and is tried again.`;
export const refundedMessage = (amount: number) => `Refunded ₹${formatRupees(amount)}.`;

/** How long one attempt may hold a refund before another process may ask the gateway again. */
const CLAIM_SECONDS = 60;
/** Waits between attempts: a minute, doubling, at most an hour. */
const RETRY_SECONDS = 60;
const MAX_RETRY_SECONDS = 3600;

const formatRupees = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
const paise = (value: number | string) => Math.round(Number(value) * 100);

interface RefundRow {
  [column: string]: unknown;
  id: number;
  line_id: number;
  order_id: number;
  amount: string | number;
  status: PrintRefundStatus;
  token: string;
  attempts: number;
  last_error: string | null;
}

interface ItemRow {
  [column: string]: unknown;
  id: number;
  order_id: number;
  kind: string;
  total: string | number;
  gst: string | number;
  status: string;
  event_id: number;
}

/** Records a refund of an order line (or finds the one of this key) and asks the gateway. */
export async function refundOrderLine(
  ctx: AppContext,
  input: { orderItemId: number; amount: number; requestKey: string },
  byUserId: number,
  log: (error: unknown) => void,
): Promise<{ result: PrintRefundResult; message: string }> {
  const recorded = await ctx.db.transaction(async (tx) => {
    const item = (
      await tx.query<ItemRow>(
        `select i.id, i.order_id, i.kind, i.total, i.gst, o.status, o.event_id from order_items i join orders o on o.id = i.order_id where i.id = $1`,
        [input.orderItemId],
      )
    )[0];
    if (!item) throw notFound(ORDER_ITEM_NOT_FOUND_MESSAGE);
    if (item.kind !== 'print' && item.kind !== 'collage') throw badRequest(DOWNLOADS_NOT_REFUNDABLE_MESSAGE);
    if (item.status !== 'Paid' && item.status !== 'Downloaded') throw badRequest(NOT_PAID_MESSAGE);
    await materialisePrintLines(tx, item.order_id);
    // The bought line (a replacement line is at no charge: nothing to refund on it). Locked, so two
    // refunds of one line are decided one after the other.
    const line = (
      await tx.query<{ id: number; amount: string; refunded: string }>(
        'select id, amount, refunded from print_lines where order_item_id = $1 and replacement_of is null for update',
        [item.id],
      )
    )[0];
    if (!line) throw notFound(ORDER_ITEM_NOT_FOUND_MESSAGE);
    const same = (await tx.query<RefundRow>('select * from print_refunds where line_id = $1 and request_key = $2', [line.id, input.requestKey]))[0];
    if (same) return same;
    const pending = (
      await tx.query<{ pending: string }>(`select coalesce(sum(amount), 0) as pending from print_refunds where line_id = $1 and status = 'pending'`, [line.id])
    )[0]!;
    const left = paise(line.amount) - paise(line.refunded) - paise(pending.pending);
    const wanted = paise(input.amount);
    if (wanted > left) throw badRequest(refundTooLargeMessage(Math.max(0, left) / 100));
    // The GST part of the refund: the line's own share of GST.
    const gst = paise(item.total) > 0 ? Math.round((wanted * paise(item.gst)) / paise(item.total)) / 100 : 0;
    const token = `FLR${line.id}-${crypto.randomBytes(6).toString('hex')}`;
    return (
      await tx.query<RefundRow>(
        `insert into print_refunds (line_id, order_id, event_id, request_key, token, amount, gst, requested_by) values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
        [line.id, item.order_id, item.event_id, input.requestKey, token, wanted / 100, gst, byUserId],
      )
    )[0]!;
  });
  const refund = recorded.status === 'pending' ? await attemptRefund(ctx, recorded.id, log) : recorded;
  const amount = Number(refund.amount);
  return {
    result: {
      line: await fulfilmentLine(ctx.db, refund.line_id),
      refund: { id: refund.id, amount, status: refund.status, lastError: refund.status === 'pending' ? refund.last_error : null },
    },
    message: refund.status === 'refunded' ? refundedMessage(amount) : refundPendingMessage(amount),
  };
}

/**
 * One attempt at the gateway for a pending refund. The refund is claimed for a while first, so of two
 * processes (or two clicks) only one asks; the other answers with the refund as it stands.
 */
export async function attemptRefund(ctx: AppContext, refundId: number, log: (error: unknown) => void): Promise<RefundRow> {
  const claimed = (
    await ctx.db.query<RefundRow & { payment_id: string | null }>(
      `update print_refunds r set claimed_until = now() + make_interval(secs => $2), attempts = r.attempts + 1
         from orders o
        where r.id = $1 and o.id = r.order_id and r.status = 'pending' and (r.claimed_until is null or r.claimed_until < now())
        returning r.*, o.payment_id`,
      [refundId, CLAIM_SECONDS],
    )
  )[0];
  if (!claimed) return (await ctx.db.query<RefundRow>('select * from print_refunds where id = $1', [refundId]))[0]!;
  const answer = claimed.payment_id
    ? await refundPayment(ctx.config, { mihpayid: claimed.payment_id, token: claimed.token, amount: Number(claimed.amount) })
    : ({ ok: false, error: 'The order has no gateway payment to refund.' } as const);
  if (!answer.ok) {
    const wait = Math.min(MAX_RETRY_SECONDS, RETRY_SECONDS * 2 ** Math.max(0, claimed.attempts - 1));
    return (
      await ctx.db.query<RefundRow>(
        `update print_refunds set claimed_until = null, last_error = $2, next_attempt_at = now() + make_interval(secs => $3) where id = $1 returning *`,
        [refundId, answer.error.slice(0, 500), wait],
      )
    )[0]!;
  }
  const { refund, mailId } = await ctx.db.transaction(async (tx) => {
    const done = (
      await tx.query<RefundRow>(
        `update print_refunds set status = 'refunded', gateway_request_id = $2, refunded_at = now(), claimed_until = null, last_error = null
          where id = $1 and status = 'pending' returning *`,
        [refundId, answer.requestId],
      )
    )[0];
    if (!done) return { refund: (await tx.query<RefundRow>('select * from print_refunds where id = $1', [refundId]))[0]!, mailId: null };
    await tx.query('update print_lines set refunded = refunded + $2 where id = $1', [done.line_id, done.amount]);
    return { refund: done, mailId: await enqueueRefundMail(tx, done) };
  });
  await deliverSoon(ctx, mailId, log);
  return refund;
}

async function enqueueRefundMail(tx: Db, refund: RefundRow): Promise<number | null> {
  const view = (await tx.query<LineViewRow>(`${LINE_SELECT} where l.id = $1`, [refund.line_id]))[0]!;
  const amount = formatRupees(Number(refund.amount));
  return enqueueMail(
    tx,
    {
      to: view.email,
      subject: `Refund of ₹${amount} for order ${view.order_ref}`,
      text: [
        `Hello ${view.buyer_name},`,
        `We have refunded ₹${amount} for your ${view.product} from ${view.event_name} (order ${view.order_ref}) to the card or account you paid with.`,
        REFUND_POLICY,
      ].join('\n\n'),
      tag: 'print_refund',
    },
    { dedupeKey: `print_refund:${refund.id}`, orderId: refund.order_id },
  );
}

/** The print-refunds job: every pending refund whose next attempt is due, oldest first. */
export async function retryDueRefunds(ctx: AppContext, log: (error: unknown) => void, limit = 20): Promise<{ refunded: number; pending: number }> {
  const due = await ctx.db.query<{ id: number }>(
    `select id from print_refunds where status = 'pending' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now()) order by id limit $1`,
    [limit],
  );
  let refunded = 0;
  let pending = 0;
  for (const { id } of due) {
    const refund = await attemptRefund(ctx, id, log);
    if (refund.status === 'refunded') refunded++;
    else pending++;
  }
  return { refunded, pending };
}
