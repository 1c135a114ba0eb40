import type { Db } from '../db/db';

/**
 * What each photo earned: the one ledger rule behind the photographer's My Share and the organiser's
 * partner figures, computed from paid orders every time (never stored twice).
 *
 * A paid order's digital lines (the images line, a package, a video) are split evenly over the
 * photos they hold, net of GST and after the sponsor discount; a mapped pre-order is split over every
 * photo of its BIB. Prints and collages are goods, not downloads: they earn the photographer nothing
 * here. Amounts are rupees before GST, unrounded (round only what is shown).
 */
export const PHOTO_SALES_CTE = `photo_sales as (
    select o.id as order_id, o.event_id, o.paid_at, sold.photo_id, sold.net
      from orders o
      join order_items i on i.order_id = o.id
      cross join lateral (
        select unnest(i.photo_ids) as photo_id, (i.amount - i.discount) / cardinality(i.photo_ids) as net
         where i.kind in ('images', 'pack', 'video') and cardinality(i.photo_ids) > 0
        union all
        select b.photo_id, (i.amount - i.discount) / count(*) over () as net
          from photo_bibs b
         where i.kind = 'preorder' and b.event_id = o.event_id and b.bib_number = o.bib_number
      ) sold
     where o.status in ('Paid', 'Downloaded')
  )`;

export interface PartnerSalesRow {
  [column: string]: unknown;
  event_id: number;
  partner_user_id: number;
  share_percent: number;
  /** Paid orders holding at least one of the partner's photos. */
  orders: number;
  /** Photos of any photographer in those orders. */
  images_in_orders: number;
  /** The partner's own photos sold (a photo sold twice counts twice). */
  partner_images: number;
  /** Net sales of the partner's photos, rupees before GST. */
  sales: number;
  /** The partner's share of those sales. */
  share: number;
}

/**
 * Sales of each photographer's photos, per event: for one partner (My Share), one event (the
 * organiser's ledger) or both. The share percentage is the one agreed for that event.
 */
export async function partnerSales(db: Db, filter: { partnerUserId?: number; eventId?: number }): Promise<PartnerSalesRow[]> {
  return db.query<PartnerSalesRow>(
    `with ${PHOTO_SALES_CTE},
     mine as (
       select s.*, p.partner_user_id from photo_sales s join photos p on p.id = s.photo_id
        where p.partner_user_id is not null
          and ($1::int is null or p.partner_user_id = $1) and ($2::int is null or s.event_id = $2)
     )
     select m.event_id, m.partner_user_id, coalesce(ep.share_percent, 70) as share_percent,
            count(distinct m.order_id)::int as orders,
            (select count(*) from photo_sales a where a.order_id in (select order_id from mine x where x.event_id = m.event_id and x.partner_user_id = m.partner_user_id))::int as images_in_orders,
            count(*)::int as partner_images,
            sum(m.net)::float8 as sales,
            (sum(m.net) * coalesce(ep.share_percent, 70) / 100)::float8 as share
       from mine m left join event_partners ep on ep.event_id = m.event_id and ep.user_id = m.partner_user_id
      group by m.event_id, m.partner_user_id, ep.share_percent
      order by m.event_id, m.partner_user_id`,
    [filter.partnerUserId ?? null, filter.eventId ?? null],
  );
}
