import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { API_ROUTES, FACE_CONSENT_VERSION, FACE_DESCRIPTOR_LENGTH, FOUND_BY_TEXT, type BibSearchResult } from '@finishline/shared/pure';
import { saveFacesOfPhoto } from '../src/features/faces/embeddingStore';
import type { DetectedFace } from '../src/models/faces/engine';
import { FACE_LINK } from '../src/features/faces/bibFaceLinks';
import { addEventPhoto, createSelfieEvent, seededRandom } from '../bench/faceScenes';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { GOOD_FACE_QUALITY } from './support/faceQuality';

/**
 * Face and BIB together, through the real searches: a photo whose bib is hidden but whose face is
 * the runner's (as learnt from their BIB's photos) is found by the BIB search, marked as found by
 * face; a doubtful face, or a runner seen beside them, is not; a selfie search adds the runner's BIB
 * photos. The faces are descriptors made at chosen distances (the rule, not the model, is tested:
 * bench:face-links measures it on real faces).
 */
const random = seededRandom(31);
const gaussian = () => Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());

function direction(length: number): number[] {
  const v = Array.from({ length: FACE_DESCRIPTOR_LENGTH }, gaussian);
  const norm = Math.hypot(...v);
  return v.map((x) => (x / norm) * length);
}
const near = (base: number[], distance: number) => direction(distance).map((x, i) => base[i]! + x);
const face = (descriptor: number[]): DetectedFace => ({
  box: [100, 100, 120, 120],
  score: 0.99,
  descriptor,
  quality: { size: 120, brightness: 0.5, flatness: 0.05, sharpness: 0.1, yaw: 0, eyeLight: 0.6 },
});

describe('face and BIB together', () => {
  let t: TestApp;
  let eventId: number;
  const runner = direction(1.4);
  const partner = direction(1.4);
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp();
    eventId = await createSelfieEvent(t.ctx.db, 'Face Link Run 2026');
    const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    const photo = async (name: string, bibs: string[], faces: number[][]) => {
      const id = await addEventPhoto(t.ctx.db, t.ctx.storage, eventId, `FL-${name}`, jpeg, bibs[0] ?? null);
      for (const bib of bibs.slice(1)) await t.ctx.db.query(`insert into photo_bibs (photo_id, event_id, bib_number) values ($1, $2, $3)`, [id, eventId, bib]);
      await saveFacesOfPhoto(t.ctx.db, id, eventId, faces.map(face));
      ids[name] = id;
    };
    await photo('runner-alone', ['4321'], [near(runner, 0.15)]);
    await photo('runner-and-partner', ['4321', '5555'], [near(runner, 0.15), near(partner, 0.15)]);
    await photo('partner-alone', ['5555'], [near(partner, 0.15)]);
    await photo('runner-bib-hidden', [], [near(runner, 0.15)]);
    await photo('runner-behind-another-bib', ['9999'], [near(runner, 0.15), direction(1.4)]);
    await photo('partner-bib-hidden', [], [near(partner, 0.15)]);
    // Closer to the runner than the selfie search's threshold (0.56), but not surely them.
    await photo('doubtful', [], [near(runner, (FACE_LINK.linkDistance + 0.56) / 2 + 0.04)]);
    await photo('runner-turned-away', ['4321'], []);
    await photo('stranger', [], [direction(1.4)]);
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  const bibSearch = (bibNumber: string) => t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: eventId, bibNumber });

  it('finds the runner by face in photos whose bib is hidden, marked so, and never a doubtful face or the runner beside them', async () => {
    const res = await bibSearch('4321');
    expect(res.status).toBe(200);
    const photos = res.body.result.photo;
    const byNumber = photos
      .filter((p) => !p.foundBy)
      .map((p) => p.id)
      .sort();
    const byFace = photos
      .filter((p) => p.foundBy === 'face')
      .map((p) => p.id)
      .sort();
    expect(byNumber).toEqual([ids['runner-alone'], ids['runner-and-partner'], ids['runner-turned-away']].sort());
    expect(byFace).toEqual([ids['runner-bib-hidden'], ids['runner-behind-another-bib']].sort());
    expect(res.body.result.total_image_count).toBe(5);
    expect(FOUND_BY_TEXT.face).toBe('Found by face');

    const partner = await bibSearch('5555');
    expect(partner.body.result.photo.filter((p) => p.foundBy === 'face').map((p) => p.id)).toEqual([ids['partner-bib-hidden']]);
  });

  it('links nothing where the event has no selfie search (its faces are not kept for it)', async () => {
    await t.ctx.db.query('update events set selfiesearch = false where id = $1', [eventId]);
    try {
      const res = await bibSearch('4321');
      expect(res.body.result.photo.filter((p) => p.foundBy)).toEqual([]);
    } finally {
      await t.ctx.db.query('update events set selfiesearch = true where id = $1', [eventId]);
    }
  });

  it("a selfie search also shows the runner's BIB photos, marked as found by the BIB", async () => {
    const res = await t.request<BibSearchResult>('POST', API_ROUTES.searchBySelfie, {
      eventID: eventId,
      embedding: near(runner, 0.15),
      faceQuality: GOOD_FACE_QUALITY,
      consentVersion: FACE_CONSENT_VERSION,
    });
    expect(res.status).toBe(200);
    const photos = res.body.result.photo;
    expect(photos.filter((p) => p.foundBy === 'bib').map((p) => p.id)).toEqual([ids['runner-turned-away']]);
    expect(photos.map((p) => p.id)).toEqual(
      expect.arrayContaining([ids['runner-alone'], ids['runner-and-partner'], ids['runner-bib-hidden'], ids['runner-behind-another-bib']]),
    );
    expect(photos.map((p) => p.id)).not.toContain(ids['partner-alone']);
  });
});
