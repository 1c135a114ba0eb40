import { describe, expect, it } from '@jest/globals';
import { describePhoto, IMAGE_FAILED_TEXT } from '../src/pure';

describe('the text screen readers speak for a result photo', () => {
  it('names its place in the list, the BIB and the race', () => {
    expect(describePhoto({ position: 3, total: 24, eventName: 'Kochi Marathon 2026', bibNumber: '1486' })).toBe('Photo 3 of 24, BIB 1486, Kochi Marathon 2026');
  });

  it('says when a photo has no BIB, and leaves out a count of one', () => {
    expect(describePhoto({ position: 1, total: 1, eventName: 'Kochi Marathon 2026', bibNumber: 'unlabeled' })).toBe('Photo, no BIB found, Kochi Marathon 2026');
  });

  it('is never the sentence meant for a photo that failed to load', () => {
    const text = describePhoto({ kind: 'Frame 10x10', position: 2, total: 2, eventName: '', bibNumber: 'TT20608' });
    expect(text).toBe('Frame 10x10 2 of 2, BIB TT20608');
    expect(text).not.toBe(IMAGE_FAILED_TEXT);
  });
});
