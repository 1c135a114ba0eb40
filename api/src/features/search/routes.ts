import { API_ROUTES, bibSearchSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { resolveSession } from '../accounts';
import { searchByBib } from './bibSearch';
import { routeLimit } from '../../security/addressLimits';
import { addressRules } from '../../security/limits';

/**
 * Search event by BIB. The session (bearer or sessionToken) decides privacy-check verification. Limited
 * per client address: a script must not walk every BIB of an event and collect every runner's photos.
 */
export const searchRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.searchByBib, { config: routeLimit(addressRules(ctx.config).photoSearch) }, async (request, reply) => {
    const input = await validate(bibSearchSchema, request.body);
    const session = await resolveSession(ctx, request);
    const result = await searchByBib(ctx, input, { sessionId: session?.id ?? null, userId: session?.userId ?? null });
    ctx.funnel.mark(input.eventID, 'search', { sessionId: session?.id ?? null, ip: request.ip });
    return sendOk(reply, result);
  });
};
