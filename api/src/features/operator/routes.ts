import { API_ROUTES, organiserRoleSchema, type OrganiserRoleResult } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { requireRole, setRole } from '../accounts';

/** The platform operator's calls: who is an organiser. Operators only (`pnpm admin grant-operator`). */
export const operatorRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.operatorOrganiserRole, async (request, reply) => {
    const input = await validate(organiserRoleSchema, request.body);
    const { user: operator } = await requireRole(ctx, request, 'operator');
    const user = await setRole(ctx.db, input.email, 'organiser', input.grant, { userId: operator.id, via: 'api' });
    const result: OrganiserRoleResult = { userId: user.id, email: user.email, isOrganiser: user.is_organiser };
    return sendOk(reply, result, input.grant ? 'The account is now an organiser.' : 'The account is no longer an organiser.');
  });
};
