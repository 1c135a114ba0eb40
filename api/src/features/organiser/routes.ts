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
import type { Schema } from 'yup';
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
  /**
   * A call about one event, as most of them are: the body validated, the caller checked to run the
   * event, `work` done with the input and the organiser's user id, and its result sent with `message`
   * (a fixed text, or one made from the result and the input; none: sendOk's default).
   */
  function eventCall<I extends { eventId: number }, R>(
    route: string,
    schema: Schema<I>,
    work: (input: I, organiserId: number) => Promise<R>,
    message?: string | ((result: R, input: I) => string),
  ): void {
    app.post(route, async (request, reply) => {
      const input = await validate(schema, request.body);
      const { user } = await requireEventOrganiser(ctx, request, input.eventId);
      const result = await work(input, user.id);
      return sendOk(reply, result, typeof message === 'function' ? message(result, input) : message);
    });
  }

  eventCall(API_ROUTES.organiserPartners, partnerRegistrationsSchema, (input) => registrationsOfEvent(ctx.db, input.eventId));

  eventCall(
    API_ROUTES.decidePartnerRegistration,
    decidePartnerRegistrationSchema,
    (input, organiserId) => decideRegistration(ctx.db, input, organiserId),
    (registration, input) => {
      const name = `${registration.firstName} ${registration.lastName}`;
      return input.decision === 'approved' ? `${name} is approved for this event.` : `${name}'s registration is rejected.`;
    },
  );

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
  eventCall(API_ROUTES.organiserPartnerShares, eventIdSchema, (input) => partnerShares(ctx.db, input.eventId));

  eventCall(API_ROUTES.organiserEvent, eventIdSchema, (input) => organiserEvent(ctx, input.eventId));

  app.post(API_ROUTES.organiserCreateEvent, async (request, reply) => {
    const input = await validate(createEventSchema, request.body);
    const { user } = await requireRole(ctx, request, 'organiser');
    return sendOk(reply, await createEvent(ctx, input, user.id), 'The event is saved. It stays hidden until you publish it.');
  });

  eventCall(
    API_ROUTES.organiserUpdateEvent,
    updateEventSchema,
    ({ eventId, ...form }, organiserId) => updateEvent(ctx, eventId, form, organiserId),
    'The event is saved.',
  );

  eventCall(
    API_ROUTES.organiserPublishEvent,
    eventIdSchema,
    (input, organiserId) => publishEvent(ctx, input.eventId, organiserId),
    'The event is published: runners find it on the home page.',
  );

  eventCall(
    API_ROUTES.organiserEventSwitch,
    eventSwitchSchema,
    (input, organiserId) => setSwitch(ctx, input.eventId, input.name, input.on, organiserId),
    'Saved.',
  );

  eventCall(
    API_ROUTES.organiserEventLogo,
    eventLogoSchema,
    (input, organiserId) => setLogo(ctx, input.eventId, input.image, organiserId),
    'The logo is saved.',
  );

  eventCall(
    API_ROUTES.organiserCourseMap,
    courseMapSchema,
    (input, organiserId) => setCourseMap(ctx, input.eventId, input.image, organiserId),
    "The course map is saved: it is printed on this race's journey-map collages.",
  );

  eventCall(API_ROUTES.organiserEventChanges, eventIdSchema, (input) => eventChanges(ctx.db, input.eventId));

  // Privacy law: the event's faces go, selfie search goes off, nothing is indexed again until it is turned on.
  eventCall(
    API_ROUTES.organiserDeleteFaceData,
    deleteFaceDataSchema,
    (input, organiserId): Promise<DeleteFaceDataResult> =>
      ctx.db.transaction(async (tx) => {
        const rows = await tx.query<{ name: string; selfiesearch: boolean }>('select name, selfiesearch from events where id = $1 for update', [input.eventId]);
        const event = rows[0]!;
        if (event.name.trim().toLowerCase() !== input.confirmName.trim().toLowerCase())
          throw badRequest("Please type the event's name exactly as shown to confirm.");
        const deleted = await deleteEventFaceData(tx, input.eventId);
        if (event.selfiesearch) await recordChange(tx, input.eventId, 'selfiesearch', true, false, organiserId);
        await recordChange(tx, input.eventId, 'face data deleted', null, `${deleted.faces} faces of ${deleted.jobs} photos`, organiserId);
        return deleted;
      }),
    (result) => `The event's face data is deleted (${result.faces} faces). Search by selfie is off.`,
  );

  eventCall(API_ROUTES.organiserParticipants, participantsSchema, (input) => participantsPage(ctx.db, input.eventId, input.page, input.search, input.all));

  eventCall(
    API_ROUTES.organiserImportParticipants,
    participantsImportSchema,
    (input, organiserId) => importParticipants(ctx.db, input.eventId, input.csv, organiserId),
    (result) => `${result.imported} participants imported${result.replaced > 0 ? ` (they replace the ${result.replaced} imported before)` : ''}.`,
  );

  eventCall(API_ROUTES.organiserReports, photoReportsSchema, (input) => reportsOfEvent(ctx, input.eventId, input.status ?? 'open'));

  eventCall(
    API_ROUTES.organiserDecideReport,
    decideReportSchema,
    (input, organiserId) => decideReport(ctx, input, organiserId),
    (_report, input) => (input.decision === 'upheld' ? "Confirmed: the photo has left this BIB's results." : 'Dismissed: the photo stays in the results.'),
  );
};
