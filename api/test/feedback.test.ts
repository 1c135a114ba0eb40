import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type BibSearchResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedCartFixture, type CartFixture } from './cartFixtures';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';

describe('record feedback on image: hide (1) and not me (2)', () => {
  let t: TestApp;
  let f: CartFixture;
  let userToken: string;
  beforeAll(async () => {
    t = await startTestApp();
    f = await seedCartFixture(t.ctx.db);
    const userId = await createUser(t.ctx.db, { firstName: 'Ravi', lastName: 'K', email: 'ravi@example.com', password: 'Secret#2026' });
    userToken = (await createSession(t.ctx.db, userId)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  const auth = () => ({ authorization: `Bearer ${userToken}` });
  const search = () => t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber: 'TT100' });

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

  it('records hide and not me and the BIB search leaves those photos out', async () => {
    const before = await search();
    expect(before.body.result.photo.map((p) => p.id)).toEqual(expect.arrayContaining(f.photoIds.slice(0, 3)));

    const hide = await t.request('POST', API_ROUTES.recordFeedback, { usrfeedback: 1, bibNumber: 'tt100', photoids: `${f.photoIds[0]},${f.photoIds[1]}` }, auth());
    expect(hide.status).toBe(200);
    const notMe = await t.request('POST', API_ROUTES.recordFeedback, { usrfeedback: 2, bibNumber: 'TT100', photoids: String(f.photoIds[2]) }, auth());
    expect(notMe.status).toBe(200);

    const rows = await t.ctx.db.query<{ photo_id: number; feedback: number; bib_number: string }>('select photo_id, feedback, bib_number from photo_feedback order by photo_id');
    expect(rows).toEqual([
      { photo_id: f.photoIds[0], feedback: 1, bib_number: 'TT100' },
      { photo_id: f.photoIds[1], feedback: 1, bib_number: 'TT100' },
      { photo_id: f.photoIds[2], feedback: 2, bib_number: 'TT100' },
    ]);
    const after = await search();
    const ids = after.body.result.photo.map((p) => p.id);
    expect(ids).not.toContain(f.photoIds[0]);
    expect(ids).not.toContain(f.photoIds[2]);
    expect(ids).toHaveLength(before.body.result.photo.length - 3);
  });
});
