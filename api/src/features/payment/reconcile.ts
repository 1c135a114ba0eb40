import type { AppContext } from '../../context';
import type { OrderRow } from '../orders';
import { confirmPaidOrder } from './paymentReturn';
import { verifyPayment } from './verifyPayment';

/** How far back Pending orders are checked with the gateway. */
export const RECONCILE_MAX_AGE_DAYS = 7;

/**
 * A buyer may pay and then lose the way back (tab closed, network gone): the gateway has the money
 * but no browser return ever reaches us. Asking the gateway (verify_payment) settles such an order,
 * so nothing paid stays Pending and a Retry never charges twice. The transition is the same
 * conditional UPDATE as the browser return, so both together still give one Paid order.
 */
export async function reconcilePendingOrder(ctx: AppContext, order: OrderRow, log: (error: unknown) => void = () => undefined): Promise<OrderRow> {
  if (order.status !== 'Pending' || !ctx.config.payu.verifyUrl || Number(order.amount) <= 0) return order;
  let verified;
  try {
    verified = await verifyPayment(ctx.config, order.txnid);
  } catch (error) {
    log(error); // gateway unreachable: ask again next time
    return order;
  }
  if (!verified || verified.status !== 'success' || Number(verified.amount) !== Number(order.amount)) return order;
  const moved = await ctx.db.query<OrderRow>(
    `update orders set status = 'Paid', paid_at = now(), payment_id = $2 where id = $1 and status = 'Pending' returning *`,
    [order.id, verified.mihpayid || null],
  );
  if (moved.length === 0) return order;
  await ctx.db.query(`insert into payment_callbacks (txnid, kind, status, outcome, payload) values ($1, 'reconcile', 'success', 'paid', $2)`, [
    order.txnid,
    JSON.stringify(verified),
  ]);
  await confirmPaidOrder(ctx, moved[0], log);
  return moved[0];
}

/** Checks recent Pending orders (of one buyer when email is given) with the gateway. */
export async function reconcilePendingOrders(
  ctx: AppContext,
  options: { email?: string; olderThanSeconds?: number; limit?: number } = {},
  log: (error: unknown) => void = () => undefined,
): Promise<number> {
  const rows = await ctx.db.query<OrderRow>(
    `select * from orders
      where status = 'Pending' and amount > 0
        and created_at > now() - make_interval(days => $1)
        and created_at < now() - make_interval(secs => $2)
        and ($3::text is null or lower(email) = lower($3))
      order by created_at desc limit $4`,
    [RECONCILE_MAX_AGE_DAYS, options.olderThanSeconds ?? 0, options.email ?? null, options.limit ?? 20],
  );
  let settled = 0;
  for (const order of rows) {
    if ((await reconcilePendingOrder(ctx, order, log)).status === 'Paid') settled += 1;
  }
  return settled;
}

/** Runs reconcilePendingOrders every intervalMs in the background; returns a stop function. */
export function startPaymentReconciler(ctx: AppContext, log: (message: string) => void, intervalMs = 5 * 60_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // Orders younger than 10 minutes are most likely still on the payment page.
    reconcilePendingOrders(ctx, { olderThanSeconds: 600, limit: 50 }, (error) => log(`payment reconcile: ${String(error)}`))
      .then((settled) => settled > 0 && log(`payment reconcile: ${settled} order(s) confirmed by the gateway`))
      .catch((error) => log(`payment reconcile failed: ${String(error)}`))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
