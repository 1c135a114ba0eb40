import type { CartLine, CartRequest } from '@finishline/shared/pure';
import type { Db } from '../src/db/db';
import { insertTestPhoto } from './support/photos';

/** A small catalogue for the cart, OTP and feedback tests: rows inserted straight into the tables. */
export interface CartFixture {
  eventId: number;
  privateEventId: number;
  noPrintsEventId: number;
  offerId: number;
  photoIds: number[];
  otherBibPhotoId: number;
  unlabeledPhotoIds: number[];
  videoId: number;
  privatePhotoIds: number[];
  printIds: Record<'magnet' | 'frame' | 'mug' | 'poster', number>;
}

async function insertEvent(db: Db, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const columns = ['name', 'from_date', 'to_date', 'issearchable', ...Object.keys(extra)];
  const values = [name, '2026-01-10', '2026-01-10', true, ...Object.values(extra)];
  const rows = await db.query<{ id: number }>(
    `insert into events (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
    values,
  );
  return rows[0].id;
}

const insertPhoto = (db: Db, eventId: number, bib: string | null, imageId: string, kind: 'image' | 'video' = 'image') =>
  insertTestPhoto(db, { eventId, bib, imageId, kind });

export async function seedCartFixture(db: Db): Promise<CartFixture> {
  const eventId = await insertEvent(db, 'Test City Marathon 2026', {
    show_prempack: true,
    show_ultrapack: true,
    threshold_photo_count: 6,
    showunlabeled: true,
  });
  const privateEventId = await insertEvent(db, 'Private Trail Run 2026', { privacy_check: true });
  const noPrintsEventId = await insertEvent(db, 'No Prints 10K 2026');
  await db.query(`insert into app_settings (key, value) values ('DISABLEPRINTS', $1::jsonb) on conflict (key) do update set value = excluded.value`, [
    JSON.stringify([noPrintsEventId]),
  ]);

  const photoIds: number[] = [];
  for (let i = 1; i <= 8; i++) photoIds.push(await insertPhoto(db, eventId, 'TT100', `TT100-${i}`));
  const videoId = await insertPhoto(db, eventId, 'TT100', 'TT100-V1', 'video');
  const otherBibPhotoId = await insertPhoto(db, eventId, 'TT200', 'TT200-1');
  const unlabeledPhotoIds = [await insertPhoto(db, eventId, null, 'UNL-1'), await insertPhoto(db, eventId, null, 'UNL-2')];
  const privatePhotoIds = [await insertPhoto(db, privateEventId, 'PR7', 'PR7-1'), await insertPhoto(db, privateEventId, 'PR7', 'PR7-2')];
  await insertPhoto(db, noPrintsEventId, 'NP1', 'NP1-1');

  await db.query(`insert into participants (event_id, bib_number, name, email) values ($1, 'PR7', 'Priya', 'priya.runner@example.com')`, [privateEventId]);

  const printIds = {} as CartFixture['printIds'];
  const products: Array<[keyof CartFixture['printIds'], string, number]> = [
    ['magnet', 'Magnet 4x6 inches', 739],
    ['frame', 'Frame 10x10 inches', 319],
    ['mug', 'Coffee mug', 259],
    ['poster', 'Wall poster 13x10 inches', 350],
  ];
  for (const [key, name, price] of products) {
    const rows = await db.query<{ id: number }>(
      `insert into print_products (name, image_key, price) values ($1, 'prints/x.jpg', $2)
       on conflict (name) do update set price = excluded.price returning id`,
      [name, price],
    );
    printIds[key] = rows[0].id;
  }
  const offer = await db.query<{ id: number }>(
    `insert into sponsor_offers (event_id, coupon_name, sponsor_name, description, discount_type, discount_amount, max_orders_allowed)
     values ($1, 'FAST20', 'Acme Shoes', 'Acme runs with you', 'percent', 20, 2) returning id`,
    [eventId],
  );
  return { eventId, privateEventId, noPrintsEventId, offerId: offer[0].id, photoIds, otherBibPhotoId, unlabeledPhotoIds, videoId, privatePhotoIds, printIds };
}

/** Download lines of these photos. */
export const imageLines = (ids: number[]): CartLine[] => ids.map((id) => ({ type: 'download', category: 'image', id }));

/** A BIB cart of the fixture's runner TT100 (as typed: lower case), without package or offer unless extra says so. */
export const tt100Cart = (f: CartFixture, lines: CartLine[], extra: Partial<CartRequest> = {}): CartRequest => ({
  eventId: f.eventId,
  bibNumber: 'tt100',
  searchKind: 'bib',
  packageKind: null,
  lines,
  sponsorofferID: null,
  discountedPhotoIds: [],
  ...extra,
});
