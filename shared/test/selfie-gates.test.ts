import { describe, expect, it } from '@jest/globals';
import {
  FACE_CONSENT_VERSION,
  noFaceProblem,
  SELFIE_MAX_BRIGHTNESS,
  SELFIE_MAX_EYE_LIGHT,
  SELFIE_MAX_YAW,
  SELFIE_MESSAGES,
  SELFIE_MIN_BRIGHTNESS,
  SELFIE_MIN_FACE_PX,
  SELFIE_MIN_SHARPNESS,
  selfieFaceProblem,
  selfieSearchSchema,
  type SelfieFaceQuality,
} from '../src/pure';

/** A good selfie face: large, well lit, sharp, facing the camera, eyes open. */
const good: SelfieFaceQuality = { size: 200, brightness: 0.55, sharpness: 0.1, yaw: 0.05, eyeLight: 0.6 };

describe('selfie quality gates (one rule set for the phone and the API)', () => {
  it('lets a good selfie through, also a face turned a little or lit a little dimly', () => {
    expect(selfieFaceProblem(good)).toBeNull();
    expect(selfieFaceProblem({ ...good, yaw: -0.4, brightness: 0.25 })).toBeNull();
    expect(selfieFaceProblem({ ...good, yaw: SELFIE_MAX_YAW, eyeLight: SELFIE_MAX_EYE_LIGHT, brightness: SELFIE_MAX_BRIGHTNESS })).toBeNull();
  });

  it('tells the runner what to change: turn to the camera, more light, less light, remove sunglasses, come closer, hold still', () => {
    expect(selfieFaceProblem({ ...good, yaw: 0.7 })).toBe(SELFIE_MESSAGES.turnedAway);
    expect(selfieFaceProblem({ ...good, yaw: -0.7 })).toBe(SELFIE_MESSAGES.turnedAway);
    expect(selfieFaceProblem({ ...good, brightness: 0.1 })).toBe(SELFIE_MESSAGES.tooDark);
    expect(selfieFaceProblem({ ...good, brightness: 0.9 })).toBe(SELFIE_MESSAGES.tooBright);
    expect(selfieFaceProblem({ ...good, eyeLight: 1.6 })).toBe(SELFIE_MESSAGES.eyesCovered);
    expect(selfieFaceProblem({ ...good, size: 50 })).toBe(SELFIE_MESSAGES.tooSmall);
    expect(selfieFaceProblem({ ...good, sharpness: 0.005 })).toBe(SELFIE_MESSAGES.tooBlurred);
    expect(SELFIE_MESSAGES.turnedAway).toContain('turn to face the camera');
    expect(SELFIE_MESSAGES.tooDark).toContain('move to more light');
    expect(SELFIE_MESSAGES.eyesCovered).toContain('remove your sunglasses');
  });

  it('says the light first (in the dark or in glare nothing else measures reliably), then distance, blur, pose, eyes', () => {
    expect(selfieFaceProblem({ ...good, brightness: 0.1, yaw: 0.9, eyeLight: 2 })).toBe(SELFIE_MESSAGES.tooDark);
    expect(selfieFaceProblem({ ...good, brightness: 0.95, size: 40 })).toBe(SELFIE_MESSAGES.tooBright);
    expect(selfieFaceProblem({ ...good, size: 40, sharpness: 0.01 })).toBe(SELFIE_MESSAGES.tooSmall);
    expect(selfieFaceProblem({ ...good, sharpness: 0.01, yaw: 0.9 })).toBe(SELFIE_MESSAGES.tooBlurred);
    expect(selfieFaceProblem({ ...good, yaw: 0.9, eyeLight: 2 })).toBe(SELFIE_MESSAGES.turnedAway);
  });

  it('draws each line at its threshold', () => {
    expect(selfieFaceProblem({ ...good, size: SELFIE_MIN_FACE_PX - 1 })).toBe(SELFIE_MESSAGES.tooSmall);
    expect(selfieFaceProblem({ ...good, size: SELFIE_MIN_FACE_PX })).toBeNull();
    expect(selfieFaceProblem({ ...good, brightness: SELFIE_MIN_BRIGHTNESS - 0.001 })).toBe(SELFIE_MESSAGES.tooDark);
    expect(selfieFaceProblem({ ...good, brightness: SELFIE_MAX_BRIGHTNESS + 0.001 })).toBe(SELFIE_MESSAGES.tooBright);
    expect(selfieFaceProblem({ ...good, sharpness: SELFIE_MIN_SHARPNESS - 0.001 })).toBe(SELFIE_MESSAGES.tooBlurred);
    expect(selfieFaceProblem({ ...good, yaw: SELFIE_MAX_YAW + 0.001 })).toBe(SELFIE_MESSAGES.turnedAway);
    expect(selfieFaceProblem({ ...good, eyeLight: SELFIE_MAX_EYE_LIGHT + 0.001 })).toBe(SELFIE_MESSAGES.eyesCovered);
  });

  it("without a usable face: a weakly seen face is judged by the same gates, else the image's light, else 'no face'", () => {
    expect(noFaceProblem({ ...good, yaw: 0.8 })).toBe(SELFIE_MESSAGES.turnedAway);
    expect(noFaceProblem({ ...good, eyeLight: 3 })).toBe(SELFIE_MESSAGES.eyesCovered);
    // A weak face with nothing wrong that shows is still no face to search with.
    expect(noFaceProblem(good)).toBe(SELFIE_MESSAGES.noFace);
    // The middle of the image only (no landmarks): light, or no face.
    expect(noFaceProblem({ size: 200, brightness: 0.95, sharpness: 0.01 })).toBe(SELFIE_MESSAGES.tooBright);
    expect(noFaceProblem({ size: 200, brightness: 0.05, sharpness: 0.01 })).toBe(SELFIE_MESSAGES.tooDark);
    expect(noFaceProblem({ size: 200, brightness: 0.5, sharpness: 0.001 })).toBe(SELFIE_MESSAGES.noFace);
    expect(noFaceProblem(undefined)).toBe(SELFIE_MESSAGES.noFace);
  });

  it('the request schema wants the face quality with an on-device descriptor, so the API can check the same gates', async () => {
    const embedding = Array.from({ length: 128 }, () => 0.12);
    const base = { eventID: 1, consentVersion: FACE_CONSENT_VERSION };
    await expect(selfieSearchSchema.validate({ ...base, embedding })).rejects.toThrow(SELFIE_MESSAGES.qualityNeeded);
    await expect(selfieSearchSchema.validate({ ...base, embedding, faceQuality: { ...good, yaw: 'left' } })).rejects.toThrow(SELFIE_MESSAGES.qualityNeeded);
    const valid = await selfieSearchSchema.validate({ ...base, embedding, faceQuality: good });
    expect(valid.faceQuality).toEqual(good);
    // With the selfie itself the API measures the face.
    const withImage = await selfieSearchSchema.validate({ ...base, selfieimg: 'aGVsbG8=' });
    expect(withImage.faceQuality).toBeUndefined();
  });
});
