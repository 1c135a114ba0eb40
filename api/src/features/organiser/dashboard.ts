import type {
  AnalyticsRow,
  DailySalesRow,
  EventLedger,
  EventRevenueRow,
  EventRevenueTotals,
  FunnelRow,
  OrganiserDashboardResult,
  PartnerShareRow,
  ProductRevenueRow,
  SponsorDiscountRow,
} from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { partnerSales } from '../../rules/photoSales';
import { SPONSOR_PENDING_HOLD_MINUTES } from '../../rules/sponsorOffer';
import { organiserEvents } from './events';

/**
 * The Event Dashboard's figures. Revenue counts paid orders (Paid and Downloaded) with the very
 * columns the order history shows: an order's Order Value is orders.amount and its GST orders.gst,
 * so the dashboard's totals are the sums of what the runners see in the account remote. The sums are
 * read from the rollups the database keeps in the same transaction as every order change (migration
 * 601: event_sales_rollup, event_product_rollup, event_photo_sold, event_funnel_counts), so an event
 * with 100,000 orders answers in milliseconds; ledger_rebuild recomputes them from the orders.
 */

/** Money as the dashboard shows it: rupees with at most two decimals. */
const money = (value: unknown) => Math.round(Number(value ?? 0) * 100) / 100;

const PAID = `status in ('Paid', 'Downloaded')`;

interface SalesJson {
  [column: string]: unknown;
  revenue: EventRevenueRow[] | null;
  daily: DailySalesRow[] | null;
  products: ProductRevenueRow[] | null;
  sponsors: SponsorDiscountRow[] | null;
}

/** Revenue by photo price, sales per day, revenue by product and sponsor discounts, from the rollups. */
async function salesOfEvent(db: Db, eventId: number): Promise<SalesJson> {
  const rows = await db.query<SalesJson>(
    `select
       (select json_agg(r order by r.price_kind, r.price) from (
          select price::float8 as price, price_kind, sum(orders)::int as totalords, sum(video_net)::float8 as videoval, sum(print_net)::float8 as printval,
                 sum(discount)::float8 as discountamount, sum(amount - gst)::float8 as ordval, sum(photos)::int as photos_count,
                 sum(gst)::float8 as tax, sum(amount)::float8 as totalrev
            from event_sales_rollup where event_id = $1 and ${PAID}
           group by price, price_kind having sum(orders) <> 0) r) as revenue,
       (select json_agg(d order by d.day) from (
          select to_char(day, 'YYYY-MM-DD') as day, sum(orders)::int as orders, sum(amount)::float8 as revenue
            from event_sales_rollup where event_id = $1 and ${PAID}
           group by day having sum(orders) <> 0) d) as daily,
       (select json_agg(k order by k.product) from (
          select kind as product, sum(quantity)::int as quantity, sum(net)::float8 as net, sum(discount)::float8 as discount, sum(gst)::float8 as gst, sum(total)::float8 as total
            from event_product_rollup where event_id = $1 and ${PAID}
           group by kind having sum(quantity) <> 0) k) as products,
       (select json_agg(s order by s.sponsor_name) from (
          select so.sponsor_name, so.coupon_name, sum(r.orders)::int as orders, sum(r.sponsor_photos)::int as photos, sum(r.discount)::float8 as discount
            from event_sales_rollup r join sponsor_offers so on so.id = r.sponsor_offer_id
           where r.event_id = $1 and r.${PAID} and r.sponsor_offer_id <> 0
           group by so.id, so.sponsor_name, so.coupon_name having sum(r.orders) <> 0) s) as sponsors`,
    [eventId],
  );
  return rows[0]!;
}

interface RefundSums {
  [column: string]: unknown;
  price_kind: EventRevenueRow['price_kind'];
  price: number;
  day: string;
  kind: ProductRevenueRow['product'];
  amount: number;
  gst: number;
}

/**
 * Refunds of the event's print and collage lines that the gateway accepted (migration 411), by the
 * revenue row of their order (its photo price), the order's day of payment and the product. They are
 * few, so they are read at each call through print_refunds_event_idx rather than kept in a rollup.
 */
async function refundsOfEvent(db: Db, eventId: number): Promise<RefundSums[]> {
  return db.query<RefundSums>(
    `select x.main_kind as price_kind, x.main_price::float8 as price, to_char((coalesce(o.paid_at, o.created_at) at time zone 'Asia/Kolkata')::date, 'YYYY-MM-DD') as day,
            l.kind, sum(r.amount)::float8 as amount, sum(r.gst)::float8 as gst
       from print_refunds r
       join print_lines l on l.id = r.line_id
       join orders o on o.id = r.order_id
       cross join lateral (
         select coalesce(min(i.kind) filter (where i.kind in ('images', 'pack', 'preorder')), 'none') as main_kind,
                coalesce(max(i.amount) filter (where i.kind in ('images', 'pack', 'preorder')), 0) as main_price
           from order_items i where i.order_id = o.id) x
      where r.event_id = $1 and r.status = 'refunded' and o.${PAID}
      group by 1, 2, 3, 4`,
    [eventId],
  );
}

