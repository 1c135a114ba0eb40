import { computeBill, payuAmount, PricingError, type CartLine, type PricingCatalog, type PrintProduct } from '@finishline/shared/pure';
import type { AppContext } from '../context';
import type { Db } from '../db/db';
import { createUser, findUserByEmail } from '../features/accounts';
import { sealPartnerSecrets } from '../features/partners';
import { pricingCatalogOf, type EventRow } from '../features/events';
import { insertOrder } from '../features/orders';
import { disabledPrintEventIds, printProducts } from '../rules/prints';
import { sponsorOfferOf } from '../rules/sponsorOffer';
import { createPrng, type Prng } from './prng';

/**
 * Demo data for the organiser's Event Dashboard, added after the demo seed (its own app_settings row,
 * so it also reaches a data folder seeded before): orders across the demo organiser's events, priced
 * by the shop's own computeBill and stored as checkout stores them, then dated over the weeks after
 * each race: paid, downloaded, dropped at the gateway and cancelled, with prints, videos, collages,
 * packages and the sponsor discount; the first funnel steps; photographers whose photos sold (one
 * approved, one waiting for the organiser); and two "Not me" reports in the moderation queue.
 *
 * Buyers are fictional addresses, never a demo account, and no demo order takes the sponsor offer of
 * a BIB the journeys use: the runner's order history and those BIBs' sponsor caps stay as they were.
 */
export const ORGANISER_DEMO_SETTING = 'organiser_demo_seed';

interface DemoEventPlan {
  name: string;
  orders: number;
  days: number;
  searches: number;
  carts: number;
}
const PLANS: DemoEventPlan[] = [
  { name: 'Mumbai Coastal Marathon 2026', orders: 260, days: 60, searches: 1480, carts: 560 },
  { name: 'Bengaluru Heritage Half 2025', orders: 60, days: 45, searches: 310, carts: 120 },
];
/** The sponsor offer is taken only for BIBs no journey uses: the others' sponsor caps stay whole. */
const SPONSOR_BIBS = new Set(['TT20613', 'TT20614', 'TT20615', 'TT20616']);

interface EventFull extends EventRow {
  event_date: string;
}

interface BibMedia {
  bib: string;
  images: number[];
  videos: number[];
}

async function mediaByBib(db: Db, eventId: number): Promise<BibMedia[]> {
  const rows = await db.query<{ bib_number: string; images: number[]; videos: number[] }>(
    `select b.bib_number,
            coalesce(array_agg(p.id order by p.seq, p.id) filter (where p.kind = 'image'), '{}') as images,
            coalesce(array_agg(p.id order by p.seq, p.id) filter (where p.kind = 'video'), '{}') as videos
       from photo_bibs b join photos p on p.id = b.photo_id
      where b.event_id = $1 and p.status = 'ready'
      group by b.bib_number order by b.bib_number`,
    [eventId],
  );
  return rows.map((r) => ({ bib: r.bib_number, images: r.images, videos: r.videos }));
}

function pickSome<T>(rng: Prng, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]!);
  return out;
}

/** One demo cart of a BIB: photos (or a package), maybe a video, a print, a collage and the sponsor offer. */
function demoCart(rng: Prng, media: BibMedia, catalog: PricingCatalog, prints: PrintProduct[], printsAllowed: boolean, sponsorLeft: number) {
  const lines: CartLine[] = [];
  let packageKind: 'a' | null = null;
  let images: number[];
  if (catalog.show_prempack && media.images.length >= catalog.threshold_photo_count && rng.chance(0.35)) {
    packageKind = 'a';
    images = pickSome(rng, media.images, rng.int(catalog.threshold_photo_count, Math.min(media.images.length, catalog.threshold_photo_count + 8)));
  } else {
    images = pickSome(rng, media.images, rng.pick([1, 1, 1, 2, 2, 3, 3, 4, 5, 6]));
  }
  for (const id of images) lines.push({ type: 'download', category: 'image', id });
  if (media.videos.length > 0 && rng.chance(0.35)) lines.push({ type: 'download', category: 'video', id: media.videos[0]! });
  if (printsAllowed && prints.length > 0 && rng.chance(0.16))
    lines.push({ type: 'print', category: 'image', id: images[0]!, printProductId: rng.pick(prints).id });
  if (printsAllowed && images.length >= 3 && rng.chance(0.07)) {
    lines.push({
      type: 'collage',
      category: 'image',
      id: images[0]!,
      collagePhotoIds: images.slice(0, 3),
      orientation: rng.chance(0.5) ? 'Vertical' : 'Horizontal',
    });
  }
  const offer = catalog.sponsorOffer;
  const useOffer = offer !== null && packageKind === null && SPONSOR_BIBS.has(media.bib) && sponsorLeft > 0 && rng.chance(0.3);
  const discounted = useOffer ? images.slice(0, Math.min(images.length, sponsorLeft)) : [];
  return { lines, packageKind, sponsorofferID: useOffer ? offer.id : null, discountedPhotoIds: discounted };
}

