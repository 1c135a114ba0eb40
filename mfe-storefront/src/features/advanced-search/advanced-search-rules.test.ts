import { describe, expect, it } from '@jest/globals';
import { needsPaging, pageCount, pageRows } from './advancedSearchRules';

describe('advanced search table paging (spec: Previous/Next only with more than 4 by event or 5 by year)', () => {
  it('pages by 4 rows by event and 5 by year', () => {
    expect(needsPaging('theme', 4)).toBe(false);
    expect(needsPaging('theme', 5)).toBe(true);
    expect(needsPaging('year', 5)).toBe(false);
    expect(needsPaging('year', 6)).toBe(true);
  });

  it('cuts the rows into pages', () => {
    const rows = [1, 2, 3, 4, 5, 6, 7];
    expect(pageCount('year', rows.length)).toBe(2);
    expect(pageRows('year', rows, 1)).toEqual([6, 7]);
    expect(pageRows('theme', rows, 1)).toEqual([5, 6, 7]);
    expect(pageCount('theme', 0)).toBe(1);
  });
});
