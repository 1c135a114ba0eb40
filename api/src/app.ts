import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import formbody from '@fastify/formbody';
import { AppError, envelope } from './http/envelope';
import type { AppContext } from './context';
import { features } from './features';

/** Builds the HTTP server around a ready context (database migrated, storage open). */
export async function buildApp(ctx: AppContext, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: ctx.config.logLevel },
    bodyLimit: 12 * 1024 * 1024, // selfies arrive as base64 JSON (2 MB file -> ~2.7 MB)
    trustProxy: true,
  });

  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || ctx.config.corsOrigins.includes(origin)),
    credentials: true,
  });
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 5 } });
  await app.register(formbody); // PayU posts back application/x-www-form-urlencoded

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).send(envelope(error.result, error.message, error.statusCode));
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const message = status >= 500 ? 'Something went wrong. Please try again.' : error.message;
    return reply.code(status).send(envelope(null, message, status));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(envelope(null, `No route for ${request.method} ${request.url.split('?')[0]}`, 404));
  });

  for (const feature of features) {
    await app.register(feature, { ctx });
  }
  return app;
}
