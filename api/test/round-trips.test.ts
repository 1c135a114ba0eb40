import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CartLine, CartRequest } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { imageLines, seedCartFixture, tt100Cart, type CartFixture } from './cartFixtures';
import { recordingDb, type RecordedStatement } from '../src/db/db';
import type { AppContext } from '../src/context';
import { buildBill } from '../src/features/cart';
import { createSession, findSession } from '../src/features/accounts';
import { eventsByThemeOrYear, eventThemes, homePage, listEvents } from '../src/features/events/queries';

/**
 * The database round trips of the hot storefront reads (the performance issue): each is counted on
 * a recording database, so a change that adds a query per call fails here instead of only slowing
 * the shop under load. The results are checked too: fewer round trips must give the same answer.
 */
describe('round trips of home, event list and cart bill', () => {
  let t: TestApp;
  let f: CartFixture;
  beforeAll(async () => {
    t = await startTestApp();
    f = await seedCartFixture(t.ctx.db);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  /** Runs fn on a context whose database records every statement; returns its result and the statements. */
  async function counted<T>(fn: (ctx: AppContext) => Promise<T>): Promise<{ result: T; statements: RecordedStatement[] }> {
    const statements: RecordedStatement[] = [];
    const result = await fn({ ...t.ctx, db: recordingDb(t.ctx.db, statements) });
    return { result, statements };
  }

  const cart = (lines: CartLine[], extra: Partial<CartRequest> = {}): CartRequest => tt100Cart(f, lines, extra);
  const india = { ip: '127.0.0.1', sessionId: null };
  // The fixture's three events share a date: newest first means the last inserted first.
  const NEWEST_FIRST = ['No Prints 10K 2026', 'Private Trail Run 2026', 'Test City Marathon 2026'];

  it('the cart bill of a cart with photos, a print, a collage and the sponsor offer takes one statement', async () => {
    const request = cart(
      [
        ...imageLines(f.photoIds.slice(0, 3)),
        { type: 'download', category: 'video', id: f.videoId },
        { type: 'print', category: 'image', id: f.photoIds[0], printProductId: f.printIds.mug },
        { type: 'collage', category: 'image', id: f.photoIds[0], collagePhotoIds: f.photoIds.slice(0, 3), orientation: 'Vertical' },
      ],
      { sponsorofferID: f.offerId, discountedPhotoIds: f.photoIds.slice(0, 3) },
    );
    const { result: bill, statements } = await counted((ctx) => buildBill(ctx, request, india));
    expect(statements).toHaveLength(1);
    // What the buyer is charged: two of the three photos (200) discounted by 20 percent (the cap), the video, the mug, the collage.
    expect(bill).toMatchObject({ eventName: 'Test City Marathon 2026', bibNumber: 'TT100', photo_count: 3, print_count: 1, collage_count: 1 });
    expect(bill.discountedPhotoIds).toEqual(f.photoIds.slice(0, 2));
    expect(bill.offerInfo).toEqual({ offerName: 'FAST20', discount_price: 27 });
  });

  it('a refused cart is refused after that one statement too', async () => {
    const { statements } = await counted((ctx) =>
      buildBill(ctx, cart(imageLines([f.otherBibPhotoId])), india).catch((error: Error) => {
        expect(error.message).toContain('One order holds images for a single BIB only');
      }),
    );
    expect(statements).toHaveLength(1);
  });

  it('the bill of a privacy-checked BIB takes one statement, verified or not', async () => {
    const { token } = await createSession(t.ctx.db, null);
    const session = (await findSession(t.ctx.db, token))!;
    const request = cart(imageLines(f.privatePhotoIds), { eventId: f.privateEventId, bibNumber: 'PR7' });
    const locked = await counted((ctx) => buildBill(ctx, request, { ip: '127.0.0.1', sessionId: session.id }).catch((error: Error) => error.message));
    expect(locked.result).toBe('Please verify the OTP sent to the participant to see these photos.');
    expect(locked.statements).toHaveLength(1);

    await t.ctx.db.query(`insert into session_verified_bibs (session_id, event_id, bib_number) values ($1, $2, 'PR7')`, [session.id, f.privateEventId]);
    const released = await counted((ctx) => buildBill(ctx, request, { ip: '127.0.0.1', sessionId: session.id }));
    expect(released.result).toMatchObject({ bibNumber: 'PR7', photo_count: 2 });
    expect(released.statements).toHaveLength(1);
  });

  it('home takes one statement', async () => {
    const { result, statements } = await counted((ctx) => homePage(ctx.db, ctx.storage, '2026-11-21'));
    expect(statements).toHaveLength(1);
    expect(
      Object.values(result.past_event)
        .flat()
        .map((e) => e.event_name),
    ).toEqual(NEWEST_FIRST);
  });

  it('the event list, the events of a year and the filters of the list take one statement each', async () => {
    const list = await counted((ctx) => listEvents(ctx.db));
    expect(list.statements).toHaveLength(1);
    const year = await counted((ctx) => eventsByThemeOrYear(ctx.db, '2026'));
    expect(list.result.map((e) => e.name)).toEqual(NEWEST_FIRST);
    expect(year.statements).toHaveLength(1);
    expect(year.result.map((e) => e.name)).toEqual(NEWEST_FIRST);
    const themes = await counted((ctx) => eventThemes(ctx.db));
    expect(themes.statements).toHaveLength(1);
    expect(themes.result.evtyears).toEqual([{ evtyear: 2026 }]);
  });
});
