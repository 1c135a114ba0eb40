import { API_ROUTES } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { confirmPaidOrder, type OrderRow } from '../orders';
import { handlePaymentReturn } from './paymentReturn';

/**
 * The gateway's return addresses (surl, furl). PayU posts application/x-www-form-urlencoded from
 * the buyer's browser; we answer with a 303 to the shell's order success page or back to the cart.
 */
export const paymentRoutes: Feature = async (app, { ctx }) => {
  const successPage = (order: OrderRow) =>
    `${ctx.config.shellUrl}/ordersuccess?${new URLSearchParams({ orderref: order.order_ref, txnid: order.txnid }).toString()}`;
  const cartPage = (order: OrderRow) =>
    `${ctx.config.shellUrl}/${order.unlabeled ? 'unlabeled-cart' : 'cart'}?${new URLSearchParams({ payment: 'failed', orderref: order.order_ref }).toString()}`;

  app.post(API_ROUTES.paymentSuccess, async (request, reply) => {
    const outcome = await handlePaymentReturn(ctx, 'success', request.body);
    if (outcome.kind === 'paid') await confirmPaidOrder(ctx, outcome.order, (err) => request.log.error({ err }, 'order confirmation failed'));
    return reply.redirect(outcome.kind === 'failed' ? cartPage(outcome.order) : successPage(outcome.order), 303);
  });

  app.post(API_ROUTES.paymentFailure, async (request, reply) => {
    const outcome = await handlePaymentReturn(ctx, 'failure', request.body);
    // A failure report for an order already paid (a late duplicate) still shows the paid order.
    const paid = outcome.order.status === 'Paid' || outcome.order.status === 'Downloaded';
    return reply.redirect(paid ? successPage(outcome.order) : cartPage(outcome.order), 303);
  });
};
