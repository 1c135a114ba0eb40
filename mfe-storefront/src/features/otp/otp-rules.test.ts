import { describe, expect, it } from '@jest/globals';
import { otpInput } from './otpInput';

describe('OTP input', () => {
  it.each([
    ['12ab34', '1234'],
    ['1234567', '123456'],
    [' 98 76 ', '9876'],
  ])('keeps digits only, at most 6: %j -> %j', (typed, kept) => {
    expect(otpInput(typed)).toBe(kept);
  });
});
