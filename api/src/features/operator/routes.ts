import {
  API_ROUTES,
  organiserRequestDecisionSchema,
  organiserRequestSchema,
  organiserRoleSchema,
  staffRoleSchema,
  ORGANISER_REQUEST_MESSAGES,
  type FulfilmentRoleResult,
  type MyOrganiserRequestResult,
  type OperatorEventsResult,
  type OperatorRequestsResult,
  type OrganiserRoleResult,
  type StaffRole,
  type StaffRoleResult,
} from '@finishline/shared/pure';
import type { Feature } from '../index';
import { sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { requireRole, requireUser, setRole } from '../accounts';
import { askToOrganise, decideOrganiserRequest, myOrganiserRequest, operatorEvents, operatorRequests } from './organiserRequests';

const ROLE_MESSAGES: Record<StaffRole, [granted: string, revoked: string]> = {
  organiser: ['The account is now an organiser.', 'The account is no longer an organiser.'],
  fulfilment: ['The account now works fulfilment.', 'The account no longer works fulfilment.'],
};

/**
 * The platform operator's calls (operators only, `pnpm admin grant-operator`): who is an organiser,
 * who works fulfilment, the "List your race" requests and every event at a glance; and the one call
 * any signed-in account makes here, asking to organise races.
 */
export const operatorRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.operatorOrganiserRole, async (request, reply) => {
    const input = await validate(organiserRoleSchema, request.body);
    const { user: operator } = await requireRole(ctx, request, 'operator');
    const user = await setRole(ctx.db, input.email, 'organiser', input.grant, { userId: operator.id, via: 'api' });
    const result: OrganiserRoleResult = { userId: user.id, email: user.email, isOrganiser: user.is_organiser };
    return sendOk(reply, result, ROLE_MESSAGES.organiser[input.grant ? 0 : 1]);
  });
  // The fulfilment role (print partner or the shop's own staff), granted the same way.
  app.post(API_ROUTES.operatorFulfilmentRole, async (request, reply) => {
    const input = await validate(organiserRoleSchema, request.body);
    const { user: operator } = await requireRole(ctx, request, 'operator');
    const user = await setRole(ctx.db, input.email, 'fulfilment', input.grant, { userId: operator.id, via: 'api' });
    const result: FulfilmentRoleResult = { userId: user.id, email: user.email, isFulfilment: user.is_fulfilment === true };
    return sendOk(reply, result, ROLE_MESSAGES.fulfilment[input.grant ? 0 : 1]);
  });
  // The console's one form for every staff role.
  app.post(API_ROUTES.operatorStaffRole, async (request, reply) => {
    const input = await validate(staffRoleSchema, request.body);
    const { user: operator } = await requireRole(ctx, request, 'operator');
    const role = input.role as StaffRole;
    const user = await setRole(ctx.db, input.email, role, input.grant, { userId: operator.id, via: 'api' });
    const result: StaffRoleResult = { email: user.email, role, granted: input.grant };
    return sendOk(reply, result, ROLE_MESSAGES[role][input.grant ? 0 : 1]);
  });

  app.post(API_ROUTES.organiserRequest, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    const input = await validate(organiserRequestSchema, request.body);
    const saved = await askToOrganise(ctx, user, input, (error) => request.log.warn({ err: error }, 'organiser request mail not sent yet'));
    return sendOk(reply, saved, ORGANISER_REQUEST_MESSAGES.received);
  });
  app.post(API_ROUTES.myOrganiserRequest, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    const result: MyOrganiserRequestResult = { request: await myOrganiserRequest(ctx.db, user.id), isOrganiser: user.is_organiser };
    return sendOk(reply, result);
  });

  app.post(API_ROUTES.operatorOrganiserRequests, async (request, reply) => {
    await requireRole(ctx, request, 'operator');
    const result: OperatorRequestsResult = await operatorRequests(ctx.db);
    return sendOk(reply, result);
  });
  app.post(API_ROUTES.operatorDecideOrganiserRequest, async (request, reply) => {
    const { user: operator } = await requireRole(ctx, request, 'operator');
    const input = await validate(organiserRequestDecisionSchema, request.body);
    const decided = await decideOrganiserRequest(ctx, input, operator.id, (error) => request.log.warn({ err: error }, 'organiser request mail not sent yet'));
    return sendOk(reply, decided, input.approve ? `Approved: ${decided.accountEmail} now organises races.` : 'Declined: the reason is mailed.');
  });
  app.post(API_ROUTES.operatorEvents, async (request, reply) => {
    await requireRole(ctx, request, 'operator');
    const result: OperatorEventsResult = { events: await operatorEvents(ctx.db) };
    return sendOk(reply, result);
  });
};
