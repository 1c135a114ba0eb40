import type { FastifyRequest } from 'fastify';
import { object, number } from 'yup';
import {
  API_ROUTES,
  DEFAULT_ISD_CODE,
  gstOf,
  payuAmount,
  PREBOOK_BIB,
  preorderLinkRequestSchema,
  preorderRequestSchema,
  withGst,
  type PreorderInfoResult,
  type PreorderLinkResult,
} from '@finishline/shared/pure';
import type { Feature } from '../index';
import type { AppContext } from '../../context';
import { AppError, badRequest, sendOk } from '../../http/envelope';
import { validate } from '../../http/validate';
import { verifyCaptcha } from '../../security/captcha';
import { routeLimit } from '../../security/addressLimits';
import { addressRules } from '../../security/limits';
import { assertBibsReleased, normaliseBib } from '../../rules/privacy';
import { optionalUser, resolveSession } from '../accounts';
import { findEvent, type EventRow } from '../events';
import {
  CREATE_ORDER_FAILED_MESSAGE,
  downloadUntil,
  findOrderByRef,
  insertOrder,
  isPaidStatus,
  preauthUrl,
  signPreauth,
  userIdForGuest,
  type OrderRow,
} from '../orders';
import { paymentFormFor, payuSafe } from '../../payu/paymentForm';

const eventIdSchema = object({ eventId: number().typeError('Please choose an event.').integer().positive().required('Please choose an event.') });
const MAPPING_MISMATCH_MESSAGE = 'These details do not match a paid pre-order. Please check the Order ID, email and phone number.';

async function preorderEvent(ctx: AppContext, eventId: number): Promise<EventRow & { preorder_price: number }> {
  const event = await findEvent(ctx.db, eventId);
  if (!event) throw badRequest('We could not find this event. Please choose an event from the list.');
  if (!event.preorder_allowed || event.preorder_price === null) throw badRequest(`Pre-orders are not open for ${event.name}.`);
  return event as EventRow & { preorder_price: number };
}

const lastDigits = (phone: string) => phone.replace(/\D/g, '').slice(-10);

/** Pre-order info, guest pre-order (captcha, bib 'prebook', paid through the gateway) and BIB mapping. */
async function assertMappableBib(ctx: AppContext, request: FastifyRequest, eventId: number, bib: string): Promise<void> {
  const event = await findEvent(ctx.db, eventId);
  const known = await ctx.db.query(
    'select 1 from participants where event_id = $1 and bib_number = $2 union all select 1 from photo_bibs where event_id = $1 and bib_number = $2 limit 1',
    [eventId, bib],
  );
  if (!event || known.length === 0) throw badRequest(`BIB ${bib} is not part of ${event?.name ?? 'this event'}. Please check the number on your BIB.`);
  await assertBibsReleased(ctx.db, event, [bib], (await resolveSession(ctx, request))?.id ?? null);
}

