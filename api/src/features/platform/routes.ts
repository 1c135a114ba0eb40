import type { Feature } from '../index';
import { API_ROUTES, type HealthResult } from '@finishline/shared/pure';
import { isServableKey, verifyMediaSignature } from '../../storage/storage';
import { envelope } from '../../http/envelope';

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

/** Health check and the media endpoint that serves signed previews and public assets. */
export const platformRoutes: Feature = async (app, { ctx }) => {
  // Polled by pnpm start (every half second while the demo is seeded) and by load balancers: not logged per request.
  app.get(API_ROUTES.health, { logLevel: 'warn' }, async () => {
    await ctx.db.query('select 1');
    const health: HealthResult = { status: 'ok', database: ctx.db.kind, demo: ctx.demo.state };
    return envelope(health);
  });

  app.get<{ Params: { '*': string }; Querystring: { exp?: string; sig?: string } }>(`${API_ROUTES.media}/*`, async (request, reply) => {
    const key = request.params['*'];
    if (!isServableKey(key)) return reply.code(404).send(envelope(null, 'Not found', 404));
    if (!key.startsWith('public/')) {
      const exp = Number(request.query.exp);
      const sig = request.query.sig ?? '';
      if (!Number.isFinite(exp) || !verifyMediaSignature(ctx.config.signingSecret, key, exp, sig)) {
        return reply.code(403).send(envelope(null, 'This link is not valid.', 403));
      }
      if (exp * 1000 < Date.now()) {
        return reply.code(410).send(envelope(null, 'Your search session is expired. Please search again.', 410));
      }
    }
    // Only a missing object is a 404; a throttled or unreachable storage throws and answers 503.
    if (!(await ctx.storage.exists(key))) return reply.code(404).send(envelope(null, 'Not found', 404));
    const stream = await ctx.storage.getStream(key);
    const ext = key.split('.').pop()?.toLowerCase() ?? '';
    reply.header('Content-Type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
    reply.header('Cache-Control', key.startsWith('public/') ? 'public, max-age=86400' : 'private, max-age=3600');
    return reply.send(stream);
  });
};