/** Takes accepted refunds off the revenue rows, the days and the products (each row says what it lost in refunded). */
function lessRefunds(sales: SalesJson, refunds: RefundSums[]): SalesJson {
  const sum = (rows: RefundSums[], pick: (r: RefundSums) => number) => rows.reduce((s, r) => s + pick(r), 0);
  return {
    ...sales,
    revenue: (sales.revenue ?? []).map((row) => {
      const mine = refunds.filter((r) => r.price_kind === row.price_kind && money(r.price) === money(row.price));
      const amount = sum(mine, (r) => r.amount);
      const net = amount - sum(mine, (r) => r.gst);
      return {
        ...row,
        printval: row.printval - net,
        ordval: row.ordval - net,
        tax: row.tax - (amount - net),
        totalrev: row.totalrev - amount,
        refunded: amount,
      };
    }),
    daily: (sales.daily ?? []).map((d) => ({
      ...d,
      revenue:
        d.revenue -
        sum(
          refunds.filter((r) => r.day === d.day),
          (r) => r.amount,
        ),
    })),
    products: (sales.products ?? []).map((p) => {
      const mine = refunds.filter((r) => r.kind === p.product);
      const amount = sum(mine, (r) => r.amount);
      const gst = sum(mine, (r) => r.gst);
      return { ...p, net: p.net - (amount - gst), gst: p.gst - gst, total: p.total - amount, refunded: amount };
    }),
  };
}

interface StageCounts {
  [column: string]: unknown;
  dropped: number;
  dropped_amount: number;
  in_progress: number;
  in_progress_amount: number;
  booked: number;
  booked_amount: number;
  downloaded: number;
  downloaded_amount: number;
  cancelled: number;
  cancelled_amount: number;
  searches: number;
  carts: number;
}

/**
 * Orders by stage: Paid, Downloaded and Cancelled from the rollup; a Pending order is "dropped" once
 * it is older than the payment page's life (read by age through orders_event_pending_idx).
 */
async function stagesOfEvent(db: Db, eventId: number): Promise<StageCounts> {
  const rows = await db.query<StageCounts>(
    `with pending as (
       select count(*) filter (where created_at <= now() - make_interval(mins => $2))::int as dropped,
              coalesce(sum(amount) filter (where created_at <= now() - make_interval(mins => $2)), 0)::float8 as dropped_amount,
              count(*) filter (where created_at > now() - make_interval(mins => $2))::int as in_progress,
              coalesce(sum(amount) filter (where created_at > now() - make_interval(mins => $2)), 0)::float8 as in_progress_amount
         from orders where event_id = $1 and status = 'Pending'
     ),
     settled as (
       select coalesce(sum(orders) filter (where status = 'Paid'), 0)::int as booked, coalesce(sum(amount) filter (where status = 'Paid'), 0)::float8 as booked_amount,
              coalesce(sum(orders) filter (where status = 'Downloaded'), 0)::int as downloaded, coalesce(sum(amount) filter (where status = 'Downloaded'), 0)::float8 as downloaded_amount,
              coalesce(sum(orders) filter (where status = 'Cancelled'), 0)::int as cancelled, coalesce(sum(amount) filter (where status = 'Cancelled'), 0)::float8 as cancelled_amount
         from event_sales_rollup where event_id = $1 and status <> 'Pending'
     )
     select pending.*, settled.*,
            coalesce((select visitors from event_funnel_counts where event_id = $1 and step = 'search'), 0) as searches,
            coalesce((select visitors from event_funnel_counts where event_id = $1 and step = 'cart'), 0) as carts
       from pending, settled`,
    [eventId, SPONSOR_PENDING_HOLD_MINUTES],
  );
  return rows[0]!;
}

/** BIBs with photos, the event's ready photos, and how many different photos were sold. */
async function photoTotals(db: Db, eventId: number): Promise<{ totalbibs: number; totalimgs: number; totunqimgs: number }> {
  const rows = await db.query<{ totalbibs: number; totalimgs: number; totunqimgs: number }>(
    `select (select count(distinct b.bib_number) from photo_bibs b join photos p on p.id = b.photo_id where b.event_id = $1 and p.status = 'ready')::int as totalbibs,
            (select count(*) from photos p where p.event_id = $1 and p.status = 'ready' and p.kind = 'image')::int as totalimgs,
            (select count(*) from event_photo_sold s where s.event_id = $1 and s.orders > 0)::int as totunqimgs`,
    [eventId],
  );
  return rows[0]!;
}