export const preorderRoutes: Feature = async (app, { ctx }) => {
  app.post(API_ROUTES.preorderInfo, async (request, reply) => {
    const query = request.query as { eventId?: string };
    const body = (request.body ?? {}) as { eventId?: unknown };
    const { eventId } = await validate(eventIdSchema, { eventId: query.eventId ?? body.eventId });
    const event = await preorderEvent(ctx, eventId);
    const result: PreorderInfoResult = {
      eventslist: [
        {
          event_id: event.id,
          event_name: event.name,
          event_logo: event.logo_key ? ctx.storage.publicUrl(event.logo_key) : '',
          event_from_date: event.from_date,
          event_to_date: event.to_date,
        },
      ],
      preorderprice: { price: withGst(event.preorder_price), cut_price: event.preorder_cut_price === null ? null : withGst(event.preorder_cut_price) },
    };
    return sendOk(reply, result);
  });

  app.post(API_ROUTES.createPreorder, async (request, reply) => {
    const input = await validate(preorderRequestSchema, request.body);
    await verifyCaptcha(ctx, input.captcha);
    const event = await preorderEvent(ctx, input.eventID);
    const signedIn = await optionalUser(ctx, request);
    const isdCode = input.isdCode || DEFAULT_ISD_CODE;
    const userId = signedIn ? signedIn.user.id : await userIdForGuest(ctx, { name: input.name, email: input.email, phone: input.phone_number, isdCode });
    const gst = gstOf(event.preorder_price);
    const total = withGst(event.preorder_price);
    let order: OrderRow;
    try {
      order = await insertOrder(
        ctx.db,
        {
          userId,
          placedByUserId: signedIn?.user.id ?? null,
          eventId: event.id,
          bibNumber: PREBOOK_BIB,
          name: payuSafe(input.name, 100),
          email: input.email,
          phone: input.phone_number,
          isdCode,
          printInstruction: input.instruction ?? '',
          status: 'Pending',
          subtotal: event.preorder_price,
          discount: 0,
          gst,
          amount: total,
          amountText: payuAmount(total),
          productinfo: payuSafe(`${event.name} photo pre-order`, 100),
          searchKind: 'bib',
          packageKind: null,
          bundle: null,
          unlabeled: false,
          isPreorder: true,
          sponsorOfferId: null,
          cartInfo: { searchKind: 'bib', packageKind: null, lines: [], discountedPhotoIds: [] },
        },
        [
          {
            kind: 'preorder',
            label: `Pre-order: all photos of your BIB at ${event.name}`,
            photoIds: [],
            quantity: 1,
            amount: event.preorder_price,
            discount: 0,
            gst,
            total,
          },
        ],
      );
    } catch (err) {
      request.log.error({ err }, 'create pre-order failed');
      throw new AppError(500, CREATE_ORDER_FAILED_MESSAGE);
    }
    return sendOk(reply, paymentFormFor(ctx.config, order), 'Order created');
  });

  // Guessing order ids must stay slow: every try counts against the address.
  app.post(API_ROUTES.preorderLink, { config: routeLimit(addressRules(ctx.config).preorderLink) }, async (request, reply) => {
    const input = await validate(preorderLinkRequestSchema, request.body);
    const order = await findOrderByRef(ctx.db, input.orderId);
    if (
      !order ||
      !order.is_preorder ||
      order.email.toLowerCase() !== input.orderEmail.trim().toLowerCase() ||
      lastDigits(order.phone) !== lastDigits(input.mobilenum)
    ) {
      throw badRequest(MAPPING_MISMATCH_MESSAGE);
    }
    if (!isPaidStatus(order.status) || !order.paid_at) throw badRequest('This pre-order is not paid yet. Please complete the payment first.');
    const bib = normaliseBib(input.orderBibNumber);
    if (!bib || bib === PREBOOK_BIB.toUpperCase()) throw badRequest('Please enter your BIB number.');
    // The BIB must be one of the event's runners, and a privacy-checked one verified by OTP in this session.
    if (order.bib_number === PREBOOK_BIB) await assertMappableBib(ctx, request, order.event_id, bib);

    // Mapping is permanent: only a pre-order still on 'prebook' can be mapped, in one conditional update.
    const mapped = await ctx.db.query<OrderRow>(`update orders set bib_number = $2, mapped_at = now() where id = $1 and bib_number = $3 returning *`, [
      order.id,
      bib,
      PREBOOK_BIB,
    ]);
    const current = mapped[0] ?? (await findOrderByRef(ctx.db, order.order_ref))!;
    if (current.bib_number !== bib) {
      throw badRequest(`Order ${order.order_ref} is already mapped to BIB ${current.bib_number}. A mapping cannot be changed.`);
    }
    const preauth = signPreauth(ctx.config.signingSecret, current.order_ref, current.email, downloadUntil(new Date(current.paid_at!)));
    const result: PreorderLinkResult = { order_ref: current.order_ref, bib_no: current.bib_number, link: preauthUrl(ctx.config.shellUrl, preauth), preauth };
    return sendOk(
      reply,
      result,
      mapped.length ? `Order ${current.order_ref} is now mapped to BIB ${bib}.` : `Order ${current.order_ref} is mapped to BIB ${bib}.`,
    );
  });
};
