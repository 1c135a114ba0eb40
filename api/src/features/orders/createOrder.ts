import type { FastifyRequest } from 'fastify';
import {
  cartShipsGoods,
  checkoutFormSchema,
  createOrderRequestSchema,
  DEFAULT_ISD_CODE,
  guestCheckoutFormSchema,
  type CheckoutContext,
  printsDeliverableTo,
  payuAmount,
  type Bill,
  type CartRequest,
  type OrderCartInfo,
  type PaymentForm,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError, envelope } from '../../http/envelope';
import { storeAnswerWithin } from '../../http/idempotency';
import { validate } from '../../http/validate';
import { verifyCaptcha } from '../../security/captcha';
import { createUser, findUserByEmail, optionalUser, resolveSession } from '../accounts';
import { buildBill } from '../cart';
import { paymentFormFor, payuSafe } from '../../payu/paymentForm';
import { confirmPaidOrder, recordOrderPaid } from './confirmation';
import { insertOrder, type OrderDraft } from './orderStore';

export const CREATE_ORDER_FAILED_MESSAGE = 'Something went wrong while creating order.';

/** The create-order answer's message: a free order is placed at once, any other waits for payment. */
export const orderCreatedMessage = (form: PaymentForm) => (form.amount === '0.00' ? 'Order placed' : 'Order created');

/** A guest checkout (or pre-order) creates or reuses the user record of the email, without a password. */
export async function userIdForGuest(ctx: AppContext, buyer: { name: string; email: string; phone: string; isdCode: string }): Promise<number> {
  const existing = await findUserByEmail(ctx.db, buyer.email);
  if (existing) return existing.id;
  const [firstName, ...rest] = buyer.name.trim().split(/\s+/);
  try {
    return await createUser(ctx.db, {
      firstName: firstName ?? buyer.name,
      lastName: rest.join(' '),
      email: buyer.email,
      password: null,
      primaryPhone: buyer.phone,
      isdCode: buyer.isdCode,
    });
  } catch (error) {
    // Two guest checkouts with one new email at once: the second finds the first's record.
    const again = await findUserByEmail(ctx.db, buyer.email);
    if (again) return again.id;
    throw error;
  }
}

/** What an order stores of its cart and the server's bill of it (amounts, product info, the cart as sent). */
export function orderFieldsOfBill(bill: Bill, cart: CartRequest) {
  return {
    subtotal: bill.subtotal,
    discount: bill.discount,
    gst: bill.gstInfo[0]?.gst_amount ?? 0,
    amount: bill.total_amount,
    amountText: payuAmount(bill.total_amount),
    productinfo: payuSafe(`${bill.eventName} BIB ${bill.bibNumber}`, 100),
    searchKind: cart.searchKind,
    packageKind: cart.packageKind,
    bundle: bill.appliedPackage,
    unlabeled: cart.searchKind === 'unlabeled',
    isPreorder: false,
    sponsorOfferId: bill.offerInfo ? cart.sponsorofferID : null,
    sponsorPhotoCount: bill.discountedPhotoIds.length,
    cartInfo: { searchKind: cart.searchKind, packageKind: cart.packageKind, lines: cart.lines, discountedPhotoIds: cart.discountedPhotoIds },
  } satisfies Partial<OrderDraft>;
}

/**
 * Create order: the buyer fields are checked with the form's schema (signed-in or guest), the cart
 * is re-priced by buildBill (items, pack rule, sponsor discount, GST) and the amount is the bill's
 * total; whatever amount the browser sends is ignored. A total of 0 completes the order at once.
 */
export async function createOrder(ctx: AppContext, request: FastifyRequest, log: (error: unknown) => void): Promise<PaymentForm> {
  const body = await validate(createOrderRequestSchema, request.body);
  const signedIn = await optionalUser(ctx, request);
  // Address and PIN code are asked only of an order that ships a print or a collage; for downloads
  // only they are stripped (never stored), whatever the browser sends.
  const context: CheckoutContext = { shipsGoods: cartShipsGoods(body.cartInfo.lines) };
  const buyer: { name: string; email: string; phone_number: string; gender?: string; shipping_address?: string; pincode?: string } = signedIn
    ? await validate(checkoutFormSchema, request.body, context)
    : await validate(guestCheckoutFormSchema, request.body, context);
  if (!signedIn) await verifyCaptcha(ctx, body.captcha);

  const cartInfo = body.cartInfo as OrderCartInfo;
  const cart: CartRequest = {
    eventId: body.eventID,
    bibNumber: body.bibNumber,
    searchKind: cartInfo.searchKind,
    packageKind: cartInfo.packageKind,
    lines: cartInfo.lines,
    sponsorofferID: body.sponsorofferID ?? null,
    discountedPhotoIds: cartInfo.discountedPhotoIds ?? [],
  };
  const session = signedIn?.session ?? (await resolveSession(ctx, request));
  const bill = await buildBill(ctx, cart, { ip: request.ip, sessionId: session?.id ?? null });
  const isdCode = body.isdCode || DEFAULT_ISD_CODE;
  const userId = signedIn ? signedIn.user.id : await userIdForGuest(ctx, { name: buyer.name, email: buyer.email, phone: buyer.phone_number, isdCode });
  const free = bill.total_amount === 0;

  let order;
  try {
    // A free order is Paid at once: its confirmation goes into the outbox in the same transaction.
    order = await ctx.db.transaction(async (tx) => {
      const stored = await insertOrder(
        tx,
        {
          userId,
          placedByUserId: signedIn?.user.id ?? null,
          placedSessionId: session?.id ?? null,
          eventId: bill.eventId,
          bibNumber: bill.bibNumber,
          name: payuSafe(buyer.name, 100),
          // A signed-in customer's order belongs to the account: its email is the account's.
          email: signedIn ? signedIn.user.email : buyer.email,
          phone: buyer.phone_number,
          isdCode,
          gender: buyer.gender ?? null,
          shippingAddress: buyer.shipping_address ?? null,
          pincode: buyer.pincode ?? null,
          // Print instructions apply only for +91 (spec section 6).
          printInstruction: printsDeliverableTo(isdCode) ? (body.print_instruction ?? '') : '',
          status: free ? 'Paid' : 'Pending',
          ...orderFieldsOfBill(bill, cart),
          paymentMode: free ? 'FREE' : null,
        },
        bill.lines,
      );
      if (free) await recordOrderPaid(ctx, tx, stored);
      // The answer commits with the order: a retry after this instance died past the commit gets
      // this order back (http/idempotency.ts), never a second one.
      const form = paymentFormFor(ctx.config, stored);
      await storeAnswerWithin(tx, request, envelope(form, orderCreatedMessage(form)));
      return stored;
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    log(error);
    throw new AppError(500, CREATE_ORDER_FAILED_MESSAGE);
  }
  if (signedIn) {
    // The next checkout is prefilled from the profile: keep what the buyer just entered (an order
    // of downloads only leaves the stored address and PIN code as they were).
    await ctx.db.query(
      `update users set gender = $2, address = coalesce($3, address), pincode = coalesce($4, pincode),
              primary_phone = case when primary_phone = '' then $5 else primary_phone end where id = $1`,
      [signedIn.user.id, buyer.gender ?? null, buyer.shipping_address ?? null, buyer.pincode ?? null, buyer.phone_number],
    );
  }
  if (free) await confirmPaidOrder(ctx, order, log);
  return paymentFormFor(ctx.config, order);
}
