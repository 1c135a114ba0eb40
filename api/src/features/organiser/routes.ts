import {
  API_ROUTES,
  createEventSchema,
  decidePartnerRegistrationSchema,
  decideReportSchema,
  deleteFaceDataSchema,
  eventIdSchema,
  courseMapSchema,
  eventLogoSchema,
  eventSwitchSchema,
  organiserDashboardSchema,
  participantsImportSchema,
  participantsSchema,
  partnerRegistrationsSchema,
  photoReportsSchema,
  updateEventSchema,
  type DeleteFaceDataResult,
} from '@finishline/shared/pure';
import type { Feature } from '../index';
import { badRequest, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { requireEventOrganiser, requireRole } from '../accounts';
import { deleteEventFaceData } from '../faces';
import { dashboardEventList, eventDashboard, partnerShares } from './dashboard';
import { createEvent, eventChanges, organiserEvent, publishEvent, recordChange, setCourseMap, setLogo, setSwitch, updateEvent } from './events';
import { decideReport, reportsOfEvent } from './moderation';
import { importParticipants, participantsPage } from './participants';
import { decideRegistration, registrationsOfEvent } from './partnerRegistrations';

/**
 * The organiser's calls. Every one checks on the server that the caller is an organiser, and for an
 * event that they run it (requireEventOrganiser): a runner, a partner or the organiser of another
 * race gets 403, a visitor 401.
 */
export const organiserRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.organiserPartners, async (request, reply) => {
    const input = await validate(partnerRegistrationsSchema, request.body);
    await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await registrationsOfEvent(ctx.db, input.eventId));
  });

  app.post(API_ROUTES.decidePartnerRegistration, async (request, reply) => {
    const input = await validate(decidePartnerRegistrationSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    const registration = await decideRegistration(ctx.db, input, user.id);
    const name = `${registration.firstName} ${registration.lastName}`;
    return sendOk(reply, registration, input.decision === 'approved' ? `${name} is approved for this event.` : `${name}'s registration is rejected.`);
  });

  // The spec's organiser dashboard call: email alone lists the events, with event_id the event's details.
  app.post(API_ROUTES.organiserDashboard, async (request, reply) => {
    const input = await validate(organiserDashboardSchema, request.body);
    if (input.event_id === undefined) {
      const { user } = await requireRole(ctx, request, 'organiser');
      return sendOk(reply, await dashboardEventList(ctx.db, user.id));
    }
    const { user } = await requireEventOrganiser(ctx, request, input.event_id);
    // The funnel counts include this process's searches and carts still queued for writing.
    await ctx.funnel.flush();
    return sendOk(reply, await eventDashboard(ctx.db, user.id, input.event_id));
  });

  // Each photographer's share of the event's sales: every photo sale through the one ledger rule (rules/photoSales.ts).
  app.post(API_ROUTES.organiserPartnerShares, async (request, reply) => {
    const input = await validate(eventIdSchema, request.body);
    await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await partnerShares(ctx.db, input.eventId));
  });

  app.post(API_ROUTES.organiserEvent, async (request, reply) => {
    const input = await validate(eventIdSchema, request.body);
    await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await organiserEvent(ctx, input.eventId));
  });

  app.post(API_ROUTES.organiserCreateEvent, async (request, reply) => {
    const input = await validate(createEventSchema, request.body);
    const { user } = await requireRole(ctx, request, 'organiser');
    return sendOk(reply, await createEvent(ctx, input, user.id), 'The event is saved. It stays hidden until you publish it.');
  });

  app.post(API_ROUTES.organiserUpdateEvent, async (request, reply) => {
    const input = await validate(updateEventSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    const { eventId, ...form } = input;
    return sendOk(reply, await updateEvent(ctx, eventId, form, user.id), 'The event is saved.');
  });

  app.post(API_ROUTES.organiserPublishEvent, async (request, reply) => {
    const input = await validate(eventIdSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await publishEvent(ctx, input.eventId, user.id), 'The event is published: runners find it on the home page.');
  });

  app.post(API_ROUTES.organiserEventSwitch, async (request, reply) => {
    const input = await validate(eventSwitchSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await setSwitch(ctx, input.eventId, input.name, input.on, user.id), 'Saved.');
  });

  app.post(API_ROUTES.organiserEventLogo, async (request, reply) => {
    const input = await validate(eventLogoSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await setLogo(ctx, input.eventId, input.image, user.id), 'The logo is saved.');
  });

  app.post(API_ROUTES.organiserCourseMap, async (request, reply) => {
    const input = await validate(courseMapSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(
      reply,
      await setCourseMap(ctx, input.eventId, input.image, user.id),
      "The course map is saved: it is printed on this race's journey-map collages.",
    );
  });

  app.post(API_ROUTES.organiserEventChanges, async (request, reply) => {
    const input = await validate(eventIdSchema, request.body);
    await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await eventChanges(ctx.db, input.eventId));
  });

  // Privacy law: the event's faces go, selfie search goes off, nothing is indexed again until it is turned on.
  app.post(API_ROUTES.organiserDeleteFaceData, async (request, reply) => {
    const input = await validate(deleteFaceDataSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    const result: DeleteFaceDataResult = await ctx.db.transaction(async (tx) => {
      const rows = await tx.query<{ name: string; selfiesearch: boolean }>('select name, selfiesearch from events where id = $1 for update', [input.eventId]);
      const event = rows[0]!;
      if (event.name.trim().toLowerCase() !== input.confirmName.trim().toLowerCase())
        throw badRequest("Please type the event's name exactly as shown to confirm.");
      const deleted = await deleteEventFaceData(tx, input.eventId);
      if (event.selfiesearch) await recordChange(tx, input.eventId, 'selfiesearch', true, false, user.id);
      await recordChange(tx, input.eventId, 'face data deleted', null, `${deleted.faces} faces of ${deleted.jobs} photos`, user.id);
      return deleted;
    });
    return sendOk(reply, result, `The event's face data is deleted (${result.faces} faces). Search by selfie is off.`);
  });

  app.post(API_ROUTES.organiserParticipants, async (request, reply) => {
    const input = await validate(participantsSchema, request.body);
    await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await participantsPage(ctx.db, input.eventId, input.page, input.search, input.all));
  });

  app.post(API_ROUTES.organiserImportParticipants, async (request, reply) => {
    const input = await validate(participantsImportSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    const result = await importParticipants(ctx.db, input.eventId, input.csv, user.id);
    return sendOk(
      reply,
      result,
      `${result.imported} participants imported${result.replaced > 0 ? ` (they replace the ${result.replaced} imported before)` : ''}.`,
    );
  });

  app.post(API_ROUTES.organiserReports, async (request, reply) => {
    const input = await validate(photoReportsSchema, request.body);
    await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await reportsOfEvent(ctx, input.eventId, input.status ?? 'open'));
  });

  app.post(API_ROUTES.organiserDecideReport, async (request, reply) => {
    const input = await validate(decideReportSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    const report = await decideReport(ctx, input, user.id);
    return sendOk(
      reply,
      report,
      input.decision === 'upheld' ? "Confirmed: the photo has left this BIB's results." : 'Dismissed: the photo stays in the results.',
    );
  });
};
