import type { Db } from '../../db/db';
import type { OrderRow } from './orderStore';

/**
 * The site-wide marquee of the latest purchase: written when an order is paid, read by the marquee's
 * route and carried in search results. One app_settings key, read and written here (the demo seed
 * sets a first one).
 */
export const PURCHASE_NOTIFICATION_SETTING = 'purchase_notification';

/** The buyer's name is free text anyone can type at checkout, so it never becomes public: the notification names the race only. */
export function purchaseNotificationOf(order: Pick<OrderRow, 'is_preorder'>, eventName: string): string {
  return order.is_preorder ? `A runner just pre-ordered photos of ${eventName}` : `A runner just bought photos of ${eventName}`;
}

export async function recordPurchaseNotification(db: Db, order: Pick<OrderRow, 'is_preorder'>, eventName: string): Promise<void> {
  await db.query(
    `insert into app_settings (key, value, updated_at) values ($1, $2, now())
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [PURCHASE_NOTIFICATION_SETTING, JSON.stringify(purchaseNotificationOf(order, eventName))],
  );
}

/** The latest notification, or null before the first purchase. */
export async function purchaseNotification(db: Db): Promise<string | null> {
  const rows = await db.query<{ value: unknown }>('select value from app_settings where key = $1', [PURCHASE_NOTIFICATION_SETTING]);
  return notificationFrom(rows[0]?.value);
}

/** The notification in a stored setting value, or null. */
export function notificationFrom(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}