/** Each photographer's share of the event's sales: the one ledger rule (rules/photoSales.ts) with names. */
export async function partnerShares(db: Db, eventId: number): Promise<PartnerShareRow[]> {
  const sales = await partnerSales(db, { eventId });
  const registered = await db.query<{ user_id: number; name: string; nickname: string; share_percent: number }>(
    `select u.id as user_id, u.first_name || ' ' || u.last_name as name, coalesce(pp.nickname, '') as nickname, coalesce(r.share_percent, 70) as share_percent
       from users u left join partner_profiles pp on pp.user_id = u.id left join event_partners r on r.user_id = u.id and r.event_id = $1
      where u.id = any($2::int[]) or (r.event_id = $1 and r.status = 'approved')`,
    [eventId, sales.map((s) => s.partner_user_id)],
  );
  return registered
    .map((p) => {
      const s = sales.find((row) => row.partner_user_id === p.user_id);
      return {
        partner_user_id: p.user_id,
        name: p.name,
        nickname: p.nickname,
        share_percent: s?.share_percent ?? p.share_percent,
        orders: s?.orders ?? 0,
        partner_images: s?.partner_images ?? 0,
        sales: money(s?.sales),
        share: money(s?.share),
      };
    })
    .sort((a, b) => b.share - a.share || a.name.localeCompare(b.name));
}

function funnelOf(stages: StageCounts, ordersCreated: number, paid: number): FunnelRow[] {
  const steps: Array<[FunnelRow['step'], number]> = [
    ['searches', stages.searches],
    ['carts', stages.carts],
    ['orders created', ordersCreated],
    ['paid', paid],
    ['downloaded', stages.downloaded],
  ];
  return steps.map(([step, count], i) => {
    const previous = i === 0 ? count : steps[i - 1]![1];
    const drop = i === 0 ? 0 : Math.max(0, previous - count);
    return { step, count, drop, drop_percent: previous > 0 ? Math.round((drop * 1000) / previous) / 10 : 0 };
  });
}

export function totalsOf(rows: EventRevenueRow[]): EventRevenueTotals {
  const sum = (pick: (r: EventRevenueRow) => number) => money(rows.reduce((s, r) => s + pick(r), 0));
  return {
    totalords: rows.reduce((s, r) => s + r.totalords, 0),
    videoval: sum((r) => r.videoval),
    printval: sum((r) => r.printval),
    discountamount: sum((r) => r.discountamount),
    ordval: sum((r) => r.ordval),
    photos_count: rows.reduce((s, r) => s + r.photos_count, 0),
    tax: sum((r) => r.tax),
    totalrev: sum((r) => r.totalrev),
    refunded: sum((r) => r.refunded),
  };
}

/** The spec's organiser dashboard result for one event, with the live ledger. */
export async function eventDashboard(db: Db, organiserId: number, eventId: number): Promise<OrganiserDashboardResult> {
  const [events, kept, refunds, stages, photos] = await Promise.all([
    organiserEvents(db, organiserId),
    salesOfEvent(db, eventId),
    refundsOfEvent(db, eventId),
    stagesOfEvent(db, eventId),
    photoTotals(db, eventId),
  ]);
  const sales = lessRefunds(kept, refunds);
  const revenue = (sales.revenue ?? []).map((r) => ({
    ...r,
    price: money(r.price),
    videoval: money(r.videoval),
    printval: money(r.printval),
    discountamount: money(r.discountamount),
    ordval: money(r.ordval),
    tax: money(r.tax),
    totalrev: money(r.totalrev),
    refunded: money(r.refunded),
  }));
  const analytics: AnalyticsRow[] = [
    { stage: 'payment pending (dropped)', orders: stages.dropped, amount: money(stages.dropped_amount) },
    { stage: 'payment in progress', orders: stages.in_progress, amount: money(stages.in_progress_amount) },
    { stage: 'booked with download pending', orders: stages.booked, amount: money(stages.booked_amount) },
    { stage: 'downloaded', orders: stages.downloaded, amount: money(stages.downloaded_amount) },
    { stage: 'cancelled', orders: stages.cancelled, amount: money(stages.cancelled_amount) },
  ];
  const ordersCreated = stages.dropped + stages.in_progress + stages.booked + stages.downloaded + stages.cancelled;
  const ledger: EventLedger = {
    daily: (sales.daily ?? []).map((d) => ({ ...d, revenue: money(d.revenue) })),
    funnel: funnelOf(stages, ordersCreated, stages.booked + stages.downloaded),
    products: (sales.products ?? []).map((p) => ({
      ...p,
      net: money(p.net),
      discount: money(p.discount),
      gst: money(p.gst),
      total: money(p.total),
      refunded: money(p.refunded),
    })),
    sponsors: (sales.sponsors ?? []).map((s) => ({ ...s, discount: money(s.discount) })),
  };
  return {
    eventslist: events.filter((e) => e.event_id === eventId),
    event_revenue: revenue,
    totals: totalsOf(revenue),
    totalbibs: { totalbibs: photos.totalbibs },
    totalimgs: { totalimgs: photos.totalimgs },
    totunqimgs: photos.totunqimgs,
    analytics,
    ledger,
  };
}

/** The spec's event list call: every event this organiser runs. */
export async function dashboardEventList(db: Db, organiserId: number): Promise<OrganiserDashboardResult> {
  return { eventslist: await organiserEvents(db, organiserId) };
}