const isoAt = (date: string, days: number, seconds: number) => new Date(Date.parse(`${date}T06:30:00+05:30`) + days * 86_400_000 + seconds * 1000);

async function seedEventOrders(ctx: AppContext, tx: Db, event: EventFull, plan: DemoEventPlan): Promise<number> {
  const media = await mediaByBib(tx, event.id);
  if (media.length === 0) return 0;
  const printsAllowed = !(await disabledPrintEventIds(tx)).includes(event.id);
  const prints = printsAllowed ? await printProducts({ ...ctx, db: tx }, event.id) : [];
  const offer = await sponsorOfferOf(tx, event.id);
  const catalog = pricingCatalogOf(event, prints, offer);
  const sponsorUsed = new Map<string, number>();
  let made = 0;
  for (let i = 0; i < plan.orders; i++) {
    const rng = createPrng(`organiser-demo/${event.name}/${i}`);
    const bibMedia = rng.pick(media);
    const left = offer ? offer.max_orders_allowed - (sponsorUsed.get(bibMedia.bib) ?? 0) : 0;
    const cart = demoCart(rng, bibMedia, catalog, prints, printsAllowed, left);
    let bill;
    try {
      bill = computeBill({
        cart: {
          searchKind: 'bib',
          packageKind: cart.packageKind,
          lines: cart.lines,
          sponsorofferID: cart.sponsorofferID,
          discountedPhotoIds: cart.discountedPhotoIds,
        },
        catalog,
      });
    } catch (error) {
      if (error instanceof PricingError) continue;
      throw error;
    }
    const roll = rng.next();
    const status = roll < 0.17 ? 'Pending' : roll < 0.2 ? 'Cancelled' : rng.chance(0.55) ? 'Downloaded' : 'Paid';
    const paid = status === 'Paid' || status === 'Downloaded';
    // Most orders come in the first days after the race.
    const created = isoAt(event.event_date, Math.floor(plan.days * rng.next() ** 2), rng.int(0, 14 * 3600));
    const sponsorPhotos = paid || status === 'Pending' ? bill.discountedPhotoIds.length : 0;
    if (sponsorPhotos > 0) sponsorUsed.set(bibMedia.bib, (sponsorUsed.get(bibMedia.bib) ?? 0) + sponsorPhotos);
    const order = await insertOrder(
      tx,
      {
        userId: null,
        eventId: event.id,
        bibNumber: bibMedia.bib,
        name: 'Demo Buyer',
        email: `buyer-${event.id}-${i}@demo.finishline.test`,
        phone: `98${String(10_000_000 + i * 7919).slice(0, 8)}`,
        isdCode: '+91',
        pincode: '400001',
        status: 'Pending',
        subtotal: bill.subtotal,
        discount: bill.discount,
        gst: bill.gstInfo[0]?.gst_amount ?? 0,
        amount: bill.total_amount,
        amountText: payuAmount(bill.total_amount),
        productinfo: `${event.name} BIB ${bibMedia.bib}`.slice(0, 100),
        searchKind: 'bib',
        packageKind: cart.packageKind,
        bundle: bill.appliedPackage,
        unlabeled: false,
        isPreorder: false,
        sponsorOfferId: bill.offerInfo ? cart.sponsorofferID : null,
        sponsorPhotoCount: bill.discountedPhotoIds.length,
        cartInfo: { searchKind: 'bib', packageKind: cart.packageKind, lines: cart.lines, discountedPhotoIds: cart.discountedPhotoIds },
      },
      bill.lines,
    );
    const paidAt = paid ? new Date(created.getTime() + rng.int(90, 600) * 1000) : null;
    const downloadedAt = status === 'Downloaded' && paidAt ? new Date(paidAt.getTime() + rng.int(60, 72 * 3600) * 1000) : null;
    await tx.query(
      `update orders set status = $2, created_at = $3, paid_at = $4, first_download_at = $5, payment_id = $6, payment_mode = $7,
              sponsor_photo_count = case when $2 = 'Cancelled' then 0 else sponsor_photo_count end
        where id = $1`,
      [order.id, status, created, paidAt, downloadedAt, paid ? `DEMO${order.id}` : null, paid ? 'CC' : null],
    );
    made++;
  }
  await tx.query(
    `insert into event_funnel_marks (event_id, step, visitor)
     select $1::int, 'search', 'demo-search-' || g from generate_series(1, $2::int) g
     union all select $1::int, 'cart', 'demo-cart-' || g from generate_series(1, $3::int) g
     on conflict do nothing`,
    [event.id, plan.searches, plan.carts],
  );
  return made;
}

