import { object, string } from 'yup';
import { API_ROUTES, replacementAskSchema, type OrderHistoryResult, type PreauthParams } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { AppError, badRequest, sendOk } from '../../http/envelope';
import { readForm, type FormInput } from '../../http/multipart';
import { validate } from '../../http/validate';
import { requireUser } from '../accounts';
import { askReplacement, PHOTO_TOO_LARGE_MESSAGE, REPLACEMENT_ASKED_MESSAGE } from '../fulfilment';
import { orderForCaller, withheldOrderCount } from './access';
import { createOrder, orderCreatedMessage } from './createOrder';
import { orderHistory } from './history';
import { orderDetailOf } from './orderDetail';
import { findOrderByRef } from './orderStore';
import { LINK_INVALID_MESSAGE, verifyPreauth } from './preauth';
import { purchaseNotification } from './purchaseNotification';

const historySchema = object({ searchtext: string().trim().max(100, 'Search text has at most 100 characters.').default('') });
const detailSchema = object({
  orderID: string().trim().required('Please give the order reference.').max(40),
  bibNumber: string().trim().max(32).optional(),
});

/** Create order, order history, order detail, my order, pre-authorised order and the marquee text. */
export const orderRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.createOrder, async (request, reply) => {
    const form = await createOrder(ctx, request, (err) => request.log.error({ err }, 'create order failed'));
    return sendOk(reply, form, orderCreatedMessage(form));
  });

  app.post(API_ROUTES.orderHistory, async (request, reply) => {
    // The spec's userID is ignored: the history is always the signed-in user's own.
    const { user } = await requireUser(ctx, request);
    const { searchtext } = await validate(historySchema, request.body);
    // The stored status only: the gateway is asked in the background (the payment reconcile job),
    // so a slow or unreachable gateway never slows this page.
    // Orders placed with the address by someone not signed in wait for the email proof: counted, not listed.
    const result: OrderHistoryResult = {
      order_history: await orderHistory(ctx.db, user, searchtext),
      withheld_orders: await withheldOrderCount(ctx, user),
      email: user.email,
      email_verified: user.email_verified_at !== null,
    };
    return sendOk(reply, result);
  });

  app.post(API_ROUTES.orderDetail, async (request, reply) => {
    const { orderID } = await validate(detailSchema, request.body);
    // Stored status, never a wait on the gateway: a paid order whose browser never came back is
    // settled by the payment reconcile job within minutes (docs/configuration.md).
    const order = await orderForCaller(ctx, request, orderID);
    return sendOk(reply, await orderDetailOf(ctx, order));
  });

  app.post(API_ROUTES.myOrder, async (request, reply) => {
    const query = request.query as { orderid?: string };
    const body = (request.body ?? {}) as { orderId?: string };
    const { orderID } = await validate(detailSchema, { orderID: query.orderid ?? body.orderId });
    const order = await orderForCaller(ctx, request, orderID);
    return sendOk(reply, await orderDetailOf(ctx, order));
  });

  app.get(API_ROUTES.preauthDownload, async (request, reply) => {
    const params = request.query as Partial<PreauthParams>;
    const link = verifyPreauth(ctx.config.signingSecret, params);
    const order = await findOrderByRef(ctx.db, link.orderRef);
    if (!order || order.email.toLowerCase() !== link.email) throw new AppError(403, LINK_INVALID_MESSAGE);
    return sendOk(reply, await orderDetailOf(ctx, order));
  });

  // The signed-in owner asks for a replacement of a delivered print, with a photo of the damage.
  app.post(API_ROUTES.orderReplacementAsk, async (request, reply) => {
    const { user } = await requireUser(ctx, request);
    let form: FormInput;
    try {
      form = await readForm(request, ['photo']);
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(PHOTO_TOO_LARGE_MESSAGE);
      throw error;
    }
    const input = await validate(replacementAskSchema, form.fields);
    const order = await orderForCaller(ctx, request, input.orderID);
    const line = await askReplacement(ctx, order, { lineId: input.lineId, note: input.note, photo: form.files.get('photo') }, user.id);
    return sendOk(reply, line, REPLACEMENT_ASKED_MESSAGE);
  });

  app.get(API_ROUTES.purchaseNotification, async (_request, reply) => {
    return sendOk(reply, { purchase_notification: await purchaseNotification(ctx.db) });
  });
};
