import { API_ROUTES, bibSearchSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { resolveSession } from '../accounts/sessions';
import { searchByBib } from './bibSearch';

/** Search event by BIB. The session (bearer or sessionToken) decides privacy-check verification. */
export const searchRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.searchByBib, async (request, reply) => {
    const input = await validate(bibSearchSchema, request.body);
    const session = await resolveSession(ctx, request);
    const result = await searchByBib(ctx, input, { sessionId: session?.id ?? null, userId: session?.userId ?? null });
    return sendOk(reply, result);
  });
};
