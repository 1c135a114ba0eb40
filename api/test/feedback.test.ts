import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type BibSearchResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedCartFixture, type CartFixture } from './cartFixtures';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { insertOrder } from '../src/features/orders/orderStore';
import { FEEDBACK_MESSAGES } from '../src/features/feedback/routes';

describe('record feedback on image: hide (1) and not me (2)', () => {
  let t: TestApp;
  let f: CartFixture;
  let userToken: string;
  let ownerId: number;
  let ownerToken: string;
  beforeAll(async () => {
    t = await startTestApp();
    f = await seedCartFixture(t.ctx.db);
    const userId = await createUser(t.ctx.db, { firstName: 'Ravi', lastName: 'K', email: 'ravi@example.com', password: 'Secret#2026' });
    userToken = (await createSession(t.ctx.db, userId)).token;
    ownerId = await createUser(t.ctx.db, { firstName: 'Tara', lastName: 'T', email: 'tara@example.com', password: 'Secret#2026' });
    ownerToken = (await createSession(t.ctx.db, ownerId)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  const auth = () => ({ authorization: `Bearer ${userToken}` });
  const owner = () => ({ authorization: `Bearer ${ownerToken}` });
  const search = (headers: Record<string, string> = {}) =>
    t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber: 'TT100' }, headers);

  it('needs a signed-in user', async () => {
    const { status, body } = await t.request('POST', API_ROUTES.recordFeedback, { usrfeedback: 1, bibNumber: 'TT100', photoids: String(f.photoIds[0]) });
    expect(status).toBe(401);
    expect(body.Message).toBe('You must log in to perform this action.');
  });

  it('needs at least one photo of that BIB', async () => {
    const empty = await t.request('POST', API_ROUTES.recordFeedback, { usrfeedback: 1, bibNumber: 'TT100', photoids: '' }, auth());
    expect(empty.status).toBe(400);
    expect(empty.body.Message).toBe('Select atleast one photo.');
    const foreign = await t.request('POST', API_ROUTES.recordFeedback, { usrfeedback: 2, bibNumber: 'TT100', photoids: String(f.otherBibPhotoId) }, auth());
    expect(foreign.status).toBe(400);
  });

  it("Hide by a signed-in user who is not the BIB's owner is refused and hides nothing", async () => {
    const hide = await t.request(
      'POST',
      API_ROUTES.recordFeedback,
      { usrfeedback: 1, bibNumber: 'tt100', photoids: `${f.photoIds[0]},${f.photoIds[1]}` },
      auth(),
    );
    expect(hide.status).toBe(403);
    expect(hide.body.Message).toBe(FEEDBACK_MESSAGES.notOwner);
    expect(await t.ctx.db.query('select 1 from photo_feedback')).toEqual([]);
    expect((await search()).body.result.photo.map((p) => p.id)).toEqual(expect.arrayContaining(f.photoIds.slice(0, 2)));
  });

  it("the owner (a paid order of the BIB) hides photos from the BIB's results for everyone, and can undo it", async () => {
    await insertOrder(
      t.ctx.db,
      {
        userId: ownerId,
        placedByUserId: ownerId,
        eventId: f.eventId,
        bibNumber: 'TT100',
        name: 'Tara T',
        email: 'tara@example.com',
        phone: '9800000000',
        isdCode: '+91',
        status: 'Paid',
        subtotal: 100,
        discount: 0,
        gst: 18,
        amount: 118,
        amountText: '118.00',
        productinfo: 'photos',
        searchKind: 'bib',
        packageKind: null,
        bundle: null,
        unlabeled: false,
        isPreorder: false,
        sponsorOfferId: null,
        cartInfo: { searchKind: 'bib', packageKind: null, lines: [], discountedPhotoIds: [] },
      },
      [],
    );
    const before = (await search()).body.result.photo.length;
    const body = { usrfeedback: 1, bibNumber: 'tt100', eventID: f.eventId, photoids: `${f.photoIds[0]},${f.photoIds[1]}` };
    const hide = await t.request('POST', API_ROUTES.recordFeedback, body, owner());
    expect(hide.status).toBe(200);
    expect(hide.body.Message).toBe(FEEDBACK_MESSAGES.recorded);
    const ids = (await search()).body.result.photo.map((p) => p.id);
    expect(ids).toHaveLength(before - 2);
    expect(ids).not.toContain(f.photoIds[0]);

    // Someone else cannot undo the owner's hide; the owner can.
    await t.request('POST', API_ROUTES.recordFeedback, { ...body, undo: true }, auth());
    expect((await search()).body.result.photo).toHaveLength(before - 2);
    const undo = await t.request('POST', API_ROUTES.recordFeedback, { ...body, undo: true }, owner());
    expect(undo.body.Message).toBe(FEEDBACK_MESSAGES.undone);
    expect((await search()).body.result.photo).toHaveLength(before);
  });

  it('Not Me is a report for the organiser: the reporter stops seeing the photo at once, others still see it, the reporter can withdraw it', async () => {
    const photo = f.photoIds[2];
    const notMe = await t.request('POST', API_ROUTES.recordFeedback, { usrfeedback: 2, bibNumber: 'TT100', photoids: String(photo) }, auth());
    expect(notMe.status).toBe(200);
    expect(notMe.body.Message).toBe(FEEDBACK_MESSAGES.reported);
    const queue = await t.ctx.db.query<{ photo_id: number; status: string; event_id: number }>(
      'select photo_id, status, event_id from photo_reports where withdrawn_at is null',
    );
    expect(queue).toEqual([{ photo_id: photo, status: 'open', event_id: f.eventId }]);

    expect((await search(auth())).body.result.photo.map((p) => p.id)).not.toContain(photo);
    expect((await search()).body.result.photo.map((p) => p.id)).toContain(photo);
    expect((await search(owner())).body.result.photo.map((p) => p.id)).toContain(photo);

    // Upheld by the organiser, the photo leaves the BIB's results for everyone.
    await t.ctx.db.query(`update photo_reports set status = 'upheld' where photo_id = $1`, [photo]);
    expect((await search()).body.result.photo.map((p) => p.id)).not.toContain(photo);
    await t.ctx.db.query(`update photo_reports set status = 'open' where photo_id = $1`, [photo]);

    await t.request('POST', API_ROUTES.recordFeedback, { usrfeedback: 2, bibNumber: 'TT100', photoids: String(photo), undo: true }, auth());
    expect((await search(auth())).body.result.photo.map((p) => p.id)).toContain(photo);
    expect(await t.ctx.db.query('select 1 from photo_reports where withdrawn_at is null')).toEqual([]);
  });
});
