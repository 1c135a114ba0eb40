import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import exifr from 'exifr';
import sharp from 'sharp';
import { API_ROUTES, type PaymentForm, type SupplyPhotosResult } from '@finishline/shared/pure';
import { SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { postBack, startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { receiptOf, tusUpload } from './support/tus';
import { createSession, createUser } from '../src/features/accounts';
import { cleanStoredOriginals } from '../src/features/supply';
import { startSupplyWorker, type SupplyWorker } from '../src/pipeline/photos';
import { acquireJobQueue, type JobQueue } from '../src/queue/jobQueue';
import { cameraPhoto, CAMERA_METADATA } from '../src/seed/cameraPhoto';
import { stripJpegMetadata } from '../src/media/jpegMetadata';
import { unzipAll } from './support/zipOrders';
import { solveCaptcha } from './support/captcha';
import { readOutbox } from '../src/mail/mailer';

/** The JPEG's marker segments before the image data, as "APP1 Exif", "APP13 Photoshop", "COM", ... */
function segmentsOf(jpeg: Buffer): string[] {
  const names: string[] = [];
  let pos = 2;
  while (pos + 4 <= jpeg.length && jpeg[pos] === 0xff) {
    const marker = jpeg[pos + 1]!;
    if (marker === 0xda) break;
    const length = jpeg.readUInt16BE(pos + 2);
    const payload = jpeg.subarray(pos + 4, pos + 2 + length);
    const label =
      marker === 0xfe ? 'COM' : marker >= 0xe0 && marker <= 0xef ? `APP${marker - 0xe0} ${payload.subarray(0, 40).toString('latin1').split(/[\0 ]/)[0]}` : null;
    if (label) names.push(label);
    pos += 2 + length;
  }
  return names;
}

const segment = (marker: number, payload: Buffer) =>
  Buffer.concat([Buffer.from([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]), payload]);

/**
 * A camera JPEG with everything a camera, phone or editor may add: EXIF (GPS, serials, owner,
 * artist, maker note-like data), XMP, an IPTC block (APP13), a comment, a JFXX thumbnail, a vendor
 * APP segment and a second picture after the end of the first (MPF previews are stored so).
 */
async function everythingJpeg(orientation: 1 | 6 = 1, seed = 'metadata'): Promise<Buffer> {
  const camera = await cameraPhoto({ bib: null, seed: `${seed}-${orientation}`, width: 800, grain: 4, cameraMetadata: true, orientation });
  const thumbnail = await sharp({ create: { width: 16, height: 12, channels: 3, background: '#ff0000' } })
    .jpeg()
    .toBuffer();
  const iptc = Buffer.concat([
    Buffer.from('Photoshop 3.0\0', 'latin1'),
    Buffer.from('8BIM\x04\x04\0\0\0\0\0\x14', 'latin1'),
    Buffer.from('\x1c\x02\x50\0\x0aKabir Shah\x1c\x02\x00\0\0', 'latin1'),
  ]);
  // A JFIF header carrying a 2 x 2 RGB thumbnail, then a JFXX thumbnail extension.
  const jfif = Buffer.concat([Buffer.from('JFIF\0\x01\x01\x00\x00\x01\x00\x01\x02\x02', 'latin1'), Buffer.alloc(12, 0x7f)]);
  const extra = Buffer.concat([
    segment(0xe0, jfif),
    segment(0xe0, Buffer.concat([Buffer.from('JFXX\0\x10', 'latin1'), thumbnail])),
    segment(0xed, iptc),
    segment(0xe3, Buffer.from('META serial 032021001234', 'latin1')),
    segment(0xfe, Buffer.from('Owner: Kabir Shah, +91 98200 34567', 'latin1')),
  ]);
  return Buffer.concat([camera.subarray(0, 2), extra, camera.subarray(2), thumbnail]);
}

const pixels = async (jpeg: Buffer) => (await sharp(jpeg).raw().toBuffer()).toString('base64');
/** Every tag exifr finds (EXIF, GPS, XMP, IPTC, the EXIF thumbnail) but the colour profile's and the JFIF header's (checked by its bytes). */
const tagsOf = async (jpeg: Buffer) =>
  Object.keys(((await exifr.parse(jpeg, { xmp: true, iptc: true, ifd1: true, icc: false })) as Record<string, unknown>) ?? {});

describe('originals are stored and delivered without personal metadata', () => {
  let p: PaymentTestApp;
  let queue: JobQueue;
  let releaseQueue: () => Promise<void>;
  let worker: SupplyWorker;
  let eventId: number;
  let partnerToken: string;

  async function upload(file: Buffer, filename: string): Promise<number> {
    const answer = await tusUpload(`${p.t.url}${API_ROUTES.partnerUploads}`, partnerToken, file, {
      eventId: String(eventId),
      filename,
      filetype: 'image/jpeg',
    });
    return receiptOf(answer).photoId;
  }

  async function ready(photoId: number): Promise<{ original_key: string; original_name: string | null; cleaned: boolean }> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [row] = await p.t.ctx.db.query<{ status: string; original_key: string; original_name: string | null; cleaned: boolean }>(
        'select status, original_key, original_name, metadata_cleaned_at is not null as cleaned from photos where id = $1',
        [photoId],
      );
      if (row?.status === 'ready') return row;
      if (Date.now() > deadline) throw new Error(`photo ${photoId} still ${row?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** A guest buys the photos and the zip and each image are fetched through the download links. */
  async function downloaded(photoIds: number[]): Promise<{ zip: Buffer[]; images: Buffer[] }> {
    const created = await p.t.request<PaymentForm>('POST', API_ROUTES.createOrder, {
      name: 'Asha Rao',
      email: 'asha.metadata@example.com',
      phone_number: '9876543210',
      pincode: '560001',
      captcha: await solveCaptcha(p.t.url),
      eventID: eventId,
      bibNumber: 'unlabeled',
      cartInfo: {
        searchKind: 'unlabeled',
        packageKind: null,
        lines: photoIds.map((id) => ({ type: 'download', category: 'image', id })),
        discountedPhotoIds: [],
      },
    });
    expect(created.status).toBe(200);
    const back = await p.pay(created.body.result);
    expect((await postBack(back.action, back.fields)).status).toBe(303);
    const mail = (await readOutbox(p.t.ctx.mailer.outboxDir!)).find((m) => m.text.includes(created.body.result.order_ref))!;
    const preauth = Object.fromEntries(new URL(/http:\/\/shell\.test\/preauthdownload\?\S+/.exec(mail.text)![0]).searchParams);
    const orderID = created.body.result.order_ref;
    const zipLink = await p.t.request<string>('POST', API_ROUTES.downloadOrder, { orderID, preauth });
    const zip = (await unzipAll(Buffer.from(await (await fetch(zipLink.body.result)).arrayBuffer()))).map((entry) => entry.data);
    const images: Buffer[] = [];
    for (const imageID of photoIds) {
      const link = await p.t.request<string>('POST', API_ROUTES.downloadImage, { orderID, imageID, preauth });
      images.push(Buffer.from(await (await fetch(link.body.result)).arrayBuffer()));
    }
    return { zip, images };
  }

  beforeAll(async () => {
    p = await startPaymentTestApp({}, { shellUrl: 'http://shell.test' });
    const db = p.t.ctx.db;
    const partner = await createUser(db, {
      firstName: 'Kabir',
      lastName: 'Shah',
      email: 'kabir.metadata@example.com',
      password: 'Secret#2026',
      isPartner: true,
    });
    partnerToken = (await createSession(db, partner)).token;
    eventId = (
      await db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, location, issearchable, showunlabeled) values ('Metadata Run 2026', '2026-01-18', '2026-01-18', 'Mumbai', true, true) returning id`,
      )
    )[0]!.id;
    await db.query(`insert into event_partners (event_id, user_id, status) values ($1, $2, 'approved')`, [eventId, partner]);
    ({ queue, release: releaseQueue } = await acquireJobQueue(db));
    // BIBs are not the point here: the photos become unlabeled photos of the event.
    worker = await startSupplyWorker(p.t.ctx, queue, { reader: null, concurrency: 1, retryDelaySeconds: 0 });
  }, SET_UP_TIMEOUT_MS);
  afterAll(async () => {
    await worker?.stop();
    await releaseQueue?.();
    await p?.close();
  }, TEAR_DOWN_TIMEOUT_MS);

  it('the stripped JPEG keeps its image data byte for byte and only the capture time (and orientation)', async () => {
    for (const orientation of [1, 6] as const) {
      const dirty = await everythingJpeg(orientation);
      // The fixture does carry all of it, read by an independent reader.
      const before = (await exifr.parse(dirty, { xmp: true, iptc: true })) as Record<string, unknown>;
      expect(before).toMatchObject({ Make: CAMERA_METADATA.make, Artist: CAMERA_METADATA.artist, SerialNumber: CAMERA_METADATA.serial });
      expect((await exifr.gps(dirty))?.latitude).toBeCloseTo(CAMERA_METADATA.latitude, 3);
      expect(segmentsOf(dirty)).toEqual(
        expect.arrayContaining(['APP0 JFXX', 'APP13 Photoshop', 'APP3 META', 'COM', 'APP1 Exif', 'APP1 http://ns.adobe.com/xap/1.0/']),
      );

      const clean = stripJpegMetadata(dirty, { orientation, dateTimeOriginal: CAMERA_METADATA.capturedAt, offsetTimeOriginal: CAMERA_METADATA.offset });
      expect(await exifr.gps(clean)).toBeUndefined();
      expect((await tagsOf(clean)).sort()).toEqual(['DateTimeOriginal', 'OffsetTimeOriginal', ...(orientation === 6 ? ['Orientation'] : [])].sort());
      expect(segmentsOf(clean).filter((s) => !s.startsWith('APP2 ICC_PROFILE'))).toEqual(['APP0 JFIF', 'APP1 Exif']);
      // The JFIF header stays, without its thumbnail (16 bytes: no pixels after the header).
      expect([clean.readUInt16BE(4), clean[4 + 2 + 12], clean[4 + 2 + 13]]).toEqual([16, 0, 0]);
      expect(clean.toString('latin1')).not.toContain('Kabir');
      // Nothing after the picture's end (the trailing preview is gone), and the same pixels.
      expect(clean.subarray(-2).equals(Buffer.from([0xff, 0xd9]))).toBe(true);
      expect(await pixels(clean)).toBe(
        await pixels(
          dirty.subarray(
            0,
            dirty.length -
              (
                await sharp({ create: { width: 16, height: 12, channels: 3, background: '#ff0000' } })
                  .jpeg()
                  .toBuffer()
              ).length,
          ),
        ),
      );
    }
  });

  it('a progressive JPEG is walked through all its scans', async () => {
    const progressive = await sharp(await cameraPhoto({ bib: null, seed: 'progressive', width: 640, grain: 4 }))
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '19/1 1/1 0/1' } })
      .jpeg({ progressive: true })
      .toBuffer();
    const clean = stripJpegMetadata(progressive, {});
    expect(await exifr.gps(clean)).toBeUndefined();
    expect(await pixels(clean)).toBe(await pixels(progressive));
  });

  it('an upload is stored clean at once, turned upright by the pipeline, and listed under a clean file name', async () => {
    const photoId = await upload(await everythingJpeg(6), '../../DSC_0042.JPG');
    // Before processing: already without GPS, names, IPTC or thumbnails; the orientation waits for the pipeline.
    const [stored] = await p.t.ctx.db.query<{ original_key: string; original_name: string }>('select original_key, original_name from photos where id = $1', [
      photoId,
    ]);
    expect(stored!.original_name).toBe('DSC_0042.JPG');
    expect((await tagsOf(await p.t.ctx.storage.getBuffer(stored!.original_key))).sort()).toEqual(['DateTimeOriginal', 'OffsetTimeOriginal', 'Orientation']);

    const row = await ready(photoId);
    expect(row.cleaned).toBe(true);
    const original = await p.t.ctx.storage.getBuffer(row.original_key);
    const meta = await sharp(original).metadata();
    expect({ width: meta.width, orientation: meta.orientation ?? 1 }).toEqual({ width: 800, orientation: 1 });
    expect((await tagsOf(original)).sort()).toEqual(['DateTimeOriginal', 'OffsetTimeOriginal']);
    const review = await p.t.request<SupplyPhotosResult>('POST', API_ROUTES.partnerPhotos, { eventId }, { authorization: `Bearer ${partnerToken}` });
    expect(review.body.result.photos.find((ph) => ph.photoId === photoId)?.originalName).toBe('DSC_0042.JPG');
  });

  it('originals stored before cleaning are cleaned by the job, or by a download before they leave', async () => {
    // Two photos as stored before this release: the camera's file as sent, not marked clean.
    const legacy: Array<{ id: number; key: string }> = [];
    for (const name of ['old-1.jpg', 'old-2.jpg']) {
      const camera = await everythingJpeg(1, name);
      const id = await upload(camera, name);
      const row = await ready(id);
      await p.t.ctx.storage.put(row.original_key, camera, 'image/jpeg');
      await p.t.ctx.db.query('update photos set metadata_cleaned_at = null where id = $1', [id]);
      legacy.push({ id, key: row.original_key });
    }

    // The first is bought before the job ran: the download cleans it first; zip and image both clean.
    const { zip, images } = await downloaded([legacy[0]!.id]);
    expect(zip).toHaveLength(1);
    for (const file of [...zip, ...images]) {
      expect(await exifr.gps(file)).toBeUndefined();
      expect((await tagsOf(file)).sort()).toEqual(['DateTimeOriginal', 'OffsetTimeOriginal']);
    }
    expect((await tagsOf(await p.t.ctx.storage.getBuffer(legacy[0]!.key))).sort()).toEqual(['DateTimeOriginal', 'OffsetTimeOriginal']);

    // The job cleans the rest and marks them; a second run finds nothing to do.
    const report = await cleanStoredOriginals(p.t.ctx);
    expect(report).toMatchObject({ rewritten: 1, failed: 0, left: 0 });
    expect(await exifr.gps(await p.t.ctx.storage.getBuffer(legacy[1]!.key))).toBeUndefined();
    expect(await cleanStoredOriginals(p.t.ctx)).toEqual({ checked: 0, rewritten: 0, failed: 0, left: 0 });
  });
});
