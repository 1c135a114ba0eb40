import { API_ROUTES, organiserRoleSchema, type FulfilmentRoleResult, type OrganiserRoleResult } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { requireRole, setRole } from '../accounts';

/** The platform operator's calls: who is an organiser, who works fulfilment. Operators only (`pnpm admin grant-operator`). */
export const operatorRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.operatorOrganiserRole, async (request, reply) => {
    const input = await validate(organiserRoleSchema, request.body);
    const { user: operator } = await requireRole(ctx, request, 'operator');
    const user = await setRole(ctx.db, input.email, 'organiser', input.grant, { userId: operator.id, via: 'api' });
    const result: OrganiserRoleResult = { userId: user.id, email: user.email, isOrganiser: user.is_organiser };
    return sendOk(reply, result, input.grant ? 'The account is now an organiser.' : 'The account is no longer an organiser.');
  });
  // The fulfilment role (print partner or the shop's own staff), granted the same way.
  app.post(API_ROUTES.operatorFulfilmentRole, async (request, reply) => {
    const input = await validate(organiserRoleSchema, request.body);
    const { user: operator } = await requireRole(ctx, request, 'operator');
    const user = await setRole(ctx.db, input.email, 'fulfilment', input.grant, { userId: operator.id, via: 'api' });
    const result: FulfilmentRoleResult = { userId: user.id, email: user.email, isFulfilment: user.is_fulfilment === true };
    return sendOk(reply, result, input.grant ? 'The account now works fulfilment.' : 'The account no longer works fulfilment.');
  });
};
