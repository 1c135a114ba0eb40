import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import { AppError, envelope } from './http/envelope';
import { describeUnexpectedError, guardRequestInput } from './http/inputGuard';
import { collectRegisteredRoutes } from './http/routeList';
import { registerIdempotency } from './http/idempotency';
import { API_ROUTES, IDEMPOTENT_REPLAYED_HEADER } from '@finishline/shared/pure';
import type { AppContext } from './context';
import { features } from './features';
import { registerAddressLimits } from './security/addressLimits';
import { StorageUnavailableError } from './storage/storage';

const STORAGE_BUSY_MESSAGE = 'Our photo storage is busy. Please try again in a moment.';

/** How long a browser may reuse a preflight's answer (Access-Control-Max-Age). */
export const CORS_PREFLIGHT_MAX_AGE_SECONDS = 7200;
/** JSON bodies are small everywhere except where an image travels as base64. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const LARGE_BODY_LIMIT = 12 * 1024 * 1024; // a 2 MB selfie as base64 JSON is ~2.7 MB; a 5 MB certificate background ~6.7 MB; contact attachments are drained; a participants CSV up to 5 MB
const LARGE_BODY_ROUTES = new Set<string>([
  API_ROUTES.searchBySelfie,
  API_ROUTES.devEventPhoto,
  API_ROUTES.contact,
  API_ROUTES.organiserEventLogo,
  API_ROUTES.organiserCourseMap,
  API_ROUTES.organiserImportParticipants,
  API_ROUTES.organiserCertificateBackground,
]);

/** A hop count becomes "trust the nearest n hops", as proxy-addr reads it. */
function fastifyTrustProxy(setting: false | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** Builds the HTTP server around a ready context (database migrated, storage open). */
export async function buildApp(ctx: AppContext, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: ctx.config.logLevel },
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Off unless TRUST_PROXY names the proxies: request.ip is then the real client, never a header's word.
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
  });

  // First, so that every route of every plugin below is in the list.
  collectRegisteredRoutes(app);

  // The API answers JSON and media only: no page of it may run scripts, be framed or sniffed.
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'none'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'unsafe-inline'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
      },
    },
    // Media (previews, thumbnails) are embedded by the shell and remotes on other origins.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  app.addHook('onRoute', (route) => {
    if (LARGE_BODY_ROUTES.has(route.url)) route.bodyLimit = LARGE_BODY_LIMIT;
  });
  // One input layer for every route: sizes, depth, characters and number ranges before any handler.
  app.addHook('preValidation', guardRequestInput);

  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || ctx.config.corsOrigins.includes(origin)),
    credentials: true,
    // PATCH: the chunks of a resumable (tus) upload; DELETE: forgetting an unfinished one.
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    // The client reads these on a retried call (http/idempotency.ts) and a download's file name
    // (a print batch's number); request headers, Idempotency-Key among them, are allowed as the preflight asks.
    exposedHeaders: [IDEMPOTENT_REPLAYED_HEADER, 'Retry-After', 'Content-Disposition'],
    // Every POST carries Idempotency-Key (not a safelisted header), so each would cost a preflight
    // round trip first; browsers keep the answer this long (Chromium caps it at 2 hours).
    maxAge: CORS_PREFLIGHT_MAX_AGE_SECONDS,
  });
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 5 } });
  await app.register(formbody); // PayU posts back application/x-www-form-urlencoded
  // Per-address limits (security/limits.ts): routes opt in; Redis shares the count when REDIS_URL is set.
  await registerAddressLimits(app, ctx.config);

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    // The route may have named an image or a zip before failing: the answer is now the JSON envelope.
    reply.removeHeader('content-disposition');
    reply.removeHeader('content-length');
    reply.type('application/json; charset=utf-8');
    if (error instanceof AppError) {
      return reply.code(error.statusCode).send(envelope(error.result, error.message, error.statusCode));
    }
    if (error instanceof StorageUnavailableError) {
      // Throttled or unreachable storage is no missing object: the client may try again shortly.
      request.log.warn({ err: error }, 'object storage unavailable');
      return reply
        .code(503)
        .header('retry-after', '2')
        .send(envelope(null, STORAGE_BUSY_MESSAGE, 503));
    }
    const { status, message } = describeUnexpectedError(error, request);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(status).send(envelope(null, message, status));
  });

  app.setNotFoundHandler((request, reply) => {
    // The path is not echoed: it is the client's text.
    reply.code(404).send(envelope(null, 'No such route.', 404));
  });

  // Before the features, so that it covers every route they register.
  registerIdempotency(app, ctx.db, ctx.config.idempotency);
  for (const feature of features) {
    await app.register(feature, { ctx });
  }
  return app;
}
