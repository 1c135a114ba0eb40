import type { SelfieFaceQuality } from '@finishline/shared/pure';

/** Quality measures of a good selfie face (what the phone sends with an on-device descriptor). */
export const GOOD_FACE_QUALITY: SelfieFaceQuality = { size: 200, brightness: 0.55, sharpness: 0.1, yaw: 0.05, eyeLight: 0.6 };
