import { describe, expect, it } from '@jest/globals';
import { bibExampleLike, bibExampleOf, bibPlaceholderFor } from '../src/format/bibExample';

describe("the BIB hint comes from the chosen event's own BIB format", () => {
  it.each([
    ['^TT\\d{5}$', 'TT20608'],
    ['^AR[0-9]{5}$', 'AR20608'],
    ['^[A-Z]{2}\\d{3,6}$', 'AB206'],
    ['^\\d+$', '2'],
    ['^MUM-\\d{4}$', 'MUM-2060'],
  ])('%s gives %s', (pattern, example) => {
    expect(bibExampleOf(pattern)).toBe(example);
  });

  it('gives up on patterns it cannot read rather than showing a wrong example', () => {
    expect(bibExampleOf('^(TT|AR)\\d{5}$')).toBeNull();
    expect(bibExampleOf(null)).toBeNull();
  });

  it('shapes an example like one of the BIBs without showing the real one', () => {
    expect(bibExampleLike('ar40101')).toBe('AR20608');
    expect(bibExampleLike('TT10401')).toBe('TT20608'); // the spec's own example for the demo's shape
    expect(bibExampleLike(null)).toBeNull();
  });

  it("keeps the spec's sentence and its example when the event gives none", () => {
    expect(bibPlaceholderFor(null)).toBe('Enter your BIB number (ex: TT20608)');
    expect(bibPlaceholderFor('AR20608')).toBe('Enter your BIB number (ex: AR20608)');
  });
});
