import { API_ROUTES, clientReportBatchSchema, type ClientReport, type ClientReportResult } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { routeLimit } from '../../security/addressLimits';
import { addressRules } from '../../security/limits';
import { storeClientReports } from './clientReports';
import { watchCanariesSoon } from './canaryWatch';

/**
 * The shell's reports of its remotes (views and errors per release; shell/src/app/remotes/errorReports.ts):
 * validated, scrubbed, counted per remote, version and minute, errors sampled. No session, no address stored.
 */
export const releaseRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.clientReports, { config: routeLimit(addressRules(ctx.config).clientReports) }, async (request, reply) => {
    const { reports } = await validate(clientReportBatchSchema, request.body);
    const accepted = await storeClientReports(ctx.db, reports as ClientReport[], ctx.config.releases.samplesPerMinute);
    if (reports.some((report) => report.kind !== 'view')) watchCanariesSoon(ctx, (message) => request.log.warn(message));
    const result: ClientReportResult = { accepted };
    return sendOk(reply, result, 'Thank you.');
  });

  // Development only (DEV_PAGES): what is stored, per remote and version, with the error samples.
  if (!ctx.config.security.devPages) return;
  app.get(API_ROUTES.devClientReports, async (_request, reply) => {
    const counts = await ctx.db.query(
      'select remote, version, sum(views)::int as views, sum(errors)::int as errors from client_report_counts group by remote, version order by remote, version',
    );
    const samples = await ctx.db.query('select remote, version, kind, route, message, count from client_error_samples order by id');
    return sendOk(reply, { counts, samples });
  });
};