const DEMO_PROFILE = `insert into partner_profiles (user_id, first_name, last_name, mobile, nickname, bank_account_name, bank_account_number_enc, bank_account_last4,
    bank_account_type, bank_name, bank_branch, bank_ifsc, pan_enc, pan_last4)
  values ($1, $2, $3, $4, $5, $6, $7, $8, 1, 'State Bank of India', $9, 'SBIN0000300', $10, $11)
  on conflict (user_id) do nothing`;

/** A demo profile with its (fictional) account number and PAN sealed as a real registration stores them. */
async function insertDemoProfile(
  tx: Db,
  key: Buffer,
  userId: number,
  p: { first: string; last: string; mobile: string; nickname: string; branch: string; account: string; pan: string },
) {
  const s = sealPartnerSecrets(key, userId, { accountNumber: p.account, pan: p.pan });
  await tx.query(DEMO_PROFILE, [
    userId,
    p.first,
    p.last,
    p.mobile,
    p.nickname,
    `${p.first} ${p.last}`,
    s.accountNumberEnc,
    s.accountLast4,
    p.branch,
    s.panEnc,
    s.panLast4,
  ]);
}

/**
 * Photographers: the demo partner, approved for the main event (70%) and the second one (65%), whose
 * photos sold at both, and one photographer waiting for a decision.
 */
