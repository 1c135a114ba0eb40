import path from 'node:path';
import { number, object, string } from 'yup';
import { API_ROUTES, type PreauthParams } from '@finishline/shared/pure';
import type { FastifyRequest } from 'fastify';
import type { Feature } from '../index';
import type { AppContext } from '../../context';
import { AppError, badRequest, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { hmac, safeEqual } from '../../security/tokens';
import { DOWNLOADS_EXPIRED_MESSAGE, downloadUntil, findOrderByRef, isPaidStatus, orderForCaller, purchasedMedia, type OrderRow } from '../orders';
import { timedCertificates } from '../certificates';
import { ensureOriginalsClean } from '../supply';
import { storedZip, type ZipEntry } from '../../media/storedZip';

/** A download link is short-lived: the browser follows it at once. */
const LINK_MINUTES = 10;
const NOT_PAID_MESSAGE = 'This order is not paid yet, so there is nothing to download.';
const LINK_EXPIRED_MESSAGE = 'This download link has expired. Please press Download again.';
const ULTRA_PACK = 'b_ultraprem';
const MISSING_FILE_MESSAGE = 'A file of this order is missing from our storage. Please contact support for help.';
/** How many objects' sizes are asked for at once before a zip starts. */
const STAT_CONCURRENCY = 8;

const preauthSchema = object({ orderref: string().required(), e: string().required(), lt: string().required(), h: string().required() })
  .default(undefined)
  .optional();
const orderSchema = object({
  orderID: string().trim().required('Please give the order reference.').max(40),
  bibNumber: string().trim().max(32).optional(),
  preauth: preauthSchema,
});
const imageSchema = orderSchema.shape({ imageID: number().typeError('Please choose an image.').integer().positive().required('Please choose an image.') });

const signed = (ctx: AppContext, what: string, exp: number) => hmac(ctx.config.signingSecret, `download|${what}|${exp}`);

function signedLink(ctx: AppContext, what: string): string {
  const exp = Math.floor(Date.now() / 1000) + LINK_MINUTES * 60;
  return `${ctx.config.publicApiUrl}${API_ROUTES.downloadFile}/${what}?exp=${exp}&sig=${signed(ctx, what, exp)}`;
}

function checkLink(ctx: AppContext, what: string, query: unknown): void {
  const { exp, sig } = (query ?? {}) as { exp?: string; sig?: string };
  if (!exp || !sig || !/^\d+$/.test(exp) || !safeEqual(signed(ctx, what, Number(exp)), sig)) throw new AppError(403, 'This download link is not valid.');
  if (Number(exp) * 1000 < Date.now()) throw new AppError(410, LINK_EXPIRED_MESSAGE);
}

/** Paid (or downloaded) and inside the 30-day window, else a clear refusal. */
function assertDownloadable(order: OrderRow): void {
  if (!isPaidStatus(order.status) || !order.paid_at) throw new AppError(409, NOT_PAID_MESSAGE);
  if (downloadUntil(new Date(order.paid_at)).getTime() < Date.now()) throw new AppError(410, DOWNLOADS_EXPIRED_MESSAGE);
}

/** The first download marks the order Downloaded (once; later downloads leave it so). */
async function markDownloaded(ctx: AppContext, order: OrderRow): Promise<void> {
  await ctx.db.query(`update orders set status = 'Downloaded', first_download_at = now() where id = $1 and status = 'Paid'`, [order.id]);
}

async function callerOrder(ctx: AppContext, request: FastifyRequest, input: { orderID: string; preauth?: Partial<PreauthParams> }) {
  const order = await orderForCaller(ctx, request, input.orderID, input.preauth ?? null);
  assertDownloadable(order);
  return order;
}

const fileName = (imageId: string, key: string) => `${imageId.replace(/[^A-Za-z0-9._-]/g, '_')}${path.extname(key) || '.jpg'}`;
const contentTypeOf = (key: string) =>
  ({ '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.mp4': 'video/mp4', '.webm': 'video/webm' })[
    path.extname(key).toLowerCase()
  ] ?? 'application/octet-stream';

/**
 * Download order zip, single image and video downloads. The POST calls check the caller (owner or
 * pre-authorised link) and answer with a short-lived signed link; the GET behind that link streams
 * the originals, which the API serves only for a paid order's items.
 */
export const downloadRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.downloadOrder, async (request, reply) => {
    const input = await validate(orderSchema, request.body);
    const order = await callerOrder(ctx, request, input);
    if ((await purchasedMedia(ctx.db, order)).length === 0) throw badRequest('This order holds no digital downloads.');
    await markDownloaded(ctx, order);
    return sendOk(reply, signedLink(ctx, `zip/${order.order_ref}`));
  });

  app.post(API_ROUTES.downloadImage, async (request, reply) => {
    const input = await validate(imageSchema, request.body);
    const order = await callerOrder(ctx, request, input);
    const media = await purchasedMedia(ctx.db, order);
    if (!media.some((m) => m.id === input.imageID)) throw new AppError(403, 'This photo is not part of your order.');
    await markDownloaded(ctx, order);
    return sendOk(reply, signedLink(ctx, `item/${order.order_ref}/${input.imageID}`));
  });

  app.get(`${API_ROUTES.downloadFile}/item/:orderRef/:photoId`, async (request, reply) => {
    const { orderRef, photoId } = request.params as { orderRef: string; photoId: string };
    checkLink(ctx, `item/${orderRef}/${photoId}`, request.query);
    const order = await findOrderByRef(ctx.db, orderRef);
    if (!order) throw new AppError(404, 'We could not find this order.');
    assertDownloadable(order);
    const item = (await purchasedMedia(ctx.db, order)).find((m) => m.id === Number(photoId));
    if (!item) throw new AppError(403, 'This photo is not part of your order.');
    // An original stored before originals were cleaned on arrival is cleaned before it leaves.
    await ensureOriginalsClean(ctx, [item.id], (message) => request.log.warn(message));
    const stat = await ctx.storage.stat(item.original_key);
    if (!stat) throw new AppError(500, MISSING_FILE_MESSAGE);
    const stream = await ctx.storage.getStream(item.original_key);
    return reply
      .header('content-type', contentTypeOf(item.original_key))
      .header('content-length', String(stat.size))
      .header('content-disposition', `attachment; filename="${fileName(item.image_id, item.original_key)}"`)
      .header('cache-control', 'private, no-store')
      .send(stream);
  });

  app.get(`${API_ROUTES.downloadFile}/zip/:orderRef`, async (request, reply) => {
    const { orderRef } = request.params as { orderRef: string };
    checkLink(ctx, `zip/${orderRef}`, request.query);
    const order = await findOrderByRef(ctx.db, orderRef);
    if (!order) throw new AppError(404, 'We could not find this order.');
    assertDownloadable(order);
    const media = await purchasedMedia(ctx.db, order);
    // Originals stored before they were cleaned on arrival are cleaned before the sizes are taken.
    await ensureOriginalsClean(
      ctx,
      media.map((m) => m.id),
      (message) => request.log.warn(message),
    );
    const certs = order.bundle === ULTRA_PACK ? await timedCertificates(ctx, order, media.find((m) => m.kind === 'image')?.original_key ?? null) : [];
    // The sizes first (metadata only, no object opened): they make the exact Content-Length.
    const sizes = await mapLimited(media, STAT_CONCURRENCY, async (m) => {
      const stat = await ctx.storage.stat(m.original_key);
      if (!stat) {
        request.log.error({ key: m.original_key, order: order.order_ref }, 'original missing from storage');
        throw new AppError(500, MISSING_FILE_MESSAGE);
      }
      return stat.size;
    });
    const modifiedAt = new Date(order.paid_at!);
    const names = new Set<string>();
    const entries: ZipEntry[] = [
      ...media.map((m, i): ZipEntry => ({
        name: uniqueName(names, `${m.kind === 'video' ? 'videos' : 'photos'}/${fileName(m.image_id, m.original_key)}`),
        modifiedAt,
        size: sizes[i]!,
        open: () => ctx.storage.getStream(m.original_key),
      })),
      ...certs.map((cert): ZipEntry => ({ name: uniqueName(names, `certs/${cert.name}`), modifiedAt, data: cert.data })),
    ];
    const zip = storedZip(entries);
    // A source failing mid-way destroys the stream, and Fastify then destroys the connection: the
    // browser sees a failed download (fewer bytes than Content-Length), never a short zip with 200.
    zip.stream.on('error', (err) => request.log.error({ err, order: order.order_ref }, 'zip stream failed'));
    return reply
      .header('content-type', 'application/zip')
      .header('content-length', String(zip.size))
      .header('content-disposition', `attachment; filename="${order.order_ref}.zip"`)
      .header('cache-control', 'private, no-store')
      .send(zip.stream);
  });
};

/** name, or name with " (2)", " (3)"... before its extension when the zip already holds it. */
function uniqueName(taken: Set<string>, name: string): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = name.replace(/(\.[^./]*)?$/, ` (${n})$1`);
  taken.add(candidate);
  return candidate;
}

/** fn over items, at most limit at a time, results in order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
