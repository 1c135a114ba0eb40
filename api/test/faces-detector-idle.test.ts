import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { FaceDetector } from '../src/models/faces/detector';

/**
 * The face detector's process holds its models (about half a GB) only while it has work
 * (FACE_MODEL_IDLE_SECONDS): idle that long it is let go, and the next photo or selfie starts a new
 * one. The image has no face: what is tested is the process, not the model.
 */
describe('an idle face detector process (FACE_MODEL_IDLE_SECONDS)', () => {
  it('is kept while requests follow each other, let go after the idle time, and started again by the next request', async () => {
    const image = await sharp({ create: { width: 480, height: 360, channels: 3, background: { r: 120, g: 140, b: 90 } } })
      .jpeg()
      .toBuffer();
    const detector = new FaceDetector(800);
    try {
      expect(detector.stats().pid).toBeNull();
      expect(await detector.detect(image, 'index')).toEqual([]);
      const firstPid = detector.stats().pid;
      expect(firstPid).not.toBeNull();
      expect((await detector.analyse(image, 'selfie')).faces).toEqual([]);
      expect(detector.stats().pid).toBe(firstPid);

      const deadline = Date.now() + 15_000;
      while (detector.stats().pid !== null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(detector.stats().pid).toBeNull();

      expect(await detector.detect(image, 'index')).toEqual([]);
      expect(detector.stats().pid).not.toBeNull();
      expect(detector.stats().pid).not.toBe(firstPid);
      expect(detector.stats().restarts).toBe(1);
    } finally {
      await detector.close();
    }
    expect(detector.stats().pid).toBeNull();
  }, 90_000);
});
