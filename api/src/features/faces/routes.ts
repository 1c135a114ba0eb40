import { API_ROUTES, selfieSearchSchema } from '@finishline/shared/pure';
import { number, object, string } from 'yup';
import type { Feature } from '../index';
import { envelope, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { hitRateLimit } from '../../security/rateLimit';
import { faceDetector } from './detector';
import { faceIndexStatus } from './indexer';
import { searchBySelfie } from './selfieSearch';
import { resolveSession } from '../accounts/sessions';
import { addIndexedEventPhoto } from './devFixtures';
import { loopbackOnly } from '../../security/loopback';

/** Selfies per address in the window: each one costs a face detection on the server. */
export const SELFIE_RATE_LIMIT = { limit: 10, windowSeconds: 600 };
export const SELFIE_RATE_MESSAGE = 'Too many selfie searches. Please wait a few minutes and try again.';

const devPhotoBody = object({
  eventID: number().typeError('eventID must be a number.').integer().positive().required('eventID is required.'),
  image: string().required('image (base64) is required.'),
});

const statusQuery = object({ eventId: number().typeError('eventId must be a number.').integer().positive().optional() });

/** Search by selfie and the progress of face indexing. */
export const faceRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.searchBySelfie, async (request, reply) => {
    await hitRateLimit(ctx.db, {
      bucket: `selfie:ip:${request.ip}`,
      limit: SELFIE_RATE_LIMIT.limit,
      windowSeconds: SELFIE_RATE_LIMIT.windowSeconds,
      message: SELFIE_RATE_MESSAGE,
    });
    const input = await validate(selfieSearchSchema, request.body);
    const session = await resolveSession(ctx, request);
    const result = await searchBySelfie(ctx, faceDetector(), input, session?.id ?? null);
    // The spec reads awsImageExpary beside result for this call.
    return reply.code(200).send({ ...envelope(result), awsImageExpary: result.awsImageExpary });
  });

  app.get(API_ROUTES.faceIndexStatus, async (request, reply) => {
    const { eventId } = await validate(statusQuery, request.query);
    return sendOk(reply, await faceIndexStatus(ctx.db, eventId ?? null));
  });

  // Development pages only (never with SMTP mail, DEV_PAGES=false or in production; loopback only): add an indexed photo.
  if (ctx.mailer.outboxDir && ctx.config.security.devPages) {
    app.post(API_ROUTES.devEventPhoto, { onRequest: loopbackOnly }, async (request, reply) => {
      const { eventID, image } = await validate(devPhotoBody, request.body);
      return sendOk(reply, await addIndexedEventPhoto(ctx, eventID, Buffer.from(image.replace(/^data:[^,]*,/, ''), 'base64')));
    });
  }
};
