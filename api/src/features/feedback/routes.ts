import { API_ROUTES, feedbackSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { badRequest, sendOk, unauthorized } from '../../http/envelope';
import { validate } from '../../http/validate';
import { optionalUser } from '../accounts/sessions';
import { normaliseBib } from '../search/privacy';

export const FEEDBACK_MESSAGES = {
  signIn: 'You must log in to perform this action.',
  recorded: 'Thank you. Your feedback has been recorded.',
  notOfBib: 'Some selected photos are not part of this BIB. Please refresh and try again.',
} as const;

/**
 * Record feedback on image: 1 hide, 2 not me. Needs a signed-in user; the photos must belong to the
 * BIB, and the BIB search leaves them out from then on.
 */
export const feedbackRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.recordFeedback, async (request, reply) => {
    const signedIn = await optionalUser(ctx, request);
    if (!signedIn) throw unauthorized(FEEDBACK_MESSAGES.signIn);
    const input = await validate(feedbackSchema, request.body);
    const bib = normaliseBib(input.bibNumber);
    const ids = [...new Set(input.photoids.split(',').map(Number))];
    if (ids.length > 500) throw badRequest('Please report at most 500 photos at once.');
    const found = await ctx.db.query<{ id: number }>(
      `select id from photos where id = any($1::int[]) and bib_number = $2 ${input.eventID ? 'and event_id = $3' : ''}`,
      input.eventID ? [ids, bib, input.eventID] : [ids, bib],
    );
    if (found.length !== ids.length) throw badRequest(FEEDBACK_MESSAGES.notOfBib);
    await ctx.db.transaction(async (tx) => {
      for (const id of ids) {
        await tx.query('insert into photo_feedback (photo_id, bib_number, feedback, user_id) values ($1, $2, $3, $4)', [id, bib, input.usrfeedback, signedIn.user.id]);
      }
    });
    return sendOk(reply, { recorded: ids.length }, FEEDBACK_MESSAGES.recorded);
  });
};