async function seedPhotographers(tx: Db, key: Buffer, mainEventId: number, otherEventId: number | null): Promise<void> {
  const partner = await findUserByEmail(tx, 'partner@finishline.test');
  if (partner) {
    await insertDemoProfile(tx, key, partner.id, {
      first: 'Kabir',
      last: 'Shah',
      mobile: '9820034567',
      nickname: 'kabirsh',
      branch: 'Fort, Mumbai',
      account: '50100234564321',
      pan: 'ABKPS4321F',
    });
    await tx.query(
      `insert into event_partners (event_id, user_id, status, dates_available, remarks, share_percent, decided_by, decided_at)
       values ($1, $2, 'approved', '{2026-01-18}', 'Finish line gantry, two bodies, 70-200 mm', 70,
               (select organiser_user_id from events where id = $1), now()) on conflict do nothing`,
      [mainEventId, partner.id],
    );
    if (otherEventId !== null) {
      await tx.query(
        `insert into event_partners (event_id, user_id, status, dates_available, remarks, share_percent, decided_by, decided_at)
         select e.id, $2, 'approved', array[e.from_date], 'Start and km 15, one body, 24-70 mm', 65, e.organiser_user_id, now()
           from events e where e.id = $1 on conflict do nothing`,
        [otherEventId, partner.id],
      );
      // Their photos there: every other photo of the race.
      await tx.query(`update photos p set partner_user_id = $2 where p.event_id = $1 and p.partner_user_id is null and p.id % 2 = 0`, [
        otherEventId,
        partner.id,
      ]);
    }
    // The demo partner shot the mid-pack BIBs: their sales show in the partner column of the ledger.
    await tx.query(
      `update photos p set partner_user_id = $2 from photo_bibs b
        where b.photo_id = p.id and p.event_id = $1 and b.bib_number in ('TT20609', 'TT20610', 'TT20611', 'TT20612') and p.partner_user_id is null`,
      [mainEventId, partner.id],
    );
  }
  const ishita =
    (await findUserByEmail(tx, 'ishita.photo@finishline.test'))?.id ??
    (await createUser(tx, { firstName: 'Ishita', lastName: 'Verma', email: 'ishita.photo@finishline.test', password: null, primaryPhone: '9820056789' }));
  await insertDemoProfile(tx, key, ishita, {
    first: 'Ishita',
    last: 'Verma',
    mobile: '9820056789',
    nickname: 'ishitav',
    branch: 'Indiranagar, Bengaluru',
    account: '918020018765',
    pan: 'AIVPV4765Q',
  });
  for (const eventId of [mainEventId, otherEventId].filter((id): id is number => id !== null)) {
    await tx.query(
      `insert into event_partners (event_id, user_id, dates_available, remarks) values ($1, $2, '{}', 'Course photos at km 10 and 30, drone on request') on conflict do nothing`,
      [eventId, ishita],
    );
  }
}

/** Two runners' "Not me" reports waiting in the organiser's queue. */
async function seedReports(tx: Db, eventId: number): Promise<void> {
  const reporter =
    (await findUserByEmail(tx, 'arjun.menon@runners.finishline.test'))?.id ??
    (await createUser(tx, { firstName: 'Arjun', lastName: 'Menon', email: 'arjun.menon@runners.finishline.test', password: null }));
  await tx.query(
    `insert into photo_reports (photo_id, event_id, bib_number, reporter_user_id, created_at)
     select b.photo_id, b.event_id, b.bib_number, $2, now() - make_interval(hours => 3 + (row_number() over (order by b.photo_id))::int)
       from photo_bibs b where b.event_id = $1 and b.bib_number = 'TT20609' order by b.photo_id limit 2
     on conflict do nothing`,
    [eventId, reporter],
  );
}

/** Adds the organiser's demo data once; does nothing when its row exists or the demo events are absent. */
export async function seedOrganiserDemo(ctx: AppContext, log: (message: string) => void = () => undefined): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (tx.kind === 'postgres') await tx.query('select pg_advisory_xact_lock(872351)');
    const done = await tx.query('select 1 from app_settings where key = $1', [ORGANISER_DEMO_SETTING]);
    if (done.length > 0) return;
    const events = await tx.query<EventFull>(`select e.*, to_char(e.from_date, 'YYYY-MM-DD') as event_date from events e where e.name = any($1::text[])`, [
      PLANS.map((p) => p.name),
    ]);
    if (events.length === 0) return;
    const main = events.find((e) => e.name === PLANS[0]!.name);
    // Photographers first: the partner's photos must carry their name before the orders are counted.
    if (main) await seedPhotographers(tx, ctx.config.partnerDataKey, main.id, events.find((e) => e.name === PLANS[1]!.name)?.id ?? null);
    let total = 0;
    for (const plan of PLANS) {
      const event = events.find((e) => e.name === plan.name);
      if (event) total += await seedEventOrders(ctx, tx, event, plan);
    }
    if (main) await seedReports(tx, main.id);
    await tx.query('insert into app_settings (key, value) values ($1, $2)', [ORGANISER_DEMO_SETTING, JSON.stringify({ version: 1, orders: total })]);
    log(`organiser demo: ${total} orders across ${events.length} events, photographers and reports`);
  });
}
