import { API_ROUTES, faceOptOutSchema, SELFIE_MESSAGES, selfieSearchSchema, type FaceOptOutResult } from '@finishline/shared/pure';
import { normalizeIP } from '@fastify/rate-limit';
import { number, object, string } from 'yup';
import type { Feature } from '../index';
import { envelope, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { addressCounter } from '../../security/addressLimits';
import { addressRules, subjectRules } from '../../security/limits';
import { captchaNeeded, verifyCaptcha } from '../../security/captcha';
import { clearHits, limitReached, recordHit } from '../../security/subjectCounters';
import { faceDetector } from '../../models/faces/detector';
import { faceIndexStatus } from './faceJobs';
import { checkDescriptor, chooseSelfieFace, decodeSelfie, searchBySelfie, WRONG_TYPE_MESSAGE } from './selfieSearch';
import { optOutOfFaceSearch, withdrawOptOut } from './embeddingStore';
import { AppError } from '../../http/envelope';
import { requireUser, resolveSession } from '../accounts';
import { addIndexedEventPhoto } from './devFixtures';
import { loopbackOnly } from '../../security/loopback';

const devPhotoBody = object({
  eventID: number().typeError('eventID must be a number.').integer().positive().required('eventID is required.'),
  image: string().required('image (base64) is required.'),
});

const devDescribeBody = object({ image: string().required('image (base64) is required.') });

const statusQuery = object({ eventId: number().typeError('eventId must be a number.').integer().positive().optional() });

/** Search by selfie and the progress of face indexing. */
export const faceRoutes: Feature = async (app, { ctx }) => {
  const selfiesPerAddress = addressCounter(app, addressRules(ctx.config).selfieSearch);
  app.post(API_ROUTES.searchBySelfie, async (request, reply) => {
    const input = await validate(selfieSearchSchema, request.body);
    const session = await resolveSession(ctx, request);
    // Counted once the image and the event are checked, right before the face detection it pays for:
    // per device session (the address stands in only without one), a captcha past the allowance;
    // the address's own count is a high backstop, since a race's runners share a carrier's addresses.
    const deviceRule = subjectRules.selfieSession(ctx.config, session ? `session:${session.id}` : `address:${normalizeIP(request.ip)}`);
    const countSearch = async () => {
      if (await limitReached(ctx.db, deviceRule)) {
        if (!input.gCaptchToken) throw captchaNeeded(SELFIE_MESSAGES.captchaNeeded, 'standard');
        await verifyCaptcha(ctx, input.gCaptchToken);
        // A solved captcha gives the device a new allowance.
        await clearHits(ctx.db, deviceRule);
      }
      await selfiesPerAddress.hit(request);
      await recordHit(ctx.db, deviceRule);
    };
    const result = await searchBySelfie(ctx, faceDetector(), input, session?.id ?? null, countSearch);
    if (result.photo.length + result.video.length > 0) {
      ctx.funnel.mark(input.eventID, 'search', { sessionId: session?.id ?? null, ip: request.ip });
    }
    // The spec reads awsImageExpary beside result for this call.
    return reply.code(200).send({ ...envelope(result), awsImageExpary: result.awsImageExpary });
  });

  // A signed-in runner asks to be left out of face search: their face's descriptor is kept for that
  // purpose only, their stored faces are deleted, and no face of theirs is stored or matched again.
  app.post(API_ROUTES.faceOptOut, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    const input = await validate(faceOptOutSchema, request.body);
    let descriptor: number[];
    if (input.embedding) descriptor = checkDescriptor(input.embedding);
    else {
      const selfie = decodeSelfie(input.selfieimg ?? '');
      await selfiesPerAddress.hit(request);
      let found;
      try {
        found = await faceDetector().analyse(selfie, 'selfie');
      } catch {
        throw new AppError(400, WRONG_TYPE_MESSAGE);
      }
      descriptor = chooseSelfieFace(found, input.faceBox).descriptor;
    }
    const { removed } = await optOutOfFaceSearch(ctx.db, user.id, descriptor);
    return sendOk<FaceOptOutResult>(
      reply,
      { optedOut: true, removedFaces: removed },
      'You are now left out of face search. Your face will not be matched in any event.',
    );
  });

  app.post(API_ROUTES.faceOptOutWithdraw, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    await withdrawOptOut(ctx.db, user.id);
    return sendOk<FaceOptOutResult>(reply, { optedOut: false, removedFaces: 0 }, 'Face search can find you again in photos indexed from now on.');
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
    // The server's own reading of a selfie (faces, descriptors, quality): the journey that proves the
    // phone's on-device descriptor agrees with the server's compares against it.
    app.post(API_ROUTES.devDescribeFaces, { onRequest: loopbackOnly }, async (request, reply) => {
      const { image } = await validate(devDescribeBody, request.body);
      try {
        return sendOk(reply, await faceDetector().analyse(decodeSelfie(image), 'selfie'));
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError(400, WRONG_TYPE_MESSAGE);
      }
    });
  }
};
