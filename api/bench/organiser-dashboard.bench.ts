/**
 * Event Dashboard benchmark: `pnpm --filter @finishline/api bench:organiser`.
 *
 * On a PostgreSQL server (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test) it
 * creates a database of its own, migrates it and generates one event with 100,000 orders
 * (BENCH_ORDERS): 20,000 photos of 5,000 BIBs (a third by a photographer), orders of 1 to 6 photos,
 * some with a video, a print or the sponsor discount, paid, downloaded, dropped and cancelled over 60
 * days, and their funnel marks. Then it calls the organiser's event details through the real HTTP
 * API (POST /api/organiser/dashboard with event_id) BENCH_RUNS times and prints median and p95, and
 * prints each query the call runs with its plan's index use (EXPLAIN ANALYZE). The database is
 * dropped at the end.
 */
import os from 'node:os';
import path from 'node:path';
import { API_ROUTES } from '@finishline/shared/pure';
import { loadConfig } from '../src/config/config';
import { createContextWith } from '../src/createContext';
import { openDb, recordingDb, type Db } from '../src/db/db';
import { withBenchDatabase } from './benchSupport';
import { buildApp } from '../src/app';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { eventDashboard } from '../src/features/organiser/dashboard';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const PHOTOS = 20_000;
const BIBS = 5_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * The event, its photos, BIBs, a photographer, print product, sponsor offer and ORDERS orders, in SQL,
 * in one transaction with triggers off (bulk rows, lines written after their orders); the ledger's
 * sums are then computed once by ledger_rebuild, the database's own repair function.
 */
async function generate(db: Db): Promise<{ eventId: number; organiserId: number }> {
  return db.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    return generateRows(tx);
  });
}

