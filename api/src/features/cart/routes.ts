import { API_ROUTES, asCartRequest, cartRequestSchema } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { badRequest, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { resolveSession } from '../accounts/sessions';
import { buildBill } from './bill';

/** Cart details (BIB and selfie carts) and unlabeled cart details: the server's bill with its GST. */
export const cartRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.cartDetails, async (request, reply) => {
    const cart = asCartRequest(await validate(cartRequestSchema, request.body));
    if (cart.searchKind === 'unlabeled') throw badRequest('Unlabeled photos are priced by the unlabeled cart.');
    const session = await resolveSession(ctx, request);
    return sendOk(reply, await buildBill(ctx, cart, { ip: request.ip, sessionId: session?.id ?? null }));
  });

  app.post(API_ROUTES.unlabeledCartDetails, async (request, reply) => {
    const cart = asCartRequest(await validate(cartRequestSchema, request.body));
    return sendOk(reply, await buildBill(ctx, { ...cart, searchKind: 'unlabeled', packageKind: null }, { ip: request.ip, sessionId: null }));
  });
};
