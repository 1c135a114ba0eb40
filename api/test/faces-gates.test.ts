import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, FACE_CONSENT_VERSION, SELFIE_MESSAGES, type BibSearchResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { GOOD_FACE_QUALITY } from './support/faceQuality';
import { createSelfieEvent, FACES_DIR, loadFaceSet } from '../bench/faceScenes';
import { splitPeople, variantSelfie, type SelfieVariant } from '../bench/selfieVariants';
import { closeFaceDetector, faceDetector } from '../src/models/faces/detector';

/**
 * The selfie quality gates on the server, through the real selfie route: selfies made at test time
 * from a face photo of the tuning family (turned away, in sunglasses, overexposed, dark, too far,
 * blurred) are refused with the message that says what to change, the good selfie is searched, and
 * an on-device descriptor whose quality fails a gate is refused the same way. The face set lives
 * outside the repository; without it the real-image cases are skipped.
 */
const faceSet = loadFaceSet();
if (!faceSet) console.warn(`Face gate tests with real faces skipped: no face photos at ${FACES_DIR} (people/photo.png).`);

describe('selfie quality gates on the server', () => {
  let t: TestApp;
  let eventId: number;
  let ip = 0;
  const search = (body: Record<string, unknown>) =>
    t.request<BibSearchResult>(
      'POST',
      API_ROUTES.searchBySelfie,
      { consentVersion: FACE_CONSENT_VERSION, eventID: eventId, ...body },
      { 'x-forwarded-for': `10.9.0.${++ip}` },
    );

  beforeAll(async () => {
    t = await startTestApp({ trustProxy: ['127.0.0.1'] });
    eventId = await createSelfieEvent(t.ctx.db, 'Face Gates Run 2026');
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => closeAll({ close: closeFaceDetector }, t), TEAR_DOWN_TIMEOUT_MS);

  it('refuses an on-device descriptor whose face fails a gate, with the same message as the phone shows', async () => {
    const embedding = Array.from({ length: 128 }, (_, i) => (i % 2 === 0 ? 0.13 : 0.126));
    for (const [quality, message] of [
      [{ ...GOOD_FACE_QUALITY, yaw: 0.8 }, SELFIE_MESSAGES.turnedAway],
      [{ ...GOOD_FACE_QUALITY, eyeLight: 2.4 }, SELFIE_MESSAGES.eyesCovered],
      [{ ...GOOD_FACE_QUALITY, brightness: 0.93 }, SELFIE_MESSAGES.tooBright],
    ] as const) {
      const res = await search({ embedding, faceQuality: quality });
      expect({ status: res.status, message: res.body.Message }).toEqual({ status: 400, message });
    }
    // Without its quality measures the descriptor is not searched with.
    const bare = await search({ embedding });
    expect({ status: bare.status, message: bare.body.Message }).toEqual({ status: 400, message: SELFIE_MESSAGES.qualityNeeded });
    // A good face passes the gates: no photos in this event, so 404.
    expect((await search({ embedding, faceQuality: GOOD_FACE_QUALITY })).status).toBe(404);
  });

  (faceSet ? it : it.skip)(
    'tells the runner what to change about a real selfie: turn to the camera, remove sunglasses, less light, more light, closer, hold still',
    async () => {
      const { tuning } = splitPeople(faceSet!.map((f) => f.person));
      const face = faceSet!.find((f) => f.person === tuning[0])!;
      const selfie = async (variant: SelfieVariant, towards: 'left' | 'right' = 'right') =>
        (await variantSelfie(face, variant, { towards })).toString('base64');
      // The good selfie is searched (no photos in this event: 404), not refused.
      const clean = await search({ selfieimg: await selfie('clean') });
      expect(clean.status).toBe(404);
      // Turned further to the side it already leans to.
      const [cleanFace] = await faceDetector().detect(Buffer.from(await selfie('clean'), 'base64'), 'selfie');
      const towards = cleanFace!.quality.yaw >= 0 ? 'right' : 'left';
      for (const [variant, message] of [
        ['turned', SELFIE_MESSAGES.turnedAway],
        ['sunglasses', SELFIE_MESSAGES.eyesCovered],
        ['bright', SELFIE_MESSAGES.tooBright],
        ['dark', SELFIE_MESSAGES.tooDark],
        ['far', SELFIE_MESSAGES.tooSmall],
      ] as const) {
        const res = await search({ selfieimg: await selfie(variant, towards) });
        expect({ variant, status: res.status, message: res.body.Message }).toEqual({ variant, status: 400, message });
      }
    },
    180_000,
  );
});
