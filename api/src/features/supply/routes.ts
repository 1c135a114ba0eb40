import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_ROUTES, photoIdSchema, setPhotoBibsSchema, supplyPhotosSchema, SUPPLY_MESSAGES, type SupplyPhotoStatus } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { badRequest, forbidden, notFound, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { acquireJobQueue, type JobQueue } from '../../queue/jobQueue';
import { requireApprovedPartner, requireUser } from '../accounts';
import { definePhotoQueue } from '../../queue/queues';
import { approvedEventsOf, ownPhoto, photosOf, setPhotoBibs } from './review';
import { deleteStoredPhoto, type StoredPhotoKeys } from './storedFiles';
import { defineVideoQueue } from '../../queue/queues';
import { registerVideoRoutes } from './videoRoutes';
import { checkedUploaders, createTusServer, parseUploadMetadata, STAGED_SWEEP_MS } from './uploads';

/**
 * The photographer's supply line: tus uploads and the review of their own photos. Every call needs
 * a signed-in partner approved for the event by its organiser (requireApprovedPartner), checked
 * again on every chunk of an upload: an approval withdrawn mid-batch stops the rest.
 */
export const supplyRoutes: Feature = async (app, { ctx }) => {
  let queue: Promise<{ queue: JobQueue; release: () => Promise<void> }> | null = null;
  const jobQueue = async () => {
    queue ??= acquireJobQueue(ctx.db, undefined, { monitorSeconds: ctx.config.jobs.monitorSeconds }).then(async (acquired) => {
      await definePhotoQueue(acquired.queue);
      await defineVideoQueue(acquired.queue);
      return acquired;
    });
    return (await queue).queue;
  };
  app.addHook('onClose', async () => {
    await (await queue?.catch(() => null))?.release();
  });

  const { server: tus, staged } = createTusServer(ctx, jobQueue);
  const { store } = staged;
  // Unfinished uploads are refused after their expiry; their staged bytes are cleared too.
  const sweep = () =>
    staged
      .sweep()
      .then((removed) => removed > 0 && app.log.info(`supply: cleared ${removed} unfinished upload(s) past their expiry`))
      .catch((error: unknown) => app.log.warn(`supply: clearing unfinished uploads failed: ${error instanceof Error ? error.message : String(error)}`));
  const sweepTimer = setInterval(sweep, STAGED_SWEEP_MS);
  sweepTimer.unref();
  app.addHook('onReady', async () => void sweep());
  app.addHook('onClose', async () => clearInterval(sweepTimer));

  /** Who may create (POST) or continue (HEAD, PATCH) this upload; throws 401/403/404 as the JSON envelope. */
  async function uploaderOf(request: FastifyRequest): Promise<number> {
    const { user } = await requireUser(ctx, request);
    if (!user.is_partner) throw forbidden();
    if (request.method === 'POST') {
      const eventId = Number(parseUploadMetadata(request.headers['upload-metadata'] as string | undefined).eventId);
      if (!Number.isInteger(eventId) || eventId <= 0) throw badRequest(SUPPLY_MESSAGES.chooseEvent);
      await requireApprovedPartner(ctx, request, eventId);
      return user.id;
    }
    const id = (request.params as { '*': string })['*'];
    const upload = await store.getUpload(id).catch((error: unknown) => {
      request.log.info({ err: error, upload: id }, 'supply: an upload could not be read (expired, forgotten or never made)');
      return null;
    });
    if (!upload) throw notFound('This upload is not known. Please add the file again.');
    if (upload.metadata?.uploader !== String(user.id)) throw forbidden('This upload is not one of yours.');
    await requireApprovedPartner(ctx, request, Number(upload.metadata?.eventId));
    return user.id;
  }

  // tus reads the request body itself: Fastify must leave the chunk's stream unread.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const handleTus = async (request: FastifyRequest, reply: FastifyReply) => {
    checkedUploaders.set(request.raw, await uploaderOf(request));
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  // Preflights are answered by the CORS layer (OPTIONS *) like every other route's.
  app.route({ method: 'POST', url: API_ROUTES.partnerUploads, handler: handleTus });
  // DELETE: the photographer forgets an interrupted upload (tus termination), freeing its staged bytes.
  app.route({ method: ['HEAD', 'PATCH', 'DELETE'], url: `${API_ROUTES.partnerUploads}/*`, handler: handleTus });

  registerVideoRoutes(app, ctx, jobQueue);

  app.get(API_ROUTES.partnerSupplyEvents, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    if (!user.is_partner) throw forbidden();
    return sendOk(reply, await approvedEventsOf(ctx, user.id));
  });

  app.post(API_ROUTES.partnerPhotos, async (request, reply) => {
    const input = await validate(supplyPhotosSchema, request.body);
    const { user } = await requireApprovedPartner(ctx, request, input.eventId);
    return sendOk(
      reply,
      await photosOf(ctx, user.id, input.eventId, { page: input.page, perPage: input.perPage, status: input.status as SupplyPhotoStatus | 'all' }),
    );
  });

  app.post(API_ROUTES.partnerPhotoBibs, async (request, reply) => {
    const input = await validate(setPhotoBibsSchema, request.body);
    const { user } = await requireUser(ctx, request);
    const photo = await ownPhoto(ctx, user.id, input.photoId);
    await requireApprovedPartner(ctx, request, photo.event_id);
    if (photo.status !== 'ready') throw badRequest('BIBs can be set once the photo is processed.');
    const updated = await setPhotoBibs(ctx, photo, input.bibs);
    return sendOk(
      reply,
      updated,
      updated.bibs.length > 0
        ? `Photo ${updated.imageId} is found under ${updated.bibs.map((b) => b.bibNumber).join(', ')}.`
        : `Photo ${updated.imageId} is now unlabeled.`,
    );
  });

  app.post(API_ROUTES.partnerRemovePhoto, async (request, reply) => {
    const input = await validate(photoIdSchema, request.body);
    const { user } = await requireUser(ctx, request);
    const photo = await ownPhoto(ctx, user.id, input.photoId);
    await requireApprovedPartner(ctx, request, photo.event_id);
    if (photo.sold) throw badRequest(SUPPLY_MESSAGES.sold);
    const [gone] = await ctx.db.query<StoredPhotoKeys>(
      'delete from photos where id = $1 and partner_user_id = $2 returning original_key, preview_key, thumb_key',
      [photo.id, user.id],
    );
    if (gone) await deleteStoredPhoto(ctx, gone, (message) => app.log.warn(message));
    return sendOk(reply, { removed: photo.id }, `Photo ${photo.image_id} is removed.`);
  });
};
