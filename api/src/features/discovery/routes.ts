import { API_ROUTES, bibAvailabilitySchema, paginatePhotosSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { readForm } from '../../http/multipart';
import { findSession, resolveSession } from '../accounts';
import { bibAvailability, paginatePhotos } from './queries';
import { routeLimit } from '../../security/addressLimits';
import { addressRules } from '../../security/limits';

/** Advanced search (several event + BIB pairs at once) and paginated photos (unlabeled). */
export const discoveryRoutes: Feature = async (app, { ctx }) => {
  // Like BIB search, each route counted per client address on its own: walking BIBs or pages stays slow.
  const perAddress = () => ({ config: routeLimit(addressRules(ctx.config).photoSearch) });
  app.post(API_ROUTES.bibAvailability, perAddress(), async (request, reply) => {
    const { entries } = await validate(bibAvailabilitySchema, request.body);
    return sendOk(reply, await bibAvailability(ctx.db, entries));
  });

  app.post(API_ROUTES.paginatePhotos, perAddress(), async (request, reply) => {
    const input = await validate(paginatePhotosSchema, (await readForm(request)).fields);
    // The session comes from the bearer header or, as in the spec's form, the _token field.
    const session = (await resolveSession(ctx, request)) ?? (input._token ? await findSession(ctx.db, input._token) : null);
    return sendOk(reply, await paginatePhotos(ctx, input, session?.id ?? null, session?.userId ?? null));
  });
};
