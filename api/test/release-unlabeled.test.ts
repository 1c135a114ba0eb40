import { insertTestPhoto } from './support/photos';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { seedCartFixture, type CartFixture } from './cartFixtures';
import { loadConfig } from '../src/config/config';
import { unlabeledNotShownMessage } from '../src/rules/privacy';

/**
 * Found by the authorization matrix: an event that does not show its unlabeled photos still priced
 * and sold them (photo ids are sequential), so buying released what paging refuses.
 */
describe('unlabeled photos of an event that does not show them', () => {
  let t: TestApp;
  let f: CartFixture;
  let hiddenEventId: number;
  let hiddenPhotoId: number;
  beforeAll(async () => {
    t = await startTestApp({ security: { ...loadConfig().security, captchaCost: 20, captchaMaxCounter: 400 } });
    f = await seedCartFixture(t.ctx.db);
    hiddenEventId = (
      await t.ctx.db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, issearchable, showunlabeled) values ('Hidden Unlabeled 10K 2026', '2026-02-01', '2026-02-01', true, false) returning id`,
      )
    )[0].id;
    hiddenPhotoId = await insertTestPhoto(t.ctx.db, { eventId: hiddenEventId, bib: null, imageId: 'HID-1' });
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  const cartOf = (eventId: number, id: number) => ({
    eventId,
    bibNumber: 'unlabeled',
    searchKind: 'unlabeled',
    packageKind: null,
    lines: [{ type: 'download', category: 'image', id }],
    sponsorofferID: null,
    discountedPhotoIds: [],
  });

  it('are neither paged nor priced, while a showing event prices its own', async () => {
    const paged = await t.request('POST', API_ROUTES.paginatePhotos, { event_id: hiddenEventId, bib_number: 'unlabeled' });
    expect({ status: paged.status, message: paged.body.Message }).toEqual({ status: 400, message: unlabeledNotShownMessage('Hidden Unlabeled 10K 2026') });
    const priced = await t.request('POST', API_ROUTES.unlabeledCartDetails, cartOf(hiddenEventId, hiddenPhotoId));
    expect({ status: priced.status, message: priced.body.Message }).toEqual({ status: 400, message: unlabeledNotShownMessage('Hidden Unlabeled 10K 2026') });
    expect((await t.request('POST', API_ROUTES.unlabeledCartDetails, cartOf(f.eventId, f.unlabeledPhotoIds[0]))).status).toBe(200);
  });

  it('cannot be ordered', async () => {
    const res = await t.request('POST', API_ROUTES.createOrder, {
      name: 'Guest Buyer',
      email: 'guest@example.com',
      phone_number: '9876543210',
      pincode: '560001',
      captcha: await solveCaptcha(t.url),
      eventID: hiddenEventId,
      bibNumber: 'unlabeled',
      cartInfo: { searchKind: 'unlabeled', packageKind: null, lines: [{ type: 'download', category: 'image', id: hiddenPhotoId }], discountedPhotoIds: [] },
    });
    expect({ status: res.status, message: res.body.Message }).toEqual({ status: 400, message: unlabeledNotShownMessage('Hidden Unlabeled 10K 2026') });
    expect((await t.ctx.db.query('select 1 from orders where event_id = $1', [hiddenEventId])).length).toBe(0);
  });
});