async function generateRows(db: Db): Promise<{ eventId: number; organiserId: number }> {
  const organiserId = await createUser(db, {
    firstName: 'Bench',
    lastName: 'Organiser',
    email: 'bench.organiser@example.com',
    password: 'Finish@2026',
    isOrganiser: true,
  });
  const partnerId = await createUser(db, { firstName: 'Bench', lastName: 'Photographer', email: 'bench.photo@example.com', password: null, isPartner: true });
  const eventId = (
    await db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, location, issearchable, organiser_user_id) values ('Benchmark City Marathon', '2026-01-18', '2026-01-18', 'Mumbai', true, $1) returning id`,
      [organiserId],
    )
  )[0]!.id;
  await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [eventId, partnerId]);
  const printId = (
    await db.query<{ id: number }>(`insert into print_products (name, image_key, price) values ('Bench magnet', 'public/x.png', 739) returning id`)
  )[0]!.id;
  const offerId = (
    await db.query<{ id: number }>(
      `insert into sponsor_offers (event_id, coupon_name, sponsor_name, discount_type, discount_amount, max_orders_allowed) values ($1, 'BENCH20', 'Bench Club', 'percent', 20, 3) returning id`,
      [eventId],
    )
  )[0]!.id;
  await db.query(
    `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, seq, partner_user_id)
     select $1, 'B-' || g, case when g % 50 = 0 then 'video' else 'image' end, 'o/' || g, 'p/' || g, 't/' || g, 1600, 1067, g,
            case when g % 3 = 0 then $2::int else null end
       from generate_series(1, $3::int) g`,
    [eventId, partnerId, PHOTOS],
  );
  await db.query(
    `insert into photo_bibs (photo_id, event_id, bib_number, source)
     select p.id, p.event_id, 'BM' || (10000 + (p.seq % $2::int)), 'seed' from photos p where p.event_id = $1`,
    [eventId, BIBS],
  );
  // Orders: a deterministic spread of statuses, photo counts and extras from the order number.
  await db.query(
    `insert into orders (order_ref, txnid, event_id, bib_number, name, email, phone, status, subtotal, discount, gst, amount, amount_text,
                         productinfo, sponsor_offer_id, sponsor_photo_count, created_at, paid_at, first_download_at)
     select 'BF' || g, 'BT' || g, $1, 'BM' || (10000 + g % $3::int), 'Bench Buyer', 'buyer' || g || '@bench.example', '9800000000',
            case when g % 10 < 2 then 'Pending' when g % 10 = 2 then 'Cancelled' when g % 10 < 7 then 'Downloaded' else 'Paid' end,
            0, 0, 0, 0, '0.00', 'bench', case when g % 7 = 0 then $2::int else null end, case when g % 7 = 0 then 2 else 0 end,
            timestamp '2026-01-18 08:00' + make_interval(mins => (g * 37) % (60 * 24 * 60)),
            case when g % 10 >= 3 then timestamp '2026-01-18 08:05' + make_interval(mins => (g * 37) % (60 * 24 * 60)) end,
            case when g % 10 between 3 and 6 then timestamp '2026-01-18 09:00' + make_interval(mins => (g * 37) % (60 * 24 * 60)) end
       from generate_series(1, $4::int) g`,
    [eventId, offerId, BIBS, ORDERS],
  );
  // Lines: the photos (1 to 6 of the order's BIB), a video for one order in four, a print for one in eight.
  await db.query(
    `insert into order_items (order_id, kind, label, photo_ids, quantity, amount, discount, gst, total)
     select o.id, 'images', n || ' photos', array(select ph.photo_id from photo_bibs ph where ph.event_id = o.event_id and ph.bib_number = o.bib_number order by ph.photo_id limit n),
            n, amt, disc, round((amt - disc) * 0.18), amt - disc + round((amt - disc) * 0.18)
       from orders o
       cross join lateral (select 1 + (o.id % 6) as n) c
       cross join lateral (select case when c.n >= 5 then 500 else 100 + (c.n - 1) * 50 end as amt) a
       cross join lateral (select case when o.sponsor_offer_id is not null then round(a.amt / c.n * 0.2 * least(2, c.n)) else 0 end as disc) d
      where o.event_id = $1`,
    [eventId],
  );
  await db.query(
    `insert into order_items (order_id, kind, label, photo_ids, quantity, amount, discount, gst, total)
     select o.id, 'video', 'Video download', array[(select p.id from photos p where p.event_id = o.event_id and p.kind = 'video' order by p.id offset (o.id % 400) limit 1)], 1, 150, 0, 27, 177
       from orders o where o.event_id = $1 and o.id % 4 = 0`,
    [eventId],
  );
  await db.query(
    `insert into order_items (order_id, kind, label, photo_ids, quantity, amount, discount, gst, total, print_product_id)
     select o.id, 'print', 'Bench magnet', o_items.photo_ids[1:1], 1, 739, 0, 133, 872, $2
       from orders o join order_items o_items on o_items.order_id = o.id and o_items.kind = 'images'
      where o.event_id = $1 and o.id % 8 = 0`,
    [eventId, printId],
  );
  await db.query(
    `update orders o set subtotal = s.subtotal, discount = s.discount, gst = s.gst, amount = s.total, amount_text = to_char(s.total, 'FM999999990.00')
       from (select order_id, sum(amount) as subtotal, sum(discount) as discount, sum(gst) as gst, sum(total) as total from order_items group by order_id) s
      where s.order_id = o.id and o.event_id = $1`,
    [eventId],
  );
  await db.query(
    `insert into event_funnel_marks (event_id, step, visitor)
     select $1::int, 'search', 'bench-s-' || g from generate_series(1, $2::int * 4) g
     union all select $1::int, 'cart', 'bench-c-' || g from generate_series(1, $2::int * 2) g`,
    [eventId, ORDERS],
  );
  await db.query(
    'insert into event_funnel_counts (event_id, step, visitors) select event_id, step, count(*) from event_funnel_marks where event_id = $1 group by 1, 2',
    [eventId],
  );
  return { eventId, organiserId };
}

async function main(): Promise<void> {
  await withBenchDatabase(SERVER, run);
}

async function run({ url: databaseUrl, name, tmp }: { url: string; name: string; tmp: string }): Promise<void> {
  const url = new URL(databaseUrl);
  let db: Db | null = null;
  try {
    db = await openDb({ url: url.toString(), dataDir: null });
    const config = loadConfig({
      dataDir: tmp,
      storage: { kind: 'local', dir: path.join(tmp, 'objects') },
      seedOnStart: false,
      logLevel: 'warn',
      databaseUrl: url.toString(),
    });
    const ctx = await createContextWith(config, db);
    console.log(
      `database: PostgreSQL ${(await db.query<{ v: string }>('select current_setting($$server_version$$) as v'))[0]!.v} (${url.host}/${name}, dropped afterwards)`,
    );
    console.log(
      `machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const started = Date.now();
    const { eventId, organiserId } = await generate(db);
    const generatedIn = Date.now() - started;
    const rebuilt = Date.now();
    await db.query('select ledger_rebuild($1)', [eventId]);
    const rebuiltIn = Date.now() - rebuilt;
    // A table in steady use has been vacuumed: index-only scans need the visibility map.
    await db.exec('vacuum analyze');
    const counts = (
      await db.query<{ orders: number; items: number; paid: number }>(
        `select count(*)::int as orders, (select count(*)::int from order_items) as items, count(*) filter (where status in ('Paid', 'Downloaded'))::int as paid from orders where event_id = $1`,
        [eventId],
      )
    )[0]!;
    console.log(
      `generated in ${(generatedIn / 1000).toFixed(1)} s: ${counts.orders} orders (${counts.paid} paid), ${counts.items} order lines, ${PHOTOS} photos, ${BIBS} BIBs`,
    );
    console.log(`ledger sums computed from the orders (ledger_rebuild) in ${(rebuiltIn / 1000).toFixed(1)} s`);

    const app = await buildApp(ctx, { logger: false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const token = (await createSession(db, organiserId)).token;
    const call = async (route: string = API_ROUTES.organiserDashboard, request: object = { event_id: eventId }) => {
      const t0 = performance.now();
      const response = await fetch(`${address}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(request),
      });
      const body = (await response.json()) as { result: { totals: { totalords: number; totalrev: number } } };
      if (response.status !== 200) throw new Error(`${route} answered ${response.status}`);
      return { ms: performance.now() - t0, body };
    };
    for (let i = 0; i < 3; i++) await call();
    const samples: number[] = [];
    let last;
    for (let i = 0; i < RUNS; i++) {
      last = await call();
      samples.push(last.ms);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    console.log(`event details (POST ${API_ROUTES.organiserDashboard} with event_id), ${RUNS} calls one after another:`);
    console.log(
      `  median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`,
    );
    console.log(`  answer: ${last!.body.result.totals.totalords} paid orders, total revenue ₹${last!.body.result.totals.totalrev}`);
    // The photographers' share is its own call: it reads every photo sale of the event (rules/photoSales.ts).
    const shares: number[] = [];
    for (let i = 0; i < 3; i++) shares.push((await call(API_ROUTES.organiserPartnerShares, { eventId })).ms);
    console.log(`photographers' share (POST ${API_ROUTES.organiserPartnerShares}), 3 calls: ${shares.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);
    await app.close();

    // The plans of the queries one call runs, and which indexes they use.
    const seen: Array<{ sql: string; params: unknown[] }> = [];
    await eventDashboard(recordingDb(db, seen), organiserId, eventId);
    console.log(`query plans (${seen.length} statements per call):`);
    for (const [i, q] of seen.entries()) {
      const plan = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, timing on) ${q.sql}`, q.params);
      const lines = plan.map((r) => r['QUERY PLAN']);
      const indexes = [
        ...new Set(
          lines.flatMap((l) =>
            [...l.matchAll(/(Index Only Scan|Index Scan|Bitmap Index Scan) (?:Backward )?(?:using|on) (\w+)/g)].map((m) => `${m[1]} ${m[2]}`),
          ),
        ),
      ];
      const seqScans = [...new Set(lines.flatMap((l) => [...l.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1])))];
      const time = lines.find((l) => l.startsWith('Execution Time'));
      const first = q.sql.replace(/\s+/g, ' ').trim().slice(0, 90);
      console.log(`  ${i + 1}. ${first}...`);
      console.log(`     indexes: ${indexes.join(', ') || 'none'}${seqScans.length ? `; sequential scans: ${seqScans.join(', ')}` : ''}; ${time ?? ''}`);
      if (process.env.BENCH_PLANS === '1') for (const l of lines) console.log(`       ${l}`);
    }
  } finally {
    await db?.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
