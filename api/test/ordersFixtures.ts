import { insertTestPhoto } from './support/photos';
import sharp from 'sharp';
import type { AppContext } from '../src/context';

/**
 * Orders test data: an event with photos whose originals really exist in storage, a second BIB, a
 * video, a print product, a 100% sponsor offer event (zero-amount orders) and a pre-order event.
 */
export interface OrdersFixture {
  eventId: number;
  eventName: string;
  bib: string;
  photoIds: number[];
  videoId: number;
  otherBibPhotoId: number;
  freeEventId: number;
  freeOfferId: number;
  freePhotoIds: number[];
  preorderEventId: number;
  preorderBib: string;
  preorderPhotoIds: number[];
}

async function insertEvent(ctx: AppContext, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const columns = ['name', 'from_date', 'to_date', 'issearchable', ...Object.keys(extra)];
  const values = [name, '2026-01-10', '2026-01-10', true, ...Object.values(extra)];
  const rows = await ctx.db.query<{ id: number }>(
    `insert into events (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
    values,
  );
  return rows[0].id;
}

async function insertMedia(ctx: AppContext, eventId: number, bib: string | null, imageId: string, kind: 'image' | 'video' = 'image'): Promise<number> {
  const originalKey = `originals/${eventId}/${imageId}.${kind === 'video' ? 'mp4' : 'jpg'}`;
  const body =
    kind === 'video'
      ? Buffer.from(`fake mp4 bytes of ${imageId}`)
      : await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } })
          .jpeg()
          .toBuffer();
  await ctx.storage.put(originalKey, body, kind === 'video' ? 'video/mp4' : 'image/jpeg');
  await ctx.storage.put(`previews/${eventId}/${imageId}.jpg`, body, 'image/jpeg');
  return insertTestPhoto(ctx.db, { eventId, bib, imageId, kind, originalKey, previewKey: `previews/${eventId}/${imageId}.jpg`, width: 64, height: 48 });
}

export async function seedOrdersFixture(ctx: AppContext): Promise<OrdersFixture> {
  const eventName = 'Orders Test Marathon 2026';
  const eventId = await insertEvent(ctx, eventName, { show_prempack: true, show_ultrapack: true, threshold_photo_count: 4, showunlabeled: true });
  const bib = 'OT100';
  const photoIds: number[] = [];
  for (let i = 1; i <= 5; i++) photoIds.push(await insertMedia(ctx, eventId, bib, `${bib}-${i}`));
  const videoId = await insertMedia(ctx, eventId, bib, `${bib}-V1`, 'video');
  const otherBibPhotoId = await insertMedia(ctx, eventId, 'OT200', 'OT200-1');
  await ctx.db.query(`insert into participants (event_id, bib_number, name, email, finish_time) values ($1, $2, 'Asha Rao', 'asha@example.com', '01:52:07')`, [
    eventId,
    bib,
  ]);

  const freeEventId = await insertEvent(ctx, 'Free Photos 5K 2026');
  const freePhotoIds = [await insertMedia(ctx, freeEventId, 'FR1', 'FR1-1'), await insertMedia(ctx, freeEventId, 'FR1', 'FR1-2')];
  const offer = await ctx.db.query<{ id: number }>(
    `insert into sponsor_offers (event_id, coupon_name, sponsor_name, description, discount_type, discount_amount, max_orders_allowed)
     values ($1, 'FREE100', 'Kind Sponsor', 'Photos on us', 'percent', 100, 5) returning id`,
    [freeEventId],
  );

  const preorderEventId = await insertEvent(ctx, 'Preorder Ultra 2027', { preorder_allowed: true, preorder_price: 400, preorder_cut_price: 600 });
  const preorderBib = 'PB42';
  const preorderPhotoIds = [
    await insertMedia(ctx, preorderEventId, preorderBib, `${preorderBib}-1`),
    await insertMedia(ctx, preorderEventId, preorderBib, `${preorderBib}-2`),
  ];

  return {
    eventId,
    eventName,
    bib,
    photoIds,
    videoId,
    otherBibPhotoId,
    freeEventId,
    freeOfferId: offer[0].id,
    freePhotoIds,
    preorderEventId,
    preorderBib,
    preorderPhotoIds,
  };
}

/** Create-order cart fields for photos of the 100% sponsor offer event (BIB FR1). */
export function freeCartOf(f: OrdersFixture, photoIds: number[] = f.freePhotoIds, discountedPhotoIds: number[] = photoIds) {
  return {
    eventID: f.freeEventId,
    bibNumber: 'FR1',
    sponsorofferID: f.freeOfferId,
    cartInfo: { searchKind: 'bib', packageKind: null, lines: photoIds.map((id) => ({ type: 'download', category: 'image', id })), discountedPhotoIds },
  };
}

/** Names of the entries of a zip file, read from its central directory. */
export function zipEntryNames(zip: Buffer): string[] {
  let end = -1;
  for (let i = zip.length - 22; i >= 0; i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error('bad central directory');
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** The hidden inputs of an HTML form (the sandbox's auto-post page). */
export function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescape(match[1])] = unescape(match[2]);
  return fields;
}

export function formAction(html: string): string {
  const match = html.match(/<form id="return" method="post" action="([^"]*)"/);
  if (!match) throw new Error('no return form in page');
  return match[1].replace(/&amp;/g, '&');
}
