import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, SET_UP_TIMEOUT_MS, startTestApp, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { download, paidOrderOf, unzipAll, zipLinkOf } from './support/zipOrders';
import { storedZip, storedZipSize, type ZipEntry } from '../src/media/storedZip';

/**
 * The order zip as the buyer's browser gets it: originals stored as they are (STORE), an exact
 * Content-Length, the archive complete and byte for byte the originals, and a source that fails
 * mid-way ending as a failed download rather than a short file.
 */
const hasUnzip = spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;
if (!hasUnzip) console.warn('downloads-zip: the unzip program is not installed here, so the zips are checked with yauzl only.');

/** unzip -t: Info-ZIP's own reading of the archive, CRCs included. */
function unzipTest(zip: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zip-test-')), 'order.zip');
  fs.writeFileSync(file, zip);
  const result = spawnSync('unzip', ['-t', file], { encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`unzip -t failed: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

const photo = (bytes: number) => crypto.randomBytes(bytes);

describe('order zip downloads', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('streams a complete zip of the originals, stored as they are, whose Content-Length is the bytes received', async () => {
    const files = [
      { imageId: 'ZR1-1', body: photo(3 * 1024 * 1024 + 17) },
      { imageId: 'ZR1-2', body: photo(250_000) },
      { imageId: 'ZR1-3', body: Buffer.alloc(0) },
      { imageId: 'ZR1-V1', kind: 'video' as const, body: photo(1_500_000) },
    ];
    const { orderRef, preauth } = await paidOrderOf(t, files);
    const zip = await download(await zipLinkOf(t, orderRef, preauth));

    expect(zip.status).toBe(200);
    expect(zip.complete).toBe(true);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="${orderRef}.zip"`);
    expect(Number(zip.headers.get('content-length'))).toBe(zip.body.length);

    const entries = await unzipAll(zip.body);
    expect(entries.map((e) => e.name)).toEqual(['photos/ZR1-1.jpg', 'photos/ZR1-2.jpg', 'photos/ZR1-3.jpg', 'videos/ZR1-V1.mp4']);
    expect(entries.every((e) => e.compressionMethod === 0)).toBe(true);
    for (const [i, entry] of entries.entries()) expect(entry.data.equals(files[i]!.body)).toBe(true);
    // Stored, not deflated: the archive is the files plus a little bookkeeping.
    const payload = files.reduce((sum, f) => sum + f.body.length, 0);
    expect(zip.body.length - payload).toBeLessThan(1000);
    if (hasUnzip) expect(unzipTest(zip.body)).toMatch(/No errors detected/);
  });

  it('a source that fails mid-way aborts the download: fewer bytes than Content-Length, never a short zip', async () => {
    // Two large entries keep the server busy while the third is cut short on disk: it has not
    // opened that one yet (the unread socket holds it back well before 24 MB).
    const files = [
      { imageId: 'ZF1-1', body: photo(12 * 1024 * 1024) },
      { imageId: 'ZF1-2', body: photo(12 * 1024 * 1024) },
      { imageId: 'ZF1-3', body: photo(2 * 1024 * 1024) },
    ];
    const { orderRef, preauth, keys } = await paidOrderOf(t, files);
    const thirdFile = path.join(t.ctx.config.dataDir, 'objects', keys[2]!);
    const zip = await download(await zipLinkOf(t, orderRef, preauth), async () => {
      fs.truncateSync(thirdFile, 1024 * 1024);
    });

    expect(zip.status).toBe(200);
    expect(zip.complete).toBe(false);
    expect(zip.error).toBeTruthy();
    const promised = Number(zip.headers.get('content-length'));
    expect(promised).toBe(storedZipSize(files.map((f, i) => ({ name: `photos/ZF1-${i + 1}.jpg`, modifiedAt: new Date(), data: f.body }))));
    expect(zip.body.length).toBeLessThan(promised);
    // The first two entries arrived whole before the failure.
    expect(zip.body.length).toBeGreaterThan(24 * 1024 * 1024);
  });

  it('an original missing from storage is a clear error before any zip byte', async () => {
    const { orderRef, preauth, keys } = await paidOrderOf(t, [
      { imageId: 'ZM1-1', body: photo(1000) },
      { imageId: 'ZM1-2', body: photo(1000) },
    ]);
    await t.ctx.storage.delete(keys[1]!);
    const res = await fetch(await zipLinkOf(t, orderRef, preauth));
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(((await res.json()) as { Message: string }).Message).toBe('A file of this order is missing from our storage. Please contact support for help.');
  });
});

describe('stored zip format', () => {
  const entries = (): ZipEntry[] => [
    {
      name: 'photos/a.jpg',
      modifiedAt: new Date('2026-03-01T07:30:00'),
      size: 70_000,
      open: async () => Readable.from([crypto.randomBytes(30_000), crypto.randomBytes(40_000)]),
    },
    { name: 'photos/ü-naïve.jpg', modifiedAt: new Date('2026-03-01T07:30:00'), data: Buffer.from('certificate bytes') },
  ];

  async function collect(stream: Readable): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  it.each([false, true])('makes an archive of exactly the predicted size that unzip reads (ZIP64 records: %s)', async (forceZip64) => {
    const zip = storedZip(entries(), { forceZip64 });
    const bytes = await collect(zip.stream);
    expect(bytes.length).toBe(zip.size);
    expect(zip.size).toBe(storedZipSize(entries(), { forceZip64 }));
    const read = await unzipAll(bytes);
    expect(read.map((e) => [e.name, e.data.length])).toEqual([
      ['photos/a.jpg', 70_000],
      ['photos/ü-naïve.jpg', 17],
    ]);
    if (hasUnzip) expect(unzipTest(bytes)).toMatch(/No errors detected/);
  });

  it('fails the stream when an entry has fewer or more bytes than it promised', async () => {
    for (const size of [69_999, 70_001]) {
      const [first] = entries();
      const zip = storedZip([{ ...(first as ZipEntry & { open: () => Promise<Readable> }), size }]);
      await expect(collect(zip.stream)).rejects.toThrow(/photos\/a\.jpg (is longer than|ended after)/);
    }
  });

  it('refuses two entries of one name', () => {
    const [first] = entries();
    expect(() => storedZip([first!, first!])).toThrow('Two zip entries are named photos/a.jpg');
  });
});
