import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { FACES_DIR, addEventPhoto, createSelfieEvent, loadFaceSet, renderScene, renderSelfie, seededRandom, type FaceImage } from '../bench/faceScenes';
import { closeFaceDetector, faceDetector } from '../src/models/faces/detector';
import { startFaceIndexer } from '../src/pipeline/faces';
import { searchBySelfie } from '../src/features/faces/selfieSearch';
import { AppError } from '../src/http/envelope';

/**
 * A regression check of the product's path on real faces: every photo of every person in the face set
 * is pasted into race scenes (some with several runners), the scenes are indexed by the background
 * job, then a selfie made from each face photo must find the scenes of that person. Recall and
 * precision are summed over all selfies at the deployed threshold, so these are in-sample figures;
 * the out-of-sample ones (leave-one-person-out) are printed by api/bench/face-quality.bench.ts.
 * The face set lives outside the repository; without it the test is skipped.
 */
const faceSet = loadFaceSet();
if (!faceSet) console.warn(`Face quality test skipped: no face photos at ${FACES_DIR} (people/photo.png).`);
const describeWithFaces = faceSet ? describe : describe.skip;

describeWithFaces('selfie search quality on the face set', () => {
  let t: TestApp;
  let eventId: number;
  /** scene photo id -> people in it */
  const peopleInPhoto = new Map<number, Set<string>>();

  beforeAll(async () => {
    t = await startTestApp();
    eventId = await createSelfieEvent(t.ctx.db, 'Face Quality Run 2026');
    const faces = faceSet!;
    const people = [...new Set(faces.map((f) => f.person))];
    const perPerson = Math.min(...people.map((p) => faces.filter((f) => f.person === p).length));
    const random = seededRandom(42);
    let sceneNo = 0;
    // For photo number j of every person, group the people into scenes: alternately 3+2 runners and
    // 2+1+1+1, rotating who stands together, so nobody appears twice in one scene.
    for (let j = 0; j < perPerson; j += 1) {
      const rotated = people.map((_, i) => people[(i + j) % people.length]!);
      const sizes = j % 2 === 0 ? [3, 2] : [2, 1, 1, 1];
      let at = 0;
      for (const size of sizes) {
        const group = rotated.slice(at, at + size);
        at += size;
        if (group.length === 0) continue;
        const images = group.map((person) => faces.filter((f) => f.person === person)[j]!.image);
        const jpeg = await renderScene(images, random);
        sceneNo += 1;
        const photoId = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, `FQ-${String(sceneNo).padStart(3, '0')}`, jpeg);
        peopleInPhoto.set(photoId, new Set(group));
      }
    }
    const indexer = startFaceIndexer({ db: t.ctx.db, storage: t.ctx.storage });
    await indexer.whenIdle();
    await indexer.stop();
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => closeAll({ close: closeFaceDetector }, t), TEAR_DOWN_TIMEOUT_MS);

  it('indexes every scene and finds the pasted faces', async () => {
    const jobs = await t.ctx.db.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from face_index_jobs where event_id = $1 group by status',
      [eventId],
    );
    expect(jobs).toEqual([{ status: 'done', n: peopleInPhoto.size }]);
    const pasted = [...peopleInPhoto.values()].reduce((s, p) => s + p.size, 0);
    const [{ n: stored }] = (await t.ctx.db.query<{ n: number }>('select count(*)::int as n from photo_faces where event_id = $1', [eventId])) as [
      { n: number },
    ];
    console.log(`face index: ${peopleInPhoto.size} scenes, ${pasted} faces pasted, ${stored} faces stored`);
    expect(stored).toBeGreaterThanOrEqual(Math.floor(pasted * 0.95));
  });

  it('finds the right photos for a selfie of every face photo (recall >= 0.9, precision >= 0.95)', async () => {
    let truePositives = 0;
    let falsePositives = 0;
    let falseNegatives = 0;
    const lines: string[] = [];
    for (const face of faceSet as FaceImage[]) {
      const selfie = await renderSelfie(face.image, 'jpeg');
      let found: number[] = [];
      try {
        const result = await searchBySelfie(t.ctx, faceDetector(), { eventID: eventId, selfieimg: selfie.toString('base64') }, null);
        found = result.photo.map((p) => p.id);
        expect(result.bibNumber).toBe('selfie');
      } catch (error) {
        if (!(error instanceof AppError && error.statusCode === 404)) throw error;
      }
      const expected = [...peopleInPhoto].filter(([, people]) => people.has(face.person)).map(([id]) => id);
      const tp = found.filter((id) => expected.includes(id)).length;
      truePositives += tp;
      falsePositives += found.length - tp;
      falseNegatives += expected.length - tp;
      lines.push(`${face.file}: found ${found.length}, right ${tp}/${expected.length}`);
    }
    const recall = truePositives / (truePositives + falseNegatives);
    const precision = truePositives / (truePositives + falsePositives);
    console.log(`selfie quality over ${faceSet!.length} selfies: recall ${recall.toFixed(3)}, precision ${precision.toFixed(3)}\n${lines.join('\n')}`);
    expect(recall).toBeGreaterThanOrEqual(0.9);
    expect(precision).toBeGreaterThanOrEqual(0.95);
  }, 180_000);
});
