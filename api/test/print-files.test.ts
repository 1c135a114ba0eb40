import { describe, expect, it } from '@jest/globals';
import { BLEED_IN, collageTiles, officialTime, planPrint, raceDate } from '../src/media/printFiles';

describe('print-ready file rules', () => {
  it('turns the print to the photo, adds the bleed and takes 300 dpi only where the original gives it', () => {
    expect(planPrint({ width: 6000, height: 4000 }, { widthIn: 4, heightIn: 6 })).toEqual({
      widthIn: 6 + 2 * BLEED_IN,
      heightIn: 4 + 2 * BLEED_IN,
      availableDpi: 941,
      dpi: 300,
    });
    expect(planPrint({ width: 4000, height: 6000 }, { widthIn: 4, heightIn: 6 })).toMatchObject({ widthIn: 4.25, heightIn: 6.25, dpi: 300 });
    // A square frame from a 3:2 photo keeps the photo's height across 10.25 inches.
    expect(planPrint({ width: 3200, height: 2133 }, { widthIn: 10, heightIn: 10 })).toMatchObject({ availableDpi: 208, dpi: 208 });
    expect(planPrint({ width: 1600, height: 1067 }, { widthIn: 10, heightIn: 10 }).availableDpi).toBe(104);
  });

  it('lays the collage photos out inside the area, a short last row centred', () => {
    const area = { left: 75, top: 675, width: 3450, height: 4612 };
    const tiles = collageTiles(3, area, 'Vertical', 38);
    expect(tiles).toHaveLength(3);
    for (const t of tiles) {
      expect(t.left).toBeGreaterThanOrEqual(area.left);
      expect(t.left + t.width).toBeLessThanOrEqual(area.left + area.width);
      expect(t.top + t.height).toBeLessThanOrEqual(area.top + area.height);
      expect(Math.abs(t.width / t.height - 1.5)).toBeLessThan(0.01);
    }
    expect(tiles[2]!.left + tiles[2]!.width / 2).toBeCloseTo(area.left + area.width / 2, -1);
    // Too many rows for the height: smaller tiles, still inside.
    const low = collageTiles(5, { left: 0, top: 0, width: 3450, height: 1500 }, 'Vertical', 38);
    expect(Math.max(...low.map((t) => t.top + t.height))).toBeLessThanOrEqual(1500);
  });

  it('prints the race date and the official time as runners read them', () => {
    expect(raceDate('2026-01-10')).toBe('10 January 2026');
    expect(officialTime('01:52:07')).toBe('1:52:07');
    expect(officialTime('1 day 02:03:04')).toBe('26:03:04');
    expect(officialTime(null)).toBeNull();
  });
});
