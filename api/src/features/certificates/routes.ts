import type { FastifyRequest } from 'fastify';
import {
  achievementsSearchSchema,
  API_ROUTES,
  certificateAchievementSchema,
  certificateBackgroundSchema,
  certificateDraftSchema,
  certificateEligibilitySchema,
  eventIdSchema,
  saveCertificateSettingsSchema,
  saveSeriesSchema,
  seriesBackgroundSchema,
  SERIES_MESSAGES,
  templateDetailsSchema,
} from '@finishline/shared/pure';
import type { Feature } from '../index';
import type { AppContext } from '../../context';
import { sendOk, unauthorized } from '../../http/envelope';
import { readForm } from '../../http/multipart';
import { validate } from '../../http/validate';
import { routeLimit } from '../../security/addressLimits';
import { addressRules } from '../../security/limits';
import { findSession, requireEventOrganiser, requireRole, resolveSession } from '../accounts';
import { organiserSeriesList, previewSeries, saveOrganiserSeries, storeSeriesBackground } from './organiserSeries';
import { certificateSettings, previewCertificate, saveCertificateSettings, storeCertificateBackground } from './organiserSettings';
import { searchAchievements, templateDetails } from './builder';
import type { RunCaller } from './runs';
import { recordCertificateDownload, storeCertificate, UPLOADED_MESSAGE } from './upload';
import { achievementsEligibility } from './eligibility';

const NO_SESSION = 'Your search session has expired. Please search for your photos again.';

/**
 * The builder's calls belong to a search session: the visitor's (from choosing an event) or a
 * signed-in one, sent as the bearer or the form's _token. What a session searched, chose and uploaded
 * is its own (certificate_runs); no other session can go on with it.
 */
async function callerOf(ctx: AppContext, request: FastifyRequest, fields: Record<string, unknown>): Promise<RunCaller> {
  const session =
    (await resolveSession(ctx, request)) ?? (typeof fields._token === 'string' && fields._token ? await findSession(ctx.db, fields._token) : null);
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

  // As public as the BIB search's achievementsEligibility (which tells the same); the session only
  // adds the certificate it made itself.
  app.post(API_ROUTES.certificateEligibility, perAddress(), async (request, reply) => {
    const input = await validate(certificateEligibilitySchema, request.body ?? {});
    const session = await resolveSession(ctx, request);
    return sendOk(reply, await achievementsEligibility(ctx, input.eventID, input.bibNumber, session?.id ?? null));
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

/**
 * The organiser's part: a race's finisher certificate (Event Dashboard, Certificate tab). Only the
 * race's own organiser (requireEventOrganiser: another organiser, a runner or a partner gets 403, a
 * visitor 401).
 */
export const organiserCertificateRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.organiserCertificate, async (request, reply) => {
    const input = await validate(eventIdSchema, request.body);
    await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await certificateSettings(ctx, input.eventId));
  });

  app.post(API_ROUTES.organiserSaveCertificate, async (request, reply) => {
    const input = await validate(saveCertificateSettingsSchema, request.body);
    const { user } = await requireEventOrganiser(ctx, request, input.eventId);
    const saved = await saveCertificateSettings(ctx, input.eventId, { ...input, active: input.active === true }, user.id);
    return sendOk(
      reply,
      saved,
      saved.active ? 'The certificate is saved: every finisher of this race can make it.' : 'The certificate is saved and turned off.',
    );
  });

  app.post(API_ROUTES.organiserCertificateBackground, async (request, reply) => {
    const input = await validate(certificateBackgroundSchema, request.body);
    await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await storeCertificateBackground(ctx, input.eventId, input.image), 'The background is uploaded. Save the certificate to use it.');
  });

  app.post(API_ROUTES.organiserCertificatePreview, async (request, reply) => {
    const input = await validate(certificateDraftSchema, request.body);
    await requireEventOrganiser(ctx, request, input.eventId);
    return sendOk(reply, await previewCertificate(ctx, input.eventId, input));
  });

  // Series of the organiser's own races: any organiser, for their own races only.
  app.post(API_ROUTES.organiserSeries, async (request, reply) => {
    const { user } = await requireRole(ctx, request, 'organiser');
    return sendOk(reply, await organiserSeriesList(ctx, user.id));
  });

  app.post(API_ROUTES.organiserSaveSeries, async (request, reply) => {
    const input = await validate(saveSeriesSchema, request.body);
    const { user } = await requireRole(ctx, request, 'organiser');
    const saved = await saveOrganiserSeries(ctx, user.id, input);
    return sendOk(reply, saved, saved.active ? SERIES_MESSAGES.saved : SERIES_MESSAGES.savedOff);
  });

  app.post(API_ROUTES.organiserSeriesBackground, async (request, reply) => {
    const input = await validate(seriesBackgroundSchema, request.body);
    const { user } = await requireRole(ctx, request, 'organiser');
    return sendOk(reply, await storeSeriesBackground(ctx, user.id, input.image), 'The background is uploaded. Save the series to use it.');
  });

  app.post(API_ROUTES.organiserSeriesPreview, async (request, reply) => {
    const input = await validate(saveSeriesSchema, request.body);
    const { user } = await requireRole(ctx, request, 'organiser');
    return sendOk(reply, await previewSeries(ctx, user.id, input));
  });
};
