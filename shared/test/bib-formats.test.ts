import { describe, expect, it } from '@jest/globals';
import { bibFormatChoiceOf, DIGITS_ONLY_FORMAT, matchesBibFormat, prefixedFormatOf } from '../src/pure';

describe('BIB formats picked by example', () => {
  it('letters then digits from one real BIB', () => {
    expect(prefixedFormatOf('TT20608')).toBe('^TT\\d{5}$');
    expect(prefixedFormatOf(' km1486 ')).toBe('^KM\\d{4}$');
    expect(prefixedFormatOf('1486')).toBeNull();
    expect(prefixedFormatOf('TT-206')).toBeNull();
    expect(matchesBibFormat(prefixedFormatOf('TT20608'), 'tt20612')).toBe(true);
    expect(matchesBibFormat(prefixedFormatOf('TT20608'), 'TT2061')).toBe(false);
  });

  it('digits only, 1 to 5', () => {
    expect(matchesBibFormat(DIGITS_ONLY_FORMAT, '1486')).toBe(true);
    expect(matchesBibFormat(DIGITS_ONLY_FORMAT, '7')).toBe(true);
    expect(matchesBibFormat(DIGITS_ONLY_FORMAT, '148601')).toBe(false);
    expect(matchesBibFormat(DIGITS_ONLY_FORMAT, 'A148')).toBe(false);
  });

  it('a stored pattern opens on the choice that makes it, anything else as advanced', () => {
    expect(bibFormatChoiceOf(null)).toEqual({ choice: 'any', example: '' });
    expect(bibFormatChoiceOf(DIGITS_ONLY_FORMAT).choice).toBe('digits');
    const prefixed = bibFormatChoiceOf('^TT\\d{5}$');
    expect(prefixed.choice).toBe('prefixed');
    expect(prefixedFormatOf(prefixed.example)).toBe('^TT\\d{5}$');
    expect(bibFormatChoiceOf('^(TT|KM)\\d{5}$').choice).toBe('advanced');
  });
});
