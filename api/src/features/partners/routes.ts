import {
  API_ROUTES,
  partnerEventsSchema,
  partnerLookupSchema,
  partnerShareSchema,
  recordPartnerPayoutSchema,
  registerPartnerSchema,
} from '@finishline/shared/pure';
import type { Feature } from '../index';
import { envelope, forbidden, sendOk } from '../../http/envelope';
import { storeAnswerWithin } from '../../http/idempotency';
import { validate } from '../../http/validate';
import { requireApprovedPartner, requireEventOrganiser, requireRole, requireUser } from '../accounts';
import { lookupPartner, partnerEventOptions, registerPartner } from './profiles';
import { partnerShare, recordPayout } from './share';

/**
 * The photographer's calls. Registration is open to every signed-in account (registering is how one
 * becomes a partner); My Share needs the partner role, and for one event an approved registration
 * (requireApprovedPartner). Everything is read for the session's own account: no call takes another
 * partner's id, so nobody sees another partner's bank details or earnings. Payouts are recorded by
 * the event's organiser.
 */
export const partnerRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.partnerEvents, async (request, reply) => {
    const input = await validate(partnerEventsSchema, request.body);
    await requireUser(ctx, request);
    return sendOk(reply, await partnerEventOptions(ctx.db, input.search));
  });

  app.post(API_ROUTES.partnerLookup, async (request, reply) => {
    const input = await validate(partnerLookupSchema, request.body);
    const { user } = await requireUser(ctx, request);
    return sendOk(reply, await lookupPartner(ctx.db, user, input.eventId));
  });

  app.post(API_ROUTES.registerPartner, async (request, reply) => {
    const input = await validate(registerPartnerSchema, request.body);
    const { user } = await requireUser(ctx, request);
    // The answer commits with the registration: a retry after this instance died past the commit
    // gets the welcome, not "You are already registered" (http/idempotency.ts).
    const { result, message } = await registerPartner(ctx.db, ctx.config.partnerDataKey, user, input, (tx, answer) =>
      storeAnswerWithin(tx, request, envelope(answer.result, answer.message)),
    );
    return sendOk(reply, result, message);
  });

  // Spec: the share call sends the stored email as userid; it must be the caller's own.
  app.post(API_ROUTES.partnerShare, async (request, reply) => {
    const input = await validate(partnerShareSchema, request.body);
    const { user } = input.eventId === undefined ? await requireRole(ctx, request, 'partner') : await requireApprovedPartner(ctx, request, input.eventId);
    if (input.userid && input.userid.toLowerCase() !== user.email.toLowerCase()) throw forbidden();
    return sendOk(reply, await partnerShare(ctx.db, user.id, input.eventId ?? null));
  });

  app.post(API_ROUTES.recordPartnerPayout, async (request, reply) => {
    const input = await validate(recordPartnerPayoutSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await recordPayout(ctx.db, input, user.id), 'The payout is recorded.');
  });
};
