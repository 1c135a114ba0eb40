import { describe, expect, it } from '@jest/globals';
import { FALLBACK_PHOTOS_PER_MINUTE, FINDABLE_PROMISE_SECONDS, findableInSeconds, findableWaitMessage } from '../src/pure';

describe("how long until a photographer's photos are findable (one rule for the API and the upload page)", () => {
  it('says nothing while the line clears what waits within the promised minute', () => {
    expect(FINDABLE_PROMISE_SECONDS).toBe(60);
    expect(findableInSeconds(0, 100)).toBeNull();
    expect(findableInSeconds(30, 60)).toBeNull();
    // Exactly the promise is still within it.
    expect(findableInSeconds(100, 100)).toBeNull();
  });

  it('estimates the wait from the photos waiting ahead and the measured rate, rounded up to the second', () => {
    expect(findableInSeconds(600, 100)).toBe(360);
    expect(findableInSeconds(101, 100)).toBe(61);
    expect(findableInSeconds(250, 45.5)).toBe(Math.ceil((250 * 60) / 45.5));
  });

  it('takes the promise it is given', () => {
    expect(findableInSeconds(100, 60, 120)).toBeNull();
    expect(findableInSeconds(100, 60, 90)).toBe(100);
  });

  it('falls back to the measured per-photo time when no rate was measured, never infinity', () => {
    const fallback = Math.ceil((300 * 60) / FALLBACK_PHOTOS_PER_MINUTE);
    expect(findableInSeconds(300, null)).toBe(fallback);
    expect(findableInSeconds(300, 0)).toBe(fallback);
    expect(findableInSeconds(300, -3)).toBe(fallback);
    expect(findableInSeconds(300, Number.NaN)).toBe(fallback);
    expect(findableInSeconds(300, Number.POSITIVE_INFINITY)).toBe(fallback);
    expect(findableInSeconds(Number.NaN, 10)).toBeNull();
  });

  it('words the estimate in minutes rounded up, "a minute or two" under two minutes, and nothing without one', () => {
    const says = (when: string) => `Many photos are arriving right now: your photos will be findable ${when}. You can keep uploading.`;
    expect(findableWaitMessage(null)).toBeNull();
    expect(findableWaitMessage(61)).toBe(says('in about a minute or two'));
    expect(findableWaitMessage(119)).toBe(says('in about a minute or two'));
    expect(findableWaitMessage(120)).toBe(says('in about 2 minutes'));
    expect(findableWaitMessage(121)).toBe(says('in about 3 minutes'));
    expect(findableWaitMessage(360)).toBe(says('in about 6 minutes'));
    expect(findableWaitMessage(findableInSeconds(600, 100))).toBe(says('in about 6 minutes'));
  });
});
