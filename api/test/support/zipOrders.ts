import zlib from 'node:zlib';
import { API_ROUTES } from '@finishline/shared/pure';
import yauzl from 'yauzl';
import type { TestApp } from './testApp';
import { insertTestPhoto } from './photos';
import { signPreauth } from '../../src/features/orders/preauth';

/** A file of a test order: its name in the zip follows its image id and kind. */
export interface OrderFile {
  imageId: string;
  kind?: 'image' | 'video';
  body: Buffer;
}

let orderCount = 0;

/**
 * A paid order of the given files, whose originals are put into the app's storage; returns the
 * order reference and its original keys. The buyer's pre-authorised link values come with it.
 */
export async function paidOrderOf(t: TestApp, files: OrderFile[]): Promise<{ orderRef: string; keys: string[]; preauth: Record<string, string> }> {
  const db = t.ctx.db;
  orderCount += 1;
  const [event] = await db.query<{ id: number }>(
    `insert into events (name, from_date, to_date, issearchable) values ($1, '2026-03-01', '2026-03-01', true) returning id`,
    [`Zip Run ${orderCount}`],
  );
  const ids: number[] = [];
  const keys: string[] = [];
  for (const file of files) {
    const key = `originals/${event!.id}/${file.imageId}.${file.kind === 'video' ? 'mp4' : 'jpg'}`;
    await t.ctx.storage.put(key, file.body, file.kind === 'video' ? 'video/mp4' : 'image/jpeg');
    ids.push(
      await insertTestPhoto(db, { eventId: event!.id, bib: 'ZR1', imageId: file.imageId, kind: file.kind ?? 'image', originalKey: key, seq: ids.length }),
    );
    keys.push(key);
  }
  return { ...(await paidOrderOfPhotos(t, event!.id, 'ZR1', ids)), keys };
}

/** A paid order of photos or videos already stored (a cut clip, say), with the buyer's pre-authorised link values. */
export async function paidOrderOfPhotos(
  t: TestApp,
  eventId: number,
  bib: string,
  ids: number[],
): Promise<{ orderRef: string; preauth: Record<string, string> }> {
  orderCount += 1;
  const orderRef = `FLZIP${Date.now().toString(36).toUpperCase()}${orderCount}`;
  const [order] = await t.ctx.db.query<{ id: number }>(
    `insert into orders (order_ref, txnid, event_id, bib_number, name, email, phone, status, amount, amount_text, productinfo, paid_at)
     values ($1, $1, $2, $3, 'Zip Buyer', 'zip@example.com', '9876543210', 'Paid', 100, '100.00', 'photos', now()) returning id`,
    [orderRef, eventId, bib],
  );
  await t.ctx.db.query(`insert into order_items (order_id, kind, label, photo_ids, amount, discount) values ($1, 'images', 'images', $2, 100, 0)`, [
    order!.id,
    ids,
  ]);
  const preauth = { ...signPreauth(t.ctx.config.signingSecret, orderRef, 'zip@example.com', new Date(Date.now() + 86400_000)) };
  return { orderRef, preauth };
}

/** The signed zip link the Download all button gets, for an order made by paidOrderOf. */
export async function zipLinkOf(t: TestApp, orderRef: string, preauth: Record<string, string>): Promise<string> {
  const link = await t.request<string>('POST', API_ROUTES.downloadOrder, { orderID: orderRef, preauth });
  if (link.status !== 200) throw new Error(`download link: ${link.status} ${link.body.Message}`);
  return link.body.result;
}

export interface UnzippedEntry {
  name: string;
  compressionMethod: number;
  crc32: number;
  data: Buffer;
}

/** Every entry of a zip, read with yauzl (which checks sizes and structure); CRCs are checked here. */
export async function unzipAll(zip: Buffer): Promise<UnzippedEntry[]> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true }, (err, z) => (err ? reject(err) : resolve(z!))),
  );
  const entries: UnzippedEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    file.on('error', reject);
    file.on('end', () => resolve());
    file.on('entry', (entry: yauzl.Entry) => {
      file.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream!.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream!.on('error', reject);
        stream!.on('end', () => {
          const data = Buffer.concat(chunks);
          if (zlib.crc32(data) !== entry.crc32) return reject(new Error(`CRC mismatch in ${entry.fileName}`));
          entries.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, crc32: entry.crc32, data });
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
  return entries;
}

/** What a browser gets from a GET: status, headers, the bytes, and whether the body ended cleanly. */
export interface Download {
  status: number;
  headers: Headers;
  body: Buffer;
  complete: boolean;
  error: string | null;
}

/**
 * Downloads url to the end. onHeaders runs once the status and headers are in and before the body
 * is read (the server is then held back by the unread socket), for a test to change what the
 * server will read next.
 */
export async function download(url: string, onHeaders?: (headers: Headers) => Promise<void>): Promise<Download> {
  const response = await fetch(url);
  if (onHeaders) await onHeaders(response.headers);
  const chunks: Buffer[] = [];
  let error: string | null = null;
  try {
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
    }
  } catch (err) {
    error = (err as Error).message || String(err);
  }
  return { status: response.status, headers: response.headers, body: Buffer.concat(chunks), complete: error === null, error };
}
