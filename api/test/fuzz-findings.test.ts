import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES } from '@finishline/shared/pure';
import { INPUT_MESSAGES } from '../src/http/inputGuard';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';

/** What the fuzz suite found, one focused case each: every case failed before its fix. */
describe('fuzz findings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.ctx.storage.put('public/folder/logo.png', Buffer.from('png'), 'image/png');
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('a key prefix is no object: GET /media/public/folder/ is a 404, not a 500 (EISDIR)', async () => {
    expect(await t.ctx.storage.exists('public/folder')).toBe(false);
    expect(await t.ctx.storage.exists('public/folder/logo.png')).toBe(true);
    await expect(t.ctx.storage.getStream('public/folder')).rejects.toMatchObject({ code: 'ENOENT' });
    for (const path of [`${API_ROUTES.media}/public/folder/`, `${API_ROUTES.media}/public/folder`]) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it.each([
    ['the outbox page', `${API_ROUTES.devOutbox}?to=a@example.com&to=b@example.com`],
    ['the outbox as JSON', `${API_ROUTES.devOutboxJson}?tag=contact&tag=order_confirmation`],
    ['a pre-authorised link', `${API_ROUTES.preauthDownload}?orderref=A&orderref=B&e=a@example.com&lt=1&h=x`],
    ['a download link', `${API_ROUTES.downloadFile}/zip/FL1?exp=1&exp=2&sig=x`],
  ])('a repeated query name (an array where text belongs) is refused as the wrong type on %s (the outbox answered 500)', async (_label, path) => {
    const res = await fetch(`${t.url}${path}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { Message: string }).Message).toBe(INPUT_MESSAGES.wrongType);
  });

  it('a route that fails after naming a media type still answers the JSON envelope', async () => {
    const { getStream } = t.ctx.storage;
    // The store fails while the image is being read: the route has already set image/png.
    t.ctx.storage.getStream = async () =>
      new Readable({
        read() {
          this.destroy(new Error('storage read failed'));
        },
      });
    try {
      const res = await fetch(`${t.url}${API_ROUTES.media}/public/folder/logo.png`);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ StatusCode: 500, Message: 'Something went wrong. Please try again.', HasError: true, result: null });
    } finally {
      t.ctx.storage.getStream = getStream;
    }
  });
});
