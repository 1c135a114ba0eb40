import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES } from '@finishline/shared/pure';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { hasMoto, startMoto, type MotoServer } from './support/motoServer';
import { startS3Proxy, type S3Proxy } from './support/s3Proxy';
import { download, paidOrderOf, unzipAll, zipLinkOf } from './support/zipOrders';
import { loadConfig } from '../src/config/config';
import { createStorage, ObjectNotFoundError, StorageError, StorageUnavailableError, type ObjectStorage } from '../src/storage/storage';

/**
 * Object storage on both back ends: the local data folder and S3 (moto_server, an S3-compatible
 * server started here, behind a recording proxy that can also throttle or cut a response). Skipped,
 * saying so, where moto_server is not installed or does not start.
 */
const BUCKET = 'finishline-storage-test';
let moto: MotoServer | null = null;
if (!hasMoto) console.warn('storage-s3: moto_server is not installed here, so the S3 storage is not tested in this run (the local folder still is).');
else {
  moto = await startMoto(BUCKET).catch((error: unknown) => {
    console.warn(`storage-s3: moto_server did not start (${(error as Error).message}), so the S3 storage is not tested in this run.`);
    return null;
  });
}
const describeWithS3 = moto ? describe : describe.skip;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const backends: Array<[string, () => ObjectStorage]> = [
  [
    'the local data folder',
    () =>
      createStorage(
        loadConfig({
          dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'storage-test-')),
          storage: { kind: 'local', dir: fs.mkdtempSync(path.join(os.tmpdir(), 'storage-objects-')) },
        }),
      ),
  ],
  ...(moto
    ? [
        ['S3 (moto_server)', () => createStorage(loadConfig({ storage: { kind: 's3', bucket: BUCKET, region: 'us-east-1', endpoint: moto!.endpoint } }))] as [
          string,
          () => ObjectStorage,
        ],
      ]
    : []),
];

afterAll(async () => {
  await moto?.stop();
}, TEAR_DOWN_TIMEOUT_MS);

