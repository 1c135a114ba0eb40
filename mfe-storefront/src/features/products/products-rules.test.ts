import { describe, expect, it } from '@jest/globals';
import { columnsFor } from './hooks/useColumns';
import { printOptions, reservesPrintButtons } from './hooks/useMasterConfig';
import { cartSummaryShort, cartSummaryText, unlabeledCartSummaryText } from './components/CartBottomBar';
import { congratulationsText } from './productsText';

describe('photo selection rules', () => {
  it.each([
    [1400, false, 3],
    [1400, true, 5],
    [1099, true, 3],
    [1099, false, 3],
    [699, false, 2],
    [699, true, 2],
    [499, false, 1],
  ])('width %i (unlabeled %s) shows %i columns', (width, unlabeled, columns) => {
    expect(columnsFor(width, unlabeled)).toBe(columns);
  });

  it('offers prints only for +91 and events not on DISABLEPRINTS; collages only off DISABLEPRINTS', () => {
    const india = { DISABLEPRINTS: [4], country_calling_code: '+91', country: 'IN' };
    expect(printOptions(india, 1, false)).toEqual({ printsAllowed: true, collagesAllowed: true });
    expect(printOptions(india, 4, false)).toEqual({ printsAllowed: false, collagesAllowed: false });
    expect(printOptions({ ...india, country_calling_code: '+1', country: 'US' }, 1, false)).toEqual({ printsAllowed: false, collagesAllowed: true });
    expect(printOptions(null, 1, false)).toEqual({ printsAllowed: false, collagesAllowed: false });
  });

  it("keeps the print and collage buttons' place only while the master config is unknown and the event sells prints", () => {
    expect(reservesPrintButtons(false, false)).toBe(true);
    expect(reservesPrintButtons(false, undefined)).toBe(true);
    expect(reservesPrintButtons(true, false)).toBe(false);
    expect(reservesPrintButtons(false, true)).toBe(false);
  });

  it('writes the bottom bar counts as the spec does', () => {
    expect(cartSummaryText({ images: 2, videos: 1, prints: 0, collages: 3 })).toBe('You have 2 Image(s) / 1 Video(s) / 0 Print(s) / 3 Collage(s)');
    // a phone's single line names only what the cart holds
    expect(cartSummaryShort({ images: 2, videos: 1, prints: 0, collages: 3 })).toBe('2 Image(s) / 1 Video(s) / 3 Collage(s)');
    // the unlabeled photos have no videos (spec: downloads, prints and collages)
    expect(unlabeledCartSummaryText({ images: 1, videos: 0, prints: 2, collages: 0 })).toBe('You have 1 Image(s) / 2 Print(s) / 0 Collage(s)');
  });

  it('counts videos as videos on the Videos tab', () => {
    expect(congratulationsText(3, 'videos')).toBe('Congratulations. There are 3 videos in this section');
    expect(congratulationsText(1, 'videos')).toBe('Congratulations. There is 1 video in this section');
    expect(congratulationsText(1)).toBe('Congratulations. There is 1 photo in this section');
    expect(congratulationsText(5)).toBe('Congratulations. There are 5 photos in this section');
  });
});
