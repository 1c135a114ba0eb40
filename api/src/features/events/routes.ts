import { API_ROUTES, eventDetailsSchema, multiEventSchema, type EventDetailsResponse } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { AppError, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { createSession, resolveSession } from '../accounts';
import { COUNTRY_CODES } from './countryCodes';
import { masterConfig } from './masterConfig';
import { eventThemes, eventsByThemeOrYear, findEvent, homePage, listEvents, toDetails, toSummary } from './queries';

/** Event discovery: the autocomplete list, home page, themes, event details and master configuration. */
export const eventRoutes: Feature = async (app, { ctx }) => {
  app.get(API_ROUTES.eventNames, async (_request, reply) => {
    const events = await listEvents(ctx.db);
    return sendOk(reply, { events: events.map((e) => toSummary(e, ctx.storage)), country_codes: COUNTRY_CODES });
  });

  app.get(API_ROUTES.homePage, async (_request, reply) => sendOk(reply, await homePage(ctx.db, ctx.storage)));

  app.get(API_ROUTES.eventThemes, async (_request, reply) => sendOk(reply, await eventThemes(ctx.db)));

  app.post(API_ROUTES.multiEventList, async (request, reply) => {
    const { searchtxt } = await validate(multiEventSchema, request.body);
    const events = await eventsByThemeOrYear(ctx.db, searchtxt);
    return sendOk(
      reply,
      events.map((e) => toSummary(e, ctx.storage)),
    );
  });

  /** The event plus the search session token: the caller's own when valid, else a new anonymous one. */
  app.post(API_ROUTES.eventDetails, async (request, reply) => {
    const input = await validate(eventDetailsSchema, request.body);
    const event = await findEvent(ctx.db, input.eventID);
    if (!event) throw new AppError(400, 'We could not find this event. Please choose an event from the list.');
    const session = await resolveSession(ctx, request);
    const token = session ? session.token : (await createSession(ctx.db, null)).token;
    const result: EventDetailsResponse = { event: toDetails(event, ctx.storage), session_token: token };
    return sendOk(reply, result);
  });

  app.get(API_ROUTES.masterConfig, async (request, reply) => sendOk(reply, await masterConfig(ctx.db, request.ip)));
};
