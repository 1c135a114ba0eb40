import type { Db } from '../../db/db';
import type { OrderRow } from './orderStore';

/**
 * The site-wide marquee of the latest purchase: written when an order is paid, read by the marquee's
 * route and carried in search results. One app_settings key, read and written here (the demo seed
 * sets a first one). The value is `{ text, event_id }` (older values are the bare text).
 *
 * A race behind the privacy check is never announced: its purchases do not replace the marquee, and
 * a notice written before the organiser turned the check on is withheld on reading.
 */
export const PURCHASE_NOTIFICATION_SETTING = 'purchase_notification';

/** SQL for the stored notice unless its race is now behind the privacy check; `keyParam` binds the setting key. */
export function publicNotificationSql(keyParam: string): string {
  return `(select s.value from app_settings s where s.key = ${keyParam}
     and not exists (select 1 from events e where e.id = (s.value ->> 'event_id')::int and e.privacy_check))`;
}

/** The buyer's name is free text anyone can type at checkout, so it never becomes public: the notification names the race only. */
export function purchaseNotificationOf(order: Pick<OrderRow, 'is_preorder'>, eventName: string): string {
  return order.is_preorder ? `A runner just pre-ordered photos of ${eventName}` : `A runner just bought photos of ${eventName}`;
}

export async function recordPurchaseNotification(
  db: Db,
  order: Pick<OrderRow, 'is_preorder' | 'event_id'>,
  event: { name: string; privacy_check: boolean },
): Promise<void> {
  if (event.privacy_check) return;
  await db.query(
    `insert into app_settings (key, value, updated_at) values ($1, $2, now())
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [PURCHASE_NOTIFICATION_SETTING, JSON.stringify({ text: purchaseNotificationOf(order, event.name), event_id: order.event_id })],
  );
}

/** The latest notification, or null before the first purchase. */
export async function purchaseNotification(db: Db): Promise<string | null> {
  const rows = await db.query<{ value: unknown }>(`select ${publicNotificationSql('$1')} as value`, [PURCHASE_NOTIFICATION_SETTING]);
  return notificationFrom(rows[0]?.value);
}

/** The notification in a stored setting value (`{ text }` or the older bare text), or null. */
export function notificationFrom(value: unknown): string | null {
  const text = value && typeof value === 'object' && 'text' in value ? (value as { text: unknown }).text : value;
  return typeof text === 'string' && text ? text : null;
}
