import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, PIN_CODE_MESSAGE, type PaymentForm } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { solveCaptcha } from './support/captcha';
import { seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';

/**
 * Checkout asks for what the order needs: shipping address and PIN code only when it ships a print
 * or a collage; the server holds the same rule (an order of downloads only stores neither, one with
 * a print is refused without them or with a PIN code that is not 6 digits starting 1-9).
 */
describe('create order: address and PIN code only for prints and collages', () => {
  let t: TestApp;
  let f: OrdersFixture;
  let token: string;
  let frameId: number;
  const auth = () => ({ authorization: `Bearer ${token}` });
  const downloads = () => ({
    eventID: f.eventId,
    bibNumber: f.bib,
    cartInfo: { searchKind: 'bib', packageKind: null, lines: [{ type: 'download', category: 'image', id: f.photoIds[0] }], discountedPhotoIds: [] },
  });
  const withFrame = () => ({
    eventID: f.eventId,
    bibNumber: f.bib,
    cartInfo: {
      searchKind: 'bib',
      packageKind: null,
      lines: [{ type: 'print', category: 'image', id: f.photoIds[1], printProductId: frameId }],
      discountedPhotoIds: [],
    },
  });
  const withCollage = () => ({
    eventID: f.eventId,
    bibNumber: f.bib,
    cartInfo: {
      searchKind: 'bib',
      packageKind: null,
      lines: [{ type: 'collage', category: 'image', id: f.photoIds[0], collagePhotoIds: f.photoIds.slice(0, 3), orientation: 'Vertical' }],
      discountedPhotoIds: [],
    },
  });
  const signedInBuyer = { name: 'Ravi Kumar', email: 'ravi@example.com', phone_number: '9811111111', gender: 'Male' };
  const guestBuyer = { name: 'Asha Rao', email: 'asha.ship@example.com', phone_number: '9876543210' };
  const stored = async (txnid: string) =>
    (
      await t.ctx.db.query<{ shipping_address: string | null; pincode: string | null }>('select shipping_address, pincode from orders where txnid = $1', [
        txnid,
      ])
    )[0];

  beforeAll(async () => {
    t = await startTestApp();
    f = await seedOrdersFixture(t.ctx);
    frameId = (
      await t.ctx.db.query<{ id: number }>(
        `insert into print_products (name, image_key, price) values ('Frame 10x10 inches', 'prints/frame.png', 319) returning id`,
      )
    )[0].id;
    const user = await createUser(t.ctx.db, {
      firstName: 'Ravi',
      lastName: 'Kumar',
      email: 'ravi@example.com',
      password: 'Finish@2026',
      primaryPhone: '9811111111',
      emailVerified: true,
    });
    await t.ctx.db.query(`update users set address = '7 Park Street, Kolkata', pincode = '700016' where id = $1`, [user]);
    token = (await createSession(t.ctx.db, user)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('an order of downloads only needs no address or PIN code, stores none and keeps the profile as it was', async () => {
    const signedIn = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, { ...signedInBuyer, ...downloads() }, auth());
    expect(signedIn.body.Message).toBe('Order created');
    expect(await stored(signedIn.body.result.txnid)).toEqual({ shipping_address: null, pincode: null });
    // Whatever the browser sends for them is not stored with a downloads order.
    const sent = await t.request<PaymentForm>(
      'POST',
      API_ROUTES.createOrder,
      { ...signedInBuyer, ...downloads(), shipping_address: 'x', pincode: '0' },
      auth(),
    );
    expect(sent.status).toBe(200);
    expect(await stored(sent.body.result.txnid)).toEqual({ shipping_address: null, pincode: null });
    const profile = await t.ctx.db.query('select address, pincode from users where email = $1', ['ravi@example.com']);
    expect(profile).toEqual([{ address: '7 Park Street, Kolkata', pincode: '700016' }]);

    const guest = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, { ...guestBuyer, ...downloads(), captcha: await solveCaptcha(t.url) });
    expect(guest.body.Message).toBe('Order created');
    expect(await stored(guest.body.result.txnid)).toEqual({ shipping_address: null, pincode: null });
  });

  it('an order with a print or a collage is refused without address and PIN code, or with a PIN code that is not Indian', async () => {
    for (const cart of [withFrame(), withCollage()]) {
      const noAddress = await t.request('POST', API_ROUTES.createOrder, { ...signedInBuyer, ...cart, pincode: '560001' }, auth());
      expect(noAddress.status).toBe(400);
      expect(noAddress.body.Message).toBe('Required!');
      for (const pincode of ['056001', '56001', '5600011', '56OO01']) {
        const bad = await t.request('POST', API_ROUTES.createOrder, { ...signedInBuyer, ...cart, shipping_address: '12 MG Road', pincode }, auth());
        expect([pincode, bad.status, bad.body.Message]).toEqual([pincode, 400, PIN_CODE_MESSAGE]);
      }
    }
    const guestNoAddress = await t.request('POST', API_ROUTES.createOrder, {
      ...guestBuyer,
      ...withFrame(),
      pincode: '560001',
      captcha: await solveCaptcha(t.url),
    });
    expect(guestNoAddress.status).toBe(400);
    expect(guestNoAddress.body.Message).toBe('Required!');
  });

  it('an order with a print keeps the address and PIN code on the order (a guest too)', async () => {
    const signedIn = await t.request<PaymentForm>(
      'POST',
      API_ROUTES.createOrder,
      { ...signedInBuyer, ...withFrame(), shipping_address: '12 MG Road, Bengaluru', pincode: '560001' },
      auth(),
    );
    expect(signedIn.body.Message).toBe('Order created');
    expect(await stored(signedIn.body.result.txnid)).toEqual({ shipping_address: '12 MG Road, Bengaluru', pincode: '560001' });
    const guest = await t.request<PaymentForm>('POST', API_ROUTES.createOrder, {
      ...guestBuyer,
      ...withCollage(),
      shipping_address: '3 Lake Road, Pune',
      pincode: '411001',
      captcha: await solveCaptcha(t.url),
    });
    expect(guest.body.Message).toBe('Order created');
    expect(await stored(guest.body.result.txnid)).toEqual({ shipping_address: '3 Lake Road, Pune', pincode: '411001' });
  });
});
