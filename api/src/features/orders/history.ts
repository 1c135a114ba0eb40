import type { OrderHistoryRow } from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import type { UserRow } from '../accounts';
import { accountOwnsOrderSql } from './access';

/**
 * The signed-in account's orders (accountOwnsOrderSql: under its address, and placed signed in to it
 * or the address proven), newest first, filtered by event name, BIB or order reference when
 * searchtext is given.
 */
export async function orderHistory(db: Db, account: Pick<UserRow, 'id' | 'email' | 'email_verified_at'>, searchtext: string): Promise<OrderHistoryRow[]> {
  const search = searchtext.trim();
  const rows = await db.query<{
    name: string;
    order_ref: string;
    bib_number: string;
    photos_count: number;
    amount: number;
    gst: number;
    payment_id: string | null;
    status: OrderHistoryRow['status'];
    email: string;
    phone: string;
    event_id: number;
    unlabeled: boolean;
    is_preorder: boolean;
  }>(
    `select e.name, o.order_ref, o.bib_number, o.amount, o.gst, o.payment_id, o.status, o.email, o.phone, o.event_id,
            o.unlabeled, o.is_preorder,
            coalesce((select sum(cardinality(i.photo_ids)) from order_items i where i.order_id = o.id and i.kind in ('images', 'pack', 'video')), 0)::int as photos_count
       from orders o join events e on e.id = o.event_id
      where ${accountOwnsOrderSql('o', '$3', '$1', '$4')}
        and ($2 = '' or e.name ilike '%' || $2 || '%' or o.bib_number ilike '%' || $2 || '%' or o.order_ref ilike '%' || $2 || '%')
      order by o.created_at desc, o.id desc`,
    [account.email, search.replace(/[%_\\]/g, (c) => `\\${c}`), account.id, account.email_verified_at !== null],
  );
  return rows.map((r, i) => ({
    index: i + 1,
    name: r.name,
    order_ref: r.order_ref,
    bib_id: r.bib_number,
    photos_count: r.photos_count,
    price: Number(r.amount),
    gst: Number(r.gst),
    payment_id: r.payment_id,
    status: r.status,
    email: r.email,
    phone: r.phone,
    event_id: r.event_id,
    unlabeled: r.unlabeled,
    is_preorder: r.is_preorder,
  }));
}
