import type { AppContext } from '../../context';
import { AppError } from '../../http/envelope';
import { findOrderByTxnid, recordOrderPaid, type OrderRow } from '../orders';
import type { Db } from '../../db/db';
import { payuReverseHash, sameHash } from '../../payu/payuHash';
import { verifyPayment } from '../../payu/verifyPayment';

export const PAYMENT_UNVERIFIED_MESSAGE = 'We could not verify this payment response. Your order has not been changed.';
export const PAYMENT_UNKNOWN_MESSAGE = 'We could not match this payment response to an order.';

export type ReturnOutcome =
  | { kind: 'paid'; order: OrderRow } // this callback moved the order to Paid
  | { kind: 'already_paid'; order: OrderRow } // a replay or a concurrent duplicate: nothing changed
  | { kind: 'failed'; order: OrderRow }; // the gateway reports a failed or cancelled payment

const text = (value: unknown) => (typeof value === 'string' ? value : '');

async function logCallback(db: Db, kind: 'success' | 'failure', payload: Record<string, unknown>, outcome: string) {
  const { hash: _hash, ...kept } = payload; // the hash is of no use later
  await db.query('insert into payment_callbacks (txnid, kind, status, outcome, payload) values ($1, $2, $3, $4, $5)', [
    text(payload.txnid) || null,
    kind,
    text(payload.status) || null,
    outcome,
    JSON.stringify(kept),
  ]);
}

/**
 * Handles a browser return from the gateway to surl or furl. Accepted only with a valid reverse hash
 * over the stored order's txnid, amount and buyer fields; a success is confirmed with the gateway
 * (verify_payment) when configured, and the Pending -> Paid transition is one conditional UPDATE, so
 * replays and concurrent duplicates change nothing and the confirmation runs once.
 */
export async function handlePaymentReturn(ctx: AppContext, kind: 'success' | 'failure', body: unknown): Promise<ReturnOutcome> {
  const payload = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const txnid = text(payload.txnid);
  const order = txnid ? await findOrderByTxnid(ctx.db, txnid) : null;
  if (!order) {
    await logCallback(ctx.db, kind, payload, 'unknown_txnid');
    throw new AppError(400, PAYMENT_UNKNOWN_MESSAGE);
  }

  const fields = {
    key: text(payload.key),
    txnid,
    amount: text(payload.amount),
    productinfo: text(payload.productinfo),
    firstname: text(payload.firstname),
    email: text(payload.email),
    status: text(payload.status),
    udf1: text(payload.udf1),
    udf2: text(payload.udf2),
    udf3: text(payload.udf3),
    udf4: text(payload.udf4),
    udf5: text(payload.udf5),
    // Sent (and hashed) only when PayU added a convenience fee the buyer paid on top of amount.
    additionalCharges: typeof payload.additionalCharges === 'string' ? payload.additionalCharges : undefined,
  };
  // amount stays the order's own amount; the fee is the buyer's extra and must be a plain sum of rupees.
  const chargesValid = fields.additionalCharges === undefined || /^\d{1,7}(\.\d{1,2})?$/.test(fields.additionalCharges);
  const amountMatches = fields.amount !== '' && Number(fields.amount) === Number(order.amount) && chargesValid;
  const hashValid = fields.key === ctx.config.payu.key && sameHash(payuReverseHash(fields, ctx.config.payu.salt), payload.hash);
  if (!hashValid || !amountMatches || fields.productinfo !== order.productinfo || fields.email.toLowerCase() !== order.email) {
    await logCallback(ctx.db, kind, payload, !hashValid ? 'bad_hash' : 'field_mismatch');
    throw new AppError(400, PAYMENT_UNVERIFIED_MESSAGE);
  }

  if (kind === 'failure' || fields.status !== 'success') {
    await logCallback(ctx.db, kind, payload, 'failed');
    return { kind: 'failed', order };
  }

  if (ctx.config.payu.verifyUrl) {
    let confirmed: boolean;
    try {
      const verified = await verifyPayment(ctx.config, txnid);
      confirmed = verified !== null && verified.status === 'success' && Number(verified.amount) === Number(order.amount);
    } catch {
      confirmed = false;
    }
    if (!confirmed) {
      await logCallback(ctx.db, kind, payload, 'not_confirmed');
      throw new AppError(400, PAYMENT_UNVERIFIED_MESSAGE);
    }
  }

  // The Paid change, its audit row, the marquee and the confirmation mail commit together or not at all.
  const moved = await ctx.db.transaction(async (tx) => {
    const rows = await tx.query<OrderRow>(
      `update orders set status = 'Paid', paid_at = now(), payment_id = $2, payment_mode = $3, bank_ref_num = $4
        where id = $1 and (status = 'Pending' or (status = 'Cancelled' and paid_at is null)) returning *`,
      [order.id, text(payload.mihpayid) || null, text(payload.mode) || null, text(payload.bank_ref_num) || null],
    );
    if (rows.length === 0) return null;
    await logCallback(tx, kind, payload, 'paid');
    await recordOrderPaid(ctx, tx, rows[0]);
    return rows[0];
  });
  if (!moved) {
    await logCallback(ctx.db, kind, payload, 'replay');
    return { kind: 'already_paid', order };
  }
  return { kind: 'paid', order: moved };
}
