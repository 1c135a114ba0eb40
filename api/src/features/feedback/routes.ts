import { API_ROUTES, feedbackSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import type { Db } from '../../db/db';
import { AppError, badRequest, sendOk, unauthorized } from '../../http/envelope';
import { validate } from '../../http/validate';
import { optionalUser, type UserRow } from '../accounts';
import { accountOwnsOrderSql } from '../orders';
import { isBibVerified, normaliseBib } from '../../rules/privacy';

export const FEEDBACK_MESSAGES = {
  signIn: 'You must log in to perform this action.',
  recorded: 'Thank you. Your feedback has been recorded.',
  reported: 'Thank you. Your report has been sent to the organiser; these photos are hidden for you meanwhile.',
  undone: 'Done. The photos are back.',
  notOfBib: 'Some selected photos are not part of this BIB. Please refresh and try again.',
  notOwner: 'Only the runner of this BIB can hide its photos: verify the BIB with the OTP, or sign in with the account that bought its photos.',
} as const;

export const HIDE = 1;
export const NOT_ME = 2;

/**
 * The BIB's owner: this signed-in session verified the BIB by OTP, or the account owns a paid order
 * (or a pre-order mapped) for it, by the order history's rule: an order placed with its address by
 * someone not signed in counts only once the account proved the address. Only the owner's Hide
 * changes what everyone sees.
 */
async function isBibOwner(
  db: Db,
  user: Pick<UserRow, 'id' | 'email' | 'email_verified_at'>,
  sessionId: number,
  eventId: number,
  bib: string,
): Promise<boolean> {
  if (await isBibVerified(db, sessionId, eventId, bib)) return true;
  const rows = await db.query(
    `select 1 from orders o where o.event_id = $1 and o.bib_number = $2 and o.status in ('Paid', 'Downloaded')
        and ${accountOwnsOrderSql('o', '$3', '$4', '$5')} limit 1`,
    [eventId, bib, user.id, user.email, user.email_verified_at !== null],
  );
  return rows.length > 0;
}

/**
 * Record feedback on image: 1 hide (the BIB's owner hides photos from the BIB's results), 2 not me
 * (a report for the organiser; the reporter stops seeing the photos at once). With undo, the
 * author takes back their own hide or report.
 */
export const feedbackRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.recordFeedback, async (request, reply) => {
    const signedIn = await optionalUser(ctx, request);
    if (!signedIn) throw unauthorized(FEEDBACK_MESSAGES.signIn);
    const input = await validate(feedbackSchema, request.body);
    const bib = normaliseBib(input.bibNumber);
    const ids = [...new Set(input.photoids.split(',').map(Number))];
    if (ids.length > 500) throw badRequest('Please report at most 500 photos at once.');
    const found = await ctx.db.query<{ id: number; event_id: number }>(
      `select photo_id as id, event_id from photo_bibs where photo_id = any($1::int[]) and bib_number = $2 ${input.eventID ? 'and event_id = $3' : ''}`,
      input.eventID ? [ids, bib, input.eventID] : [ids, bib],
    );
    const eventIds = new Set(found.map((r) => r.event_id));
    if (found.length !== ids.length || eventIds.size !== 1) throw badRequest(FEEDBACK_MESSAGES.notOfBib);
    const eventId = found[0].event_id;
    const userId = signedIn.user.id;

    if (input.undo) {
      if (input.usrfeedback === HIDE) {
        await ctx.db.query('delete from photo_feedback where photo_id = any($1::int[]) and bib_number = $2 and feedback = 1 and user_id = $3', [
          ids,
          bib,
          userId,
        ]);
      } else {
        await ctx.db.query('update photo_reports set withdrawn_at = now() where photo_id = any($1::int[]) and reporter_user_id = $2 and withdrawn_at is null', [
          ids,
          userId,
        ]);
      }
      return sendOk(reply, { recorded: ids.length }, FEEDBACK_MESSAGES.undone);
    }

    if (input.usrfeedback === HIDE) {
      if (!(await isBibOwner(ctx.db, signedIn.user, signedIn.session.id, eventId, bib))) throw new AppError(403, FEEDBACK_MESSAGES.notOwner);
      await ctx.db.transaction(async (tx) => {
        for (const id of ids) {
          await tx.query(
            `insert into photo_feedback (photo_id, bib_number, feedback, user_id) select $1, $2, 1, $3
              where not exists (select 1 from photo_feedback where photo_id = $1 and bib_number = $2 and feedback = 1 and user_id = $3)`,
            [id, bib, userId],
          );
        }
      });
      return sendOk(reply, { recorded: ids.length }, FEEDBACK_MESSAGES.recorded);
    }

    await ctx.db.transaction(async (tx) => {
      for (const id of ids) {
        await tx.query(`insert into photo_reports (photo_id, event_id, bib_number, reporter_user_id) values ($1, $2, $3, $4) on conflict do nothing`, [
          id,
          eventId,
          bib,
          userId,
        ]);
      }
    });
    return sendOk(reply, { recorded: ids.length }, FEEDBACK_MESSAGES.reported);
  });
};
