import { describe, expect, it } from '@jest/globals';
import {
  CAMERA_ABSENT,
  CAMERA_DENIED,
  CAMERA_UNAVAILABLE,
  cameraProblem,
  dataUrlBytes,
  SELFIE_FORMAT_ERROR,
  SELFIE_SIZE_ERROR,
  selfieFileProblem,
} from './selfieRules';

const MB = 1024 * 1024;

describe('selfie file rules (JPG or PNG, max 2mb)', () => {
  it('accepts JPG and PNG up to 2 MB', () => {
    expect(selfieFileProblem({ name: 'me.jpg', type: 'image/jpeg', size: 2 * MB })).toBeNull();
    expect(selfieFileProblem({ name: 'me.png', type: 'image/png', size: 10 })).toBeNull();
    // Some phones give no type: the extension decides.
    expect(selfieFileProblem({ name: 'IMG_0001.JPEG', type: '', size: 1000 })).toBeNull();
  });

  it('refuses other formats and anything over 2 MB', () => {
    expect(selfieFileProblem({ name: 'me.gif', type: 'image/gif', size: 10 })).toBe(SELFIE_FORMAT_ERROR);
    expect(selfieFileProblem({ name: 'me.heic', type: 'image/heic', size: 10 })).toBe(SELFIE_FORMAT_ERROR);
    expect(selfieFileProblem({ name: 'me.png', type: 'image/png', size: 2 * MB + 1 })).toBe(SELFIE_SIZE_ERROR);
  });

  it('measures the bytes behind a data URL', () => {
    const bytes = Buffer.alloc(1000, 7);
    expect(dataUrlBytes(`data:image/png;base64,${bytes.toString('base64')}`)).toBe(1000);
    expect(dataUrlBytes(`data:image/png;base64,${Buffer.alloc(1001).toString('base64')}`)).toBe(1001);
  });

  it('explains camera failures: denied, absent, anything else', () => {
    const named = (name: string) => Object.assign(new Error(name), { name });
    expect(cameraProblem(named('NotAllowedError'))).toBe(CAMERA_DENIED);
    expect(cameraProblem(named('NotFoundError'))).toBe(CAMERA_ABSENT);
    expect(cameraProblem(named('NotReadableError'))).toBe(CAMERA_UNAVAILABLE);
  });
});