describe.each(backends)('object storage on %s', (_label, make) => {
  const storage = make();
  const prefix = `clean-up/${crypto.randomBytes(4).toString('hex')}`;

  it('puts, reads, sizes, lists under a prefix and deletes', async () => {
    const a = crypto.randomBytes(5000);
    await storage.put(`${prefix}/a.jpg`, a, 'image/jpeg');
    await storage.put(`${prefix}/deeper/b.jpg`, Buffer.from('bee'), 'image/jpeg');
    await storage.put(`${prefix}-other/c.jpg`, Buffer.from('sea'), 'image/jpeg');

    expect(await storage.stat(`${prefix}/a.jpg`)).toEqual({ size: 5000 });
    expect((await storage.getBuffer(`${prefix}/a.jpg`)).equals(a)).toBe(true);
    const listed = (await collect(storage.list(`${prefix}/`))).sort((x, y) => x.key.localeCompare(y.key));
    expect(listed).toEqual([
      { key: `${prefix}/a.jpg`, size: 5000 },
      { key: `${prefix}/deeper/b.jpg`, size: 3 },
    ]);
    // A prefix need not end at a folder: it is the start of the key.
    expect((await collect(storage.list(prefix))).map((o) => o.key).sort()).toEqual([`${prefix}-other/c.jpg`, `${prefix}/a.jpg`, `${prefix}/deeper/b.jpg`]);

    await storage.delete(`${prefix}/a.jpg`);
    await storage.delete(`${prefix}/a.jpg`); // deleting what is gone is no error
    expect(await storage.exists(`${prefix}/a.jpg`)).toBe(false);
    expect((await collect(storage.list(`${prefix}/`))).map((o) => o.key)).toEqual([`${prefix}/deeper/b.jpg`]);
    expect(await collect(storage.list('no-such-prefix/'))).toEqual([]);
  });

  it('a missing object is not found, and only that', async () => {
    expect(await storage.stat(`${prefix}/missing.jpg`)).toBeNull();
    expect(await storage.exists(`${prefix}/missing.jpg`)).toBe(false);
    await expect(storage.getStream(`${prefix}/missing.jpg`)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.getBuffer(`${prefix}/missing.jpg`)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });
});

describeWithS3('the API on S3 storage', () => {
  let proxy: S3Proxy;
  let t: TestApp;
  const CDN = 'https://cdn.finishline.test';
  let publicEndpoint: string;

  beforeAll(async () => {
    proxy = await startS3Proxy(moto!.endpoint);
    // Browsers reach the bucket by another name than the API does: signed URLs are made for theirs.
    publicEndpoint = moto!.endpoint.replace('127.0.0.1', 'localhost');
    t = await startTestApp({ storage: { kind: 's3', bucket: BUCKET, region: 'us-east-1', endpoint: proxy.endpoint, publicEndpoint }, mediaPublicUrl: CDN });
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t, proxy), TEAR_DOWN_TIMEOUT_MS);

  it('signs private objects for the public endpoint, stably, and gives public objects their CDN address', async () => {
    const body = crypto.randomBytes(2000);
    await t.ctx.storage.put('previews/9/s3-preview.jpg', body, 'image/jpeg');
    const expiresAt = new Date(Date.now() + 3600_000);
    const url = await t.ctx.storage.signedUrl('previews/9/s3-preview.jpg', expiresAt);
    expect(new URL(url).origin).toBe(publicEndpoint);
    expect(await t.ctx.storage.signedUrl('previews/9/s3-preview.jpg', expiresAt)).toBe(url);
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(body)).toBe(true);

    expect(t.ctx.storage.publicUrl('public/logos/run.png')).toBe(`${CDN}/public/logos/run.png`);
    expect(await t.ctx.storage.signedUrl('public/logos/run.png', expiresAt)).toBe(`${CDN}/public/logos/run.png`);
  });

  it('a throttled or failing bucket answers 503 (try again), never 404; a refused request is a 500', async () => {
    await t.ctx.storage.put('public/logos/busy.png', Buffer.from('png'), 'image/png');
    expect((await fetch(`${t.url}${API_ROUTES.media}/public/logos/busy.png`)).status).toBe(200);
    expect((await fetch(`${t.url}${API_ROUTES.media}/public/logos/nothing-here.png`)).status).toBe(404);
    try {
      for (const failure of [
        { status: 503, code: 'SlowDown' },
        { status: 500, code: 'InternalError' },
      ]) {
        proxy.failWith = failure;
        await expect(t.ctx.storage.stat('public/logos/busy.png')).rejects.toBeInstanceOf(StorageUnavailableError);
        await expect(t.ctx.storage.getBuffer('public/logos/busy.png')).rejects.toBeInstanceOf(StorageUnavailableError);
        const res = await fetch(`${t.url}${API_ROUTES.media}/public/logos/busy.png`);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('2');
        expect(((await res.json()) as { Message: string }).Message).toBe('Our photo storage is busy. Please try again in a moment.');
      }
      proxy.failWith = { status: 403, code: 'AccessDenied' };
      await expect(t.ctx.storage.getBuffer('public/logos/busy.png')).rejects.toBeInstanceOf(StorageError);
      expect((await fetch(`${t.url}${API_ROUTES.media}/public/logos/busy.png`)).status).toBe(500);
    } finally {
      proxy.failWith = null;
    }
  }, 120_000);

  it('zips an order from the bucket with its exact Content-Length, opening one object at a time', async () => {
    const files = Array.from({ length: 4 }, (_, i) => ({ imageId: `ZS3-${i + 1}`, body: crypto.randomBytes(6 * 1024 * 1024 + i) }));
    const { orderRef, preauth, keys } = await paidOrderOf(t, files);
    const link = await zipLinkOf(t, orderRef, preauth);
    proxy.requests.length = 0;
    let openedBeforeReading = -1;
    const zip = await download(link, async () => {
      // The browser has not read a byte: give the server time to run ahead as far as it would.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      openedBeforeReading = proxy.requests.filter((r) => r.method === 'GET').length;
    });
    expect(zip.status).toBe(200);
    expect(zip.complete).toBe(true);
    expect(Number(zip.headers.get('content-length'))).toBe(zip.body.length);
    // Every size was asked for first (HEAD), then each object fetched only when its turn came.
    expect(proxy.requests.filter((r) => r.method === 'HEAD').map((r) => r.path)).toEqual(keys.map((k) => `/${BUCKET}/${k}`));
    expect(openedBeforeReading).toBeGreaterThanOrEqual(1);
    expect(openedBeforeReading).toBeLessThan(files.length);
    expect(proxy.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual(keys.map((k) => `/${BUCKET}/${k}`));
    const entries = await unzipAll(zip.body);
    expect(entries.map((e) => e.name)).toEqual(files.map((f) => `photos/${f.imageId}.jpg`));
    for (const [i, entry] of entries.entries()) expect(entry.data.equals(files[i]!.body)).toBe(true);
  }, 120_000);

  it('an object whose transfer breaks mid-way aborts the download', async () => {
    const files = Array.from({ length: 3 }, (_, i) => ({ imageId: `ZCUT-${i + 1}`, body: crypto.randomBytes(1024 * 1024) }));
    const { orderRef, preauth, keys } = await paidOrderOf(t, files);
    proxy.cutAfter.set(keys[1]!, 300_000);
    try {
      const zip = await download(await zipLinkOf(t, orderRef, preauth));
      expect(zip.status).toBe(200);
      expect(zip.complete).toBe(false);
      expect(zip.body.length).toBeLessThan(Number(zip.headers.get('content-length')));
      expect(zip.body.length).toBeGreaterThan(1024 * 1024);
    } finally {
      proxy.cutAfter.clear();
    }
  }, 120_000);
});
