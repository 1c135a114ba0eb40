import type { FastifyRequest } from 'fastify';
import type { PreauthParams } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError, forbidden, notFound } from '../../http/envelope';
import { requireUser } from '../accounts';
import { findOrderByRef, type OrderRow } from './orderStore';
import { LINK_INVALID_MESSAGE, verifyPreauth } from './preauth';

export const ORDER_NOT_FOUND_MESSAGE = 'We could not find this order.';

/**
 * The order a caller may see: through a valid pre-authorised link (signed out is fine), or as the
 * signed-in owner (order email equals account email). Another account gets 403, nobody gets 401.
 */
export async function orderForCaller(ctx: AppContext, request: FastifyRequest, orderRef: string, preauth?: Partial<PreauthParams> | null): Promise<OrderRow> {
  if (preauth && (preauth.h || preauth.orderref)) {
    const link = verifyPreauth(ctx.config.signingSecret, preauth);
    if (link.orderRef.toUpperCase() !== orderRef.trim().toUpperCase()) throw new AppError(403, LINK_INVALID_MESSAGE);
    const order = await findOrderByRef(ctx.db, link.orderRef);
    if (!order || order.email.toLowerCase() !== link.email) throw new AppError(403, LINK_INVALID_MESSAGE);
    return order;
  }
  const { user } = await requireUser(ctx, request);
  const order = await findOrderByRef(ctx.db, orderRef);
  if (!order) throw notFound(ORDER_NOT_FOUND_MESSAGE);
  if (order.email.toLowerCase() !== user.email.toLowerCase()) throw forbidden();
  return order;
}
