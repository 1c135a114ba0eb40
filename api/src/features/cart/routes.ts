import { API_ROUTES, asCartRequest, cartRequestSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { badRequest, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { resolveSession } from '../accounts';
import { routeLimit } from '../../security/addressLimits';
import { addressRules } from '../../security/limits';
import { buildBill } from './bill';
import { collagePreview } from './collagePreview';

/** Cart details (BIB and selfie carts) and unlabeled cart details: the server's bill with its GST. */
export const cartRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.cartDetails, async (request, reply) => {
    const cart = asCartRequest(await validate(cartRequestSchema, request.body));
    if (cart.searchKind === 'unlabeled') throw badRequest('Unlabeled photos are priced by the unlabeled cart.');
    const session = await resolveSession(ctx, request);
    const bill = await buildBill(ctx, cart, { ip: request.ip, sessionId: session?.id ?? null });
    ctx.funnel.mark(bill.eventId, 'cart', { sessionId: session?.id ?? null, ip: request.ip });
    return sendOk(reply, bill);
  });

  app.post(API_ROUTES.unlabeledCartDetails, async (request, reply) => {
    const cart = asCartRequest(await validate(cartRequestSchema, request.body));
    const bill = await buildBill(ctx, { ...cart, searchKind: 'unlabeled', packageKind: null }, { ip: request.ip, sessionId: null });
    const session = await resolveSession(ctx, request);
    ctx.funnel.mark(bill.eventId, 'cart', { sessionId: session?.id ?? null, ip: request.ip });
    return sendOk(reply, bill);
  });

  // The cart's collage drawn small before paying (watermarked photos); the bill's rules apply.
  app.post(API_ROUTES.collagePreview, { config: routeLimit(addressRules(ctx.config).collagePreview) }, async (request, reply) => {
    const cart = asCartRequest(await validate(cartRequestSchema, request.body));
    if (cart.searchKind === 'unlabeled') throw badRequest('Collages are not offered for unlabeled photos.');
    const session = await resolveSession(ctx, request);
    const image = await collagePreview(ctx, cart, { ip: request.ip, sessionId: session?.id ?? null }, (error) =>
      request.log.warn({ err: error }, 'collage preview: a preview image could not be read'),
    );
    return reply.header('Content-Type', 'image/jpeg').header('Cache-Control', 'private, no-store').send(image);
  });
};
