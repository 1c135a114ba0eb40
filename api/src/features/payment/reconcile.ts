import type { AppContext } from '../../context';
import { confirmPaidOrder, recordOrderPaid, type OrderRow } from '../orders';
import { verifyPayments, type VerifiedTransaction } from '../../payu/verifyPayment';

/** Orders asked about in one verify_payment call (PayU takes several txnids joined by '|'). */
const VERIFY_BATCH = 50;

export interface ReconcileSettings {
  /** Orders younger than this are most likely still on the payment page: not asked about yet. */
  minAgeSeconds: number;
  /** An order asked about is not asked again before this many seconds. */
  recheckSeconds: number;
  /** A Pending order the gateway has no payment for is Cancelled once it is this old. */
  expireAfterMinutes: number;
  /** Most orders one run asks about (the rest wait for the next run, oldest first). */
  maxOrdersPerRun: number;
}

export interface ReconcileResult {
  checked: number;
  settled: number;
  expired: number;
}

/**
 * A buyer may pay and then lose the way back (tab closed, network gone): the gateway has the money
 * but no browser return ever reaches us. This job asks the gateway (verify_payment) about unsettled
 * orders, oldest first, and settles the paid ones with the same conditional UPDATE as the browser
 * return, so both together still give one Paid order. Each batch is claimed by stamping
 * payment_checked_at on rows selected FOR UPDATE SKIP LOCKED, so processes running at once take
 * different orders, and an order checked recently waits recheckSeconds: 1,000 abandoned carts cannot
 * keep a newer paid order from its turn. An order still unpaid after expireAfterMinutes becomes
 * Cancelled (a payment that arrives later still settles it: see handlePaymentReturn).
 */
export async function reconcilePendingOrders(
  ctx: AppContext,
  settings: ReconcileSettings,
  log: (error: unknown) => void = () => undefined,
): Promise<ReconcileResult> {
  const result: ReconcileResult = { checked: 0, settled: 0, expired: 0 };
  if (!ctx.config.payu.verifyUrl) return result;
  while (result.checked < settings.maxOrdersPerRun) {
    const batch = await claimDueOrders(ctx, settings, Math.min(VERIFY_BATCH, settings.maxOrdersPerRun - result.checked));
    if (batch.length === 0) break;
    let verified: Map<string, VerifiedTransaction | null>;
    try {
      verified = await verifyPayments(
        ctx.config,
        batch.map((order) => order.txnid),
      );
    } catch (error) {
      // Gateway unreachable: these orders were not checked after all; they come first next run.
      await ctx.db.query('update orders set payment_checked_at = null where id = any($1::int[])', [batch.map((order) => order.id)]);
      log(error);
      break;
    }
    result.checked += batch.length;
    for (const order of batch) {
      const outcome = await settleOrExpire(ctx, order, verified.get(order.txnid) ?? null, settings, log);
      if (outcome === 'paid') result.settled += 1;
      if (outcome === 'expired') result.expired += 1;
    }
  }
  return result;
}

async function claimDueOrders(ctx: AppContext, settings: ReconcileSettings, limit: number): Promise<OrderRow[]> {
  const rows = await ctx.db.query<OrderRow>(
    `update orders set payment_checked_at = now(), payment_checks = payment_checks + 1
      where id in (select id from orders
                    where status = 'Pending' and amount > 0
                      and created_at < now() - make_interval(secs => $1)
                      and (payment_checked_at is null or payment_checked_at < now() - make_interval(secs => $2))
                    order by created_at, id limit $3 for update skip locked)
      returning *`,
    [settings.minAgeSeconds, settings.recheckSeconds, limit],
  );
  return rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || a.id - b.id);
}

async function settleOrExpire(
  ctx: AppContext,
  order: OrderRow,
  verified: VerifiedTransaction | null,
  settings: ReconcileSettings,
  log: (error: unknown) => void,
): Promise<'paid' | 'expired' | 'pending'> {
  if (verified && verified.status === 'success' && Number(verified.amount) === Number(order.amount)) {
    const moved = await ctx.db.transaction(async (tx) => {
      const rows = await tx.query<OrderRow>(
        `update orders set status = 'Paid', paid_at = now(), payment_id = $2 where id = $1 and status = 'Pending' returning *`,
        [order.id, verified.mihpayid || null],
      );
      if (rows.length === 0) return null;
      await tx.query(`insert into payment_callbacks (txnid, kind, status, outcome, payload) values ($1, 'reconcile', 'success', 'paid', $2)`, [
        order.txnid,
        JSON.stringify(verified),
      ]);
      await recordOrderPaid(ctx, tx, rows[0]);
      return rows[0];
    });
    if (!moved) return 'pending';
    await confirmPaidOrder(ctx, moved, log);
    return 'paid';
  }
  // A payment the gateway still reports as in progress is never expired under it.
  if (verified?.status.toLowerCase() === 'pending') return 'pending';
  const expired = await ctx.db.transaction(async (tx) => {
    const rows = await tx.query(
      `update orders set status = 'Cancelled' where id = $1 and status = 'Pending' and created_at < now() - make_interval(mins => $2) returning id`,
      [order.id, settings.expireAfterMinutes],
    );
    if (rows.length === 0) return false;
    await tx.query(`insert into payment_callbacks (txnid, kind, status, outcome, payload) values ($1, 'reconcile', $2, 'expired', $3)`, [
      order.txnid,
      verified?.status ?? 'Not Found',
      JSON.stringify(verified ?? { status: 'Not Found' }),
    ]);
    return true;
  });
  return expired ? 'expired' : 'pending';
}
