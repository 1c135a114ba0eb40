import type { FastifyRequest } from 'fastify';
import { achievementsSearchSchema, API_ROUTES, certificateAchievementSchema, templateDetailsSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import type { AppContext } from '../../context';
import { sendOk, unauthorized } from '../../http/envelope';
import { readForm } from '../../http/multipart';
import { validate } from '../../http/validate';
import { routeLimit } from '../../security/addressLimits';
import { addressRules } from '../../security/limits';
import { findSession, resolveSession } from '../accounts';
import { searchAchievements, templateDetails } from './builder';
import type { RunCaller } from './runs';
import { recordCertificateDownload, storeCertificate, UPLOADED_MESSAGE } from './upload';

const NO_SESSION = 'Your search session has expired. Please search for your photos again.';

/**
 * The builder's calls belong to a search session: the visitor's (from choosing an event) or a
 * signed-in one, sent as the bearer or the form's _token. What a session searched, chose and uploaded
 * is its own (certificate_runs); no other session can go on with it.
 */
async function callerOf(ctx: AppContext, request: FastifyRequest, fields: Record<string, unknown>): Promise<RunCaller> {
  const session = (await resolveSession(ctx, request)) ?? (typeof fields._token === 'string' && fields._token ? await findSession(ctx.db, fields._token) : null);
  if (!session) throw unauthorized(NO_SESSION);
  return { sessionId: session.id, userId: session.userId };
}

/** Achievements search, template details, the certificate upload and the record of its download. */
export const certificateRoutes: Feature = async (app, { ctx }) => {
  // Counted per client address like the BIB search: walking BIBs through the builder stays slow too.
  const perAddress = () => ({ config: routeLimit(addressRules(ctx.config).photoSearch) });

  app.post(API_ROUTES.achievementsSearch, perAddress(), async (request, reply) => {
    const { fields } = await readForm(request);
    const input = await validate(achievementsSearchSchema, fields);
    return sendOk(reply, await searchAchievements(ctx, input, await callerOf(ctx, request, fields)));
  });

  app.post(API_ROUTES.certificateTemplate, perAddress(), async (request, reply) => {
    const { fields } = await readForm(request);
    const input = await validate(templateDetailsSchema, fields);
    return sendOk(reply, await templateDetails(ctx, input, await callerOf(ctx, request, fields)));
  });

  app.post(API_ROUTES.certificateUpload, perAddress(), async (request, reply) => {
    const { fields, files } = await readForm(request, ['certificate_url']);
    const input = await validate(certificateAchievementSchema, fields);
    const caller = await callerOf(ctx, request, fields);
    return sendOk(reply, await storeCertificate(ctx, input.achievement_id, files.get('certificate_url')?.data ?? null, caller), UPLOADED_MESSAGE);
  });

  app.post(API_ROUTES.certificateDownloadRecord, async (request, reply) => {
    const { fields } = await readForm(request);
    const input = await validate(certificateAchievementSchema, fields);
    return sendOk(reply, await recordCertificateDownload(ctx, input.achievement_id, await callerOf(ctx, request, fields)));
  });
};
