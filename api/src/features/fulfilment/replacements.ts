import crypto from 'node:crypto';
import sharp from 'sharp';
import {
  REPLACEMENT_PHOTO_MAX_MB,
  REPLACEMENT_PHOTO_MESSAGES,
  REPLACEMENT_WINDOW_DAYS,
  type FulfilmentLine,
  type OrderPrintLine,
  type ReplacementQueueResult,
  type ReplacementStatus,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { AppError, badRequest, notFound } from '../../http/envelope';
import { deliverSoon, enqueueMail } from '../../mail/outbox';
import {
  fulfilmentLine,
  LINE_NOT_FOUND_MESSAGE,
  LINE_SELECT,
  orderPrintLineOf,
  toFulfilmentLine,
  withinReplacementWindow,
  type LineViewRow,
} from './printLines';

/**
 * Replacements (docs/prints.md, "Replacements"): the runner asks, within 7 days of a line's delivery,
 * with a photo of the damage; fulfilment staff approve (a new print line at no charge, made and
 * shipped like any other) or decline with a reason the runner reads. One request open or approved per
 * line (a partial unique index); a decision is one conditional update, so two staff deciding at once
 * leave one result.
 */

export const NOT_DELIVERED_MESSAGE = 'A replacement can be asked for once the print is delivered.';
export const windowPassedMessage = (deliveredOn: string) =>
  `A replacement can be asked for within ${REPLACEMENT_WINDOW_DAYS} days of delivery: this print was delivered on ${deliveredOn}.`;
export const ALREADY_ASKED_MESSAGE = 'A replacement of this print is already asked for.';
export const PHOTO_REQUIRED_MESSAGE = REPLACEMENT_PHOTO_MESSAGES.required;
export const PHOTO_NOT_IMAGE_MESSAGE = REPLACEMENT_PHOTO_MESSAGES.notImage;
export const PHOTO_TOO_LARGE_MESSAGE = REPLACEMENT_PHOTO_MESSAGES.tooLarge;
export const REQUEST_NOT_FOUND_MESSAGE = 'We could not find this replacement request.';
export const decidedMeanwhileMessage = (status: ReplacementStatus) => `Someone else decided this request a moment ago: it is ${status} now.`;
export const REPLACEMENT_ASKED_MESSAGE = 'Your replacement request is sent. We will answer by mail.';

const PHOTO_FORMATS = new Set(['jpeg', 'png', 'webp']);
export const replacementPhotoKey = (orderRef: string, name: string) => `replacement-photos/${orderRef}/${name}.jpg`;

/** The photo as stored: an image checked by its content, turned upright, at most 2000 px, as JPEG without metadata. */
async function damagePhoto(photo: { data: Buffer } | undefined): Promise<Buffer> {
  if (!photo || photo.data.length === 0) throw badRequest(PHOTO_REQUIRED_MESSAGE);
  if (photo.data.length > REPLACEMENT_PHOTO_MAX_MB * 1024 * 1024) throw badRequest(PHOTO_TOO_LARGE_MESSAGE);
  const format = await sharp(photo.data)
    .metadata()
    .then((m) => m.format ?? '')
    .catch(() => '');
  if (!PHOTO_FORMATS.has(format)) throw badRequest(PHOTO_NOT_IMAGE_MESSAGE);
  return sharp(photo.data).rotate().resize({ width: 2000, height: 2000, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer();
}

/** The runner's request for a line of their order (the caller checked the order is theirs). */
export async function askReplacement(
  ctx: AppContext,
  order: { id: number; order_ref: string },
  input: { lineId: number; note: string; photo: { data: Buffer } | undefined },
  userId: number | null,
): Promise<OrderPrintLine> {
  const line = (await ctx.db.query<LineViewRow>(`${LINE_SELECT} where l.id = $1 and l.order_id = $2`, [input.lineId, order.id]))[0];
  if (!line) throw notFound(LINE_NOT_FOUND_MESSAGE);
  if (line.status !== 'delivered' || !line.delivered_at) throw badRequest(NOT_DELIVERED_MESSAGE);
  if (!withinReplacementWindow(line.delivered_at))
    throw badRequest(
      windowPassedMessage(
        new Date(line.delivered_at).toLocaleDateString('en-IN', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Asia/Kolkata' }),
      ),
    );
  if (line.rr_status === 'requested' || line.rr_status === 'approved') throw new AppError(409, ALREADY_ASKED_MESSAGE);
  const photo = await damagePhoto(input.photo);
  const key = replacementPhotoKey(order.order_ref, `${line.id}-${crypto.randomBytes(6).toString('hex')}`);
  await ctx.storage.put(key, photo, 'image/jpeg');
  try {
    await ctx.db.query('insert into print_replacement_requests (line_id, order_id, requested_by, note, photo_key) values ($1, $2, $3, $4, $5)', [
      line.id,
      order.id,
      userId,
      input.note,
      key,
    ]);
  } catch (error) {
    // A second request of the same moment: the unique index keeps one.
    if ((error as { code?: string }).code === '23505') throw new AppError(409, ALREADY_ASKED_MESSAGE);
    throw error;
  }
  return orderPrintLineOf((await ctx.db.query<LineViewRow>(`${LINE_SELECT} where l.id = $1`, [line.id]))[0]!);
}

/** Open requests, oldest first, each with its line. */
export async function openReplacementRequests(db: Db): Promise<ReplacementQueueResult> {
  const rows = await db.query<LineViewRow>(`${LINE_SELECT} where rr.rr_status = 'requested' order by rr.rr_created_at, l.id limit 200`);
  return { requests: rows.map((r) => ({ request: toFulfilmentLine(r).replacementRequest!, line: toFulfilmentLine(r) })) };
}

export async function replacementPhoto(db: Db, requestId: number): Promise<string> {
  const row = (await db.query<{ photo_key: string }>('select photo_key from print_replacement_requests where id = $1', [requestId]))[0];
  if (!row) throw notFound(REQUEST_NOT_FOUND_MESSAGE);
  return row.photo_key;
}

interface RequestRow {
  [column: string]: unknown;
  id: number;
  line_id: number;
  order_id: number;
  status: ReplacementStatus;
  decline_reason: string | null;
}

/** Approves (queues a new line at no charge) or declines (with the reason) an open request; mails the runner. */
export async function decideReplacement(
  ctx: AppContext,
  input: { requestId: number; approve: boolean; reason?: string },
  byUserId: number,
  log: (error: unknown) => void,
): Promise<FulfilmentLine> {
  const { lineId, mailId } = await ctx.db.transaction(async (tx) => {
    const decided = (
      await tx.query<RequestRow>(
        `update print_replacement_requests set status = $2, decline_reason = $3, decided_by = $4, decided_at = now()
          where id = $1 and status = 'requested' returning *`,
        [input.requestId, input.approve ? 'approved' : 'declined', input.approve ? null : (input.reason ?? '').trim(), byUserId],
      )
    )[0];
    if (!decided) {
      const now = (await tx.query<RequestRow>('select * from print_replacement_requests where id = $1', [input.requestId]))[0];
      if (!now) throw notFound(REQUEST_NOT_FOUND_MESSAGE);
      throw new AppError(409, decidedMeanwhileMessage(now.status));
    }
    let newLine: number | null = null;
    if (input.approve) {
      newLine = (
        await tx.query<{ id: number }>(
          `insert into print_lines (order_id, order_item_id, kind, photo_ids, print_product_id, orientation, quantity, amount, replacement_of)
           select order_id, order_item_id, kind, photo_ids, print_product_id, orientation, quantity, 0, id from print_lines where id = $1 returning id`,
          [decided.line_id],
        )
      )[0]!.id;
      await tx.query('update print_replacement_requests set replacement_line_id = $2 where id = $1', [decided.id, newLine]);
      await tx.query(`insert into print_line_changes (line_id, from_status, to_status, changed_by) values ($1, null, 'queued', $2)`, [newLine, byUserId]);
    }
    return { lineId: newLine ?? decided.line_id, mailId: await enqueueDecisionMail(tx, decided, input.approve) };
  });
  await deliverSoon(ctx, mailId, log);
  return fulfilmentLine(ctx.db, lineId);
}

async function enqueueDecisionMail(tx: Db, request: RequestRow, approved: boolean): Promise<number | null> {
  const view = (await tx.query<LineViewRow>(`${LINE_SELECT} where l.id = $1`, [request.line_id]))[0]!;
  const text = approved
    ? [
        `Hello ${view.buyer_name},`,
        `We are sending you a new ${view.product} from ${view.event_name} (order ${view.order_ref}) at no charge. Your order page shows where it is.`,
      ]
    : [
        `Hello ${view.buyer_name},`,
        `We cannot replace your ${view.product} from ${view.event_name} (order ${view.order_ref}): ${request.decline_reason ?? ''}`,
      ];
  return enqueueMail(
    tx,
    {
      to: view.email,
      subject: approved ? `Your replacement from order ${view.order_ref} is on its way` : `Your replacement request for order ${view.order_ref}`,
      text: text.join('\n\n'),
      tag: approved ? 'print_replacement_approved' : 'print_replacement_declined',
    },
    { dedupeKey: `print_replacement:${request.id}`, orderId: request.order_id },
  );
}
