import sharp from 'sharp';
import { API_ROUTES, type OrderHistoryRow, type PaymentForm } from '@finishline/shared/pure';
import type { AppContext } from '../src/context';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { insertTestPhoto } from './support/photos';
import type { TestApp } from './support/testApp';

/**
 * The organiser's world for the API tests: an organiser running one event with photos of two BIBs
 * (one tagged with a photographer's photos), a video, a print product and a sponsor offer; a rival
 * organiser with an event of their own; a runner, and a photographer partner.
 */
export interface OrganiserFixture {
  eventId: number;
  eventName: string;
  rivalEventId: number;
  bib: string;
  photoIds: number[];
  partnerPhotoIds: number[];
  videoId: number;
  printProductId: number;
  offerId: number;
  users: Record<'organiser' | 'rival' | 'runner' | 'partner', number>;
  tokens: Record<'organiser' | 'rival' | 'runner' | 'partner', string>;
}

export const as = (token: string) => ({ authorization: `Bearer ${token}` });

export async function seedOrganiserFixture(ctx: AppContext): Promise<OrganiserFixture> {
  const db = ctx.db;
  const users = {
    organiser: await createUser(db, { firstName: 'Olga', lastName: 'Org', email: 'olga.org@example.com', password: 'Finish@2026', isOrganiser: true }),
    rival: await createUser(db, { firstName: 'Ravi', lastName: 'Rival', email: 'ravi.rival@example.com', password: 'Finish@2026', isOrganiser: true }),
    runner: await createUser(db, { firstName: 'Asha', lastName: 'Rao', email: 'asha.rao@example.com', password: 'Finish@2026' }),
    partner: await createUser(db, { firstName: 'Farah', lastName: 'Photo', email: 'farah.photo@example.com', password: 'Finish@2026', isPartner: true }),
  };
  const eventName = 'Lakeside Half 2026';
  const eventId = (
    await db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, location, issearchable, showunlabeled, organiser_user_id) values ($1, '2026-10-04', '2026-10-04', 'Udaipur', true, true, $2) returning id`,
      [eventName, users.organiser],
    )
  )[0]!.id;
  const rivalEventId = (
    await db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, organiser_user_id) values ('Rival Ridge 2026', '2026-11-01', '2026-11-01', $1) returning id`,
      [users.rival],
    )
  )[0]!.id;
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer();
  const media = async (bib: string | null, imageId: string, kind: 'image' | 'video' = 'image', partner: number | null = null) => {
    const key = `originals/${eventId}/${imageId}.${kind === 'video' ? 'mp4' : 'jpg'}`;
    await ctx.storage.put(key, jpeg, 'image/jpeg');
    await ctx.storage.put(`thumbs/${eventId}/${imageId}.jpg`, jpeg, 'image/jpeg');
    const id = await insertTestPhoto(db, {
      eventId,
      bib,
      imageId,
      kind,
      originalKey: key,
      previewKey: `thumbs/${eventId}/${imageId}.jpg`,
      thumbKey: `thumbs/${eventId}/${imageId}.jpg`,
    });
    if (partner !== null) await db.query('update photos set partner_user_id = $2 where id = $1', [id, partner]);
    return id;
  };
  const bib = 'LH101';
  const photoIds: number[] = [];
  for (let i = 1; i <= 6; i++) photoIds.push(await media(bib, `LH-${i}`, 'image', i <= 2 ? users.partner : null));
  const videoId = await media(bib, 'LH-V1', 'video');
  await media('LH102', 'LH-7');
  await media(null, 'LH-U1');
  await db.query(`insert into event_partners (event_id, user_id, status, share_percent) values ($1, $2, 'approved', 60)`, [eventId, users.partner]);
  await db.query(
    `insert into partner_profiles (user_id, first_name, last_name, mobile, nickname, bank_account_name, bank_account_number_enc, bank_account_last4,
                                   bank_account_type, bank_name, bank_branch, bank_ifsc, pan_enc, pan_last4)
     values ($1, 'Farah', 'Photo', '9876500002', 'farahph', 'Farah Photo', 'sealed', '9876', 2, 'HDFC Bank', 'Andheri', 'HDFC0001234', 'sealed', '456K')`,
    [users.partner],
  );
  const printProductId = (
    await db.query<{ id: number }>(
      `insert into print_products (name, image_key, price) values ('Magnet 4x6 inches', 'public/prints/magnet.png', 739) returning id`,
    )
  )[0]!.id;
  const offerId = (
    await db.query<{ id: number }>(
      `insert into sponsor_offers (event_id, coupon_name, sponsor_name, description, discount_type, discount_amount, max_orders_allowed)
       values ($1, 'LAKE20', 'Lake Club', '20% off', 'percent', 20, 3) returning id`,
      [eventId],
    )
  )[0]!.id;
  const tokens = {} as OrganiserFixture['tokens'];
  for (const [who, id] of Object.entries(users) as Array<[keyof typeof users, number]>) tokens[who] = (await createSession(db, id)).token;
  return { eventId, eventName, rivalEventId, bib, photoIds, partnerPhotoIds: photoIds.slice(0, 2), videoId, printProductId, offerId, users, tokens };
}

/** The runner's signed-in checkout of a BIB cart; returns the PayU form. */
export async function placeOrder(
  t: TestApp,
  f: OrganiserFixture,
  lines: object[],
  extra: { sponsorofferID?: number; discountedPhotoIds?: number[]; packageKind?: string | null } = {},
): Promise<PaymentForm> {
  const res = await t.request<PaymentForm>(
    'POST',
    API_ROUTES.createOrder,
    {
      name: 'Asha Rao',
      email: 'asha.rao@example.com',
      phone_number: '9876543210',
      gender: 'Female',
      shipping_address: '12 Lake Road, Udaipur',
      pincode: '313001',
      eventID: f.eventId,
      bibNumber: f.bib,
      sponsorofferID: extra.sponsorofferID ?? null,
      cartInfo: { searchKind: 'bib', packageKind: extra.packageKind ?? null, lines, discountedPhotoIds: extra.discountedPhotoIds ?? [] },
    },
    as(f.tokens.runner),
  );
  if (res.status !== 200) throw new Error(`create order: ${res.status} ${res.body.Message}`);
  return res.body.result;
}

export async function runnerHistory(t: TestApp, f: OrganiserFixture): Promise<OrderHistoryRow[]> {
  const res = await t.request<{ order_history: OrderHistoryRow[] }>('POST', API_ROUTES.orderHistory, { searchtext: '' }, as(f.tokens.runner));
  return res.body.result.order_history;
}

export const image = (id: number) => ({ type: 'download', category: 'image', id });
export const video = (id: number) => ({ type: 'download', category: 'video', id });
export const print = (id: number, printProductId: number) => ({ type: 'print', category: 'image', id, printProductId });
