import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';

describe('platform', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('answers the health check with the envelope', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ StatusCode: 200, HasError: false, result: { status: 'ok' } });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const res = await t.request('GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.HasError).toBe(true);
  });

  it('refuses media without a valid signature and never serves originals', async () => {
    await t.ctx.storage.put('previews/x.jpg', Buffer.from('x'), 'image/jpeg');
    await t.ctx.storage.put('originals/x.jpg', Buffer.from('x'), 'image/jpeg');
    expect((await fetch(`${t.url}/media/previews/x.jpg`)).status).toBe(403);
    expect((await fetch(`${t.url}/media/originals/x.jpg`)).status).toBe(404);
    const good = await t.ctx.storage.signedUrl('previews/x.jpg', new Date(Date.now() + 60_000));
    expect((await fetch(good)).status).toBe(200);
    const expired = await t.ctx.storage.signedUrl('previews/x.jpg', new Date(Date.now() - 1000));
    expect((await fetch(expired)).status).toBe(410);
  });
});
