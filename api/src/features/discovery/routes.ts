import type { FastifyRequest } from 'fastify';
import { API_ROUTES, bibAvailabilitySchema, paginatePhotosSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { findSession, resolveSession } from '../accounts/sessions';
import { bibAvailability, paginatePhotos } from './queries';

/** The fields of a multipart form (the paginate call is sent as multipart, like the spec's). */
async function formFields(request: FastifyRequest): Promise<Record<string, string>> {
  if (!request.isMultipart()) return (request.body ?? {}) as Record<string, string>;
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'field') fields[part.fieldname] = String(part.value);
    else part.file.resume(); // no files expected: drain and ignore
  }
  return fields;
}

/** Advanced search (several event + BIB pairs at once) and paginated photos (unlabeled). */
export const discoveryRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.bibAvailability, async (request, reply) => {
    const { entries } = await validate(bibAvailabilitySchema, request.body);
    return sendOk(reply, await bibAvailability(ctx.db, entries));
  });

  app.post(API_ROUTES.paginatePhotos, async (request, reply) => {
    const input = await validate(paginatePhotosSchema, await formFields(request));
    // The session comes from the bearer header or, as in the spec's form, the _token field.
    const session = (await resolveSession(ctx, request)) ?? (input._token ? await findSession(ctx.db, input._token) : null);
    return sendOk(reply, await paginatePhotos(ctx, input, session?.id ?? null, session?.userId ?? null));
  });
};
