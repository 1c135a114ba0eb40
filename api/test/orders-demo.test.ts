import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { FREE_OFFER_COUPON, FREE_OFFER_EVENT, seedOrdersDemo } from '../src/features/orders/demoOrders';

describe('orders demo rows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('adds the 100% sponsor offer once, and nothing without the demo event', async () => {
    await seedOrdersDemo(t.ctx);
    expect(await t.ctx.db.query('select 1 from sponsor_offers')).toHaveLength(0);
    await t.ctx.db.query(`insert into events (name, from_date, to_date, issearchable) values ($1, '2026-03-08', '2026-03-08', true)`, [FREE_OFFER_EVENT]);
    await seedOrdersDemo(t.ctx);
    await seedOrdersDemo(t.ctx);
    const offers = await t.ctx.db.query<{ coupon_name: string; discount_amount: number; discount_type: string }>(
      'select coupon_name, discount_amount, discount_type from sponsor_offers',
    );
    expect(offers).toEqual([{ coupon_name: FREE_OFFER_COUPON, discount_amount: 100, discount_type: 'percent' }]);
  });
});
