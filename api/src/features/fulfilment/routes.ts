import type { FastifyRequest } from 'fastify';
import {
  API_ROUTES,
  fulfilmentQueueSchema,
  printBatchSchema,
  printLineStatusSchema,
  printRefundSchema,
  replacementDecisionSchema,
  toCsv,
  type FulfilmentQueueResult,
  type PrintLineStatus,
} from '@finishline/shared/pure';
import type { Feature } from '../index';
import type { AppContext } from '../../context';
import { AppError, forbidden, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { requireUser } from '../accounts';
import { FILE_NOT_READY_MESSAGE, fulfilmentLine, fulfilmentQueue, moveLine } from './printLines';
import { makePrintBatch } from './printBatch';
import { refundOrderLine } from './refunds';
import { decideReplacement, openReplacementRequests, replacementPhoto } from './replacements';

/** Fulfilment staff, or an operator (who may do anything fulfilment does). */
async function requireFulfilment(ctx: AppContext, request: FastifyRequest) {
  const found = await requireUser(ctx, request);
  if (!found.user.is_fulfilment && !found.user.is_operator) throw forbidden();
  return found;
}

const CSV_HEADER = [
  'Line',
  'Order',
  'Paid at',
  'Age (hours)',
  'Event',
  'BIB',
  'Product',
  'Quantity',
  'Status',
  'File',
  'DPI',
  'Hold reason',
  'Warning',
  'Buyer',
  'Phone',
  'Address',
  'PIN code',
  'Courier',
  'Tracking number',
  'Amount',
  'Refunded',
  'Batch',
];

export const fulfilmentRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.fulfilmentQueue, async (request, reply) => {
    await requireFulfilment(ctx, request);
    const input = await validate(fulfilmentQueueSchema, request.body);
    const result: FulfilmentQueueResult = { lines: await fulfilmentQueue(ctx.db, { status: input.status as PrintLineStatus | 'all', search: input.search }) };
    return sendOk(reply, result);
  });

  app.post(API_ROUTES.fulfilmentLineStatus, async (request, reply) => {
    const { user } = await requireFulfilment(ctx, request);
    const input = await validate(printLineStatusSchema, request.body);
    const line = await moveLine(ctx, { ...input, status: input.status as PrintLineStatus }, user.id, (error) =>
      request.log.warn({ err: error }, 'print status mail not sent yet'),
    );
    return sendOk(reply, line, `The line is ${line.status} now.`);
  });

  // A refund of a bought print or collage line, whole or part (never a download).
  app.post(API_ROUTES.fulfilmentRefund, async (request, reply) => {
    const { user } = await requireFulfilment(ctx, request);
    const input = await validate(printRefundSchema, request.body);
    const { result, message } = await refundOrderLine(ctx, input, user.id, (error) => request.log.warn({ err: error }, 'refund mail not sent yet'));
    return sendOk(reply, result, message);
  });

  app.post(API_ROUTES.fulfilmentReplacements, async (request, reply) => {
    await requireFulfilment(ctx, request);
    return sendOk(reply, await openReplacementRequests(ctx.db));
  });

  app.post(API_ROUTES.fulfilmentReplacementDecide, async (request, reply) => {
    const { user } = await requireFulfilment(ctx, request);
    const input = await validate(replacementDecisionSchema, request.body);
    const line = await decideReplacement(ctx, input, user.id, (error) => request.log.warn({ err: error }, 'replacement mail not sent yet'));
    return sendOk(reply, line, input.approve ? `Replacement approved: line ${line.id} is queued at no charge.` : 'Replacement declined.');
  });

  // The runner's photo of the damage (private).
  app.get(API_ROUTES.fulfilmentReplacementPhoto, async (request, reply) => {
    await requireFulfilment(ctx, request);
    const requestId = Number((request.query as { requestId?: string }).requestId);
    const key = await replacementPhoto(ctx.db, Number.isInteger(requestId) && requestId > 0 ? requestId : 0);
    reply.header('Content-Type', 'image/jpeg').header('Cache-Control', 'no-store');
    return reply.send(await ctx.storage.getStream(key));
  });

  // The print-ready file of one line (private; a fulfilment user downloads it).
  app.get(API_ROUTES.fulfilmentLineFile, async (request, reply) => {
    await requireFulfilment(ctx, request);
    const lineId = Number((request.query as { lineId?: string }).lineId);
    const line = await fulfilmentLine(ctx.db, Number.isInteger(lineId) && lineId > 0 ? lineId : 0);
    const key = (await ctx.db.query<{ file_key: string | null }>('select file_key from print_lines where id = $1', [line.id]))[0]?.file_key;
    if (!key) throw new AppError(409, FILE_NOT_READY_MESSAGE);
    reply
      .header('Content-Type', 'image/jpeg')
      .header('Content-Disposition', `attachment; filename="${line.orderRef}-${line.id}.jpg"`)
      .header('Cache-Control', 'no-store');
    return reply.send(await ctx.storage.getStream(key));
  });

  // A batch for the print shop: the chosen lines' files and a packing list (PDF), in one zip.
  app.post(API_ROUTES.fulfilmentBatch, async (request, reply) => {
    const { user } = await requireFulfilment(ctx, request);
    const input = await validate(printBatchSchema, request.body);
    const batch = await makePrintBatch(ctx, input.lineIds, { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() });
    batch.stream.on('error', (err) => request.log.error({ err, batch: batch.id }, 'print batch zip stream failed'));
    reply
      .header('Content-Type', 'application/zip')
      .header('Content-Length', String(batch.size))
      .header('Content-Disposition', `attachment; filename="${batch.fileName}"`)
      .header('Cache-Control', 'no-store');
    return reply.send(batch.stream);
  });

  app.get(API_ROUTES.fulfilmentExport, async (request, reply) => {
    await requireFulfilment(ctx, request);
    const input = await validate(fulfilmentQueueSchema, request.query);
    const lines = await fulfilmentQueue(ctx.db, { status: input.status as PrintLineStatus | 'all', search: input.search });
    const csv = toCsv(
      CSV_HEADER,
      lines.map((l) => [
        l.id,
        l.orderRef,
        l.paidAt,
        l.ageHours,
        l.eventName,
        l.bibNumber,
        l.product,
        l.quantity,
        l.status,
        l.fileState,
        l.fileDpi,
        l.holdReason,
        l.warning,
        l.buyerName,
        l.phone,
        l.shippingAddress,
        l.pincode,
        l.courier,
        l.trackingNumber,
        l.amount,
        l.refunded,
        l.lastBatch,
      ]),
    );
    reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="print-lines.csv"')
      .header('Cache-Control', 'no-store');
    return reply.send(csv);
  });
};
