import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  API_ROUTES,
  FACE_CONSENT_VERSION,
  SELFIE_MESSAGES,
  type BibSearchResult,
  type FaceOptOutResult,
  type SeveralFacesResult,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { addEventPhoto, createSelfieEvent, FACES_DIR, loadFaceSet, renderScene, renderSelfie, seededRandom } from '../bench/faceScenes';
import { closeFaceDetector, faceDetector } from '../src/models/faces/detector';
import { startFaceIndexer } from '../src/pipeline/faces';
import { createSession } from '../src/features/accounts/sessions';
import { createUser } from '../src/features/accounts/users';
import { deleteEventFaceData } from '../src/features/faces';
import { sweepNewPhotos } from '../src/features/faces/faceJobs';

/**
 * What the runner is told about their selfie, the on-device path, and the two privacy controls: a
 * runner leaving face search, and an organiser deleting an event's face data. Real faces come from
 * the face set outside the repository; without it these cases are skipped.
 */
const faceSet = loadFaceSet();
if (!faceSet) console.warn(`Face privacy tests skipped: no face photos at ${FACES_DIR} (people/photo.png).`);
const describeWithFaces = faceSet ? describe : describe.skip;

describeWithFaces('selfie guidance, on-device descriptors and face privacy', () => {
  let t: TestApp;
  let eventId: number;
  let token: string;
  const people = faceSet ? [...new Set(faceSet.map((f) => f.person))] : [];
  const photoOf = (person: string, n: number) => faceSet!.filter((f) => f.person === person)[n]!.image;
  /** Scene photo id -> people in it. */
  const scenes = new Map<number, string[]>();
  let ip = 0;
  const from = (extra: Record<string, string> = {}) => ({ 'x-forwarded-for': `10.8.0.${++ip}`, ...extra });
  const selfieOf = async (person: string, n = 0) => (await renderSelfie(photoOf(person, n), 'jpeg')).toString('base64');
  const search = (body: Record<string, unknown>) =>
    t.request<BibSearchResult>('POST', API_ROUTES.searchBySelfie, { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, ...body }, from());
  const index = async () => {
    const indexer = startFaceIndexer({ db: t.ctx.db, storage: t.ctx.storage });
    await indexer.whenIdle();
    await indexer.stop();
  };

  beforeAll(async () => {
    t = await startTestApp({ trustProxy: ['127.0.0.1'] });
    eventId = await createSelfieEvent(t.ctx.db, 'Face Privacy Run 2026');
    const random = seededRandom(21);
    // Photos 1 to 3 of the first three people, two or three to a scene.
    for (let j = 1; j <= 3; j += 1) {
      const group = j === 2 ? people.slice(0, 2) : people.slice(0, 3);
      const id = await addEventPhoto(
        t.ctx.db,
        t.ctx.storage,
        eventId,
        `FP-${j}`,
        await renderScene(
          group.map((p) => photoOf(p, j)),
          random,
        ),
      );
      scenes.set(id, group);
    }
    await index();
    const userId = await createUser(t.ctx.db, { firstName: 'Anu', lastName: 'Runner', email: 'anu.runner@example.com', password: 'Finish@2026' });
    token = (await createSession(t.ctx.db, userId)).token;
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => closeAll({ close: closeFaceDetector }, t), TEAR_DOWN_TIMEOUT_MS);

  it('says what to change when the selfie is too dark, too blurred or the face too small', async () => {
    const portrait = photoOf(people[0]!, 0);
    const dark = await sharp(portrait).resize(300, 300).linear(0.12, 0).jpeg().toBuffer();
    // Blurred, with the margin of a real selfie around the face (so the detector still finds it).
    const blurred = await sharp(
      await sharp(portrait).resize(300, 300).extend({ top: 90, bottom: 90, left: 70, right: 70, background: '#cdc8be' }).png().toBuffer(),
    )
      .blur(3.5)
      .jpeg()
      .toBuffer();
    const small = await sharp(portrait).resize(60, 60).extend({ top: 300, bottom: 300, left: 300, right: 300, background: '#cfc8be' }).jpeg().toBuffer();
    for (const [image, message] of [
      [dark, SELFIE_MESSAGES.tooDark],
      [blurred, SELFIE_MESSAGES.tooBlurred],
      [small, SELFIE_MESSAGES.tooSmall],
    ] as const) {
      const res = await search({ selfieimg: image.toString('base64') });
      expect({ status: res.status, message: res.body.Message }).toEqual({ status: 400, message });
    }
  }, 120_000);

  it('lets the runner pick their face when the selfie shows several people', async () => {
    const two = await sharp({ create: { width: 760, height: 420, channels: 3, background: '#cfc8be' } })
      .composite([
        { input: await sharp(photoOf(people[0]!, 0)).resize(300, 300).toBuffer(), left: 40, top: 60 },
        { input: await sharp(photoOf(people[4]!, 0)).resize(300, 300).toBuffer(), left: 420, top: 60 },
      ])
      .jpeg()
      .toBuffer();
    const first = await search({ selfieimg: two.toString('base64') });
    expect(first.status).toBe(409);
    expect(first.body.Message).toBe(SELFIE_MESSAGES.severalFaces);
    const choices = first.body.result as unknown as SeveralFacesResult;
    expect(choices.faces).toHaveLength(2);
    expect(choices).toMatchObject({ width: 760, height: 420 });
    // The left face is people[0], who is in every scene; the right one (people[4]) is in none.
    const left = [...choices.faces].sort((a, b) => a.box[0] - b.box[0]);
    const mine = await search({ selfieimg: two.toString('base64'), faceBox: left[0]!.box });
    expect(mine.status).toBe(200);
    expect(mine.body.result.photo.map((p) => p.id).sort()).toEqual([...scenes.keys()].sort());
    const theirs = await search({ selfieimg: two.toString('base64'), faceBox: left[1]!.box });
    expect(theirs.status).toBe(404);
  }, 120_000);

  it('matches an on-device descriptor like the selfie, stores nothing of it, and refuses one the model did not make', async () => {
    const selfie = Buffer.from(await selfieOf(people[1]!), 'base64');
    const [face] = await faceDetector().detect(selfie, 'selfie');
    const descriptor = face!.descriptor;
    const faceQuality = face!.quality;
    const before = (await t.ctx.db.query<{ n: number }>('select count(*)::int as n from photo_faces'))[0]!.n;
    const res = await search({ embedding: descriptor, faceQuality });
    expect(res.status).toBe(200);
    const expected = [...scenes].filter(([, who]) => who.includes(people[1]!)).map(([id]) => id);
    expect(res.body.result.photo.map((p) => p.id).sort()).toEqual(expected.sort());
    expect((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from photo_faces'))[0]!.n).toBe(before);
    expect((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from face_optouts'))[0]!.n).toBe(0);

    for (const bad of [descriptor.map((v) => v * 5), descriptor.slice(0, 127), descriptor.map(() => 0)]) {
      const refused = await search({ embedding: bad, faceQuality });
      expect({ status: refused.status, message: refused.body.Message }).toEqual({ status: 400, message: SELFIE_MESSAGES.badDescriptor });
    }
  }, 120_000);

  it('leaves a runner out of face search at their request: their faces are deleted, not stored again, and not matched', async () => {
    const me = people[2]!;
    const auth = { authorization: `Bearer ${token}` };
    const refused = await t.request('POST', API_ROUTES.faceOptOut, { selfieimg: await selfieOf(me) }, from());
    expect(refused.status).toBe(401);
    expect((await search({ selfieimg: await selfieOf(me) })).status).toBe(200);

    const res = await t.request<FaceOptOutResult>('POST', API_ROUTES.faceOptOut, { selfieimg: await selfieOf(me) }, from(auth));
    expect(res.status).toBe(200);
    const inScenes = [...scenes.values()].filter((who) => who.includes(me)).length;
    expect(res.body.result).toEqual({ optedOut: true, removedFaces: inScenes });
    // Nobody finds them any more, with their selfie or another photo of them.
    const miss = await search({ selfieimg: await selfieOf(me, 4) });
    expect(miss.status).toBe(404);
    // A new photo of them is indexed without their face; the other runner in it still is.
    const random = seededRandom(5);
    const photoId = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, 'FP-new', await renderScene([photoOf(me, 4), photoOf(people[0]!, 4)], random));
    await index();
    expect((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from photo_faces where photo_id = $1', [photoId]))[0]!.n).toBe(1);
    expect((await search({ selfieimg: await selfieOf(me) })).status).toBe(404);

    // Withdrawn: photos indexed from then on find them again.
    const back = await t.request<FaceOptOutResult>('POST', API_ROUTES.faceOptOutWithdraw, {}, from(auth));
    expect(back.body.result).toEqual({ optedOut: false, removedFaces: 0 });
    await t.ctx.db.query(`update face_index_jobs set status = 'pending', priority = 1 where photo_id = $1`, [photoId]);
    await index();
    const found = await search({ selfieimg: await selfieOf(me) });
    expect(found.status).toBe(200);
    expect(found.body.result.photo.map((p) => p.id)).toEqual([photoId]);
  }, 240_000);

  it("honours an organiser's deletion of the event's face data: nothing matches and nothing is queued or stored again", async () => {
    expect((await search({ selfieimg: await selfieOf(people[0]!) })).status).toBe(200);
    const { faces } = await t.ctx.db.transaction((tx) => deleteEventFaceData(tx, eventId));
    expect(faces).toBeGreaterThan(0);
    expect((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from photo_faces where event_id = $1', [eventId]))[0]!.n).toBe(0);
    const res = await search({ selfieimg: await selfieOf(people[0]!) });
    expect({ status: res.status, message: res.body.Message }).toEqual({ status: 400, message: 'Search by selfie is not available for Face Privacy Run 2026.' });
    // Nothing queues the event's photos again (selfie search is off), so nothing of them is stored.
    expect(await sweepNewPhotos(t.ctx.db)).toBe(0);
    await index();
    expect((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from photo_faces where event_id = $1', [eventId]))[0]!.n).toBe(0);
  }, 240_000);
});
