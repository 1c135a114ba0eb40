import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bibRulesFor, createBibReader, type BibReader } from '../src/features/bibs';
import { allowed, whitelistFor } from '../src/features/bibs/rules';
import { decide, DEFAULT_MODEL_TUNING, type Look } from '../src/features/bibs/modelReader';
import type { LineText, TextBox } from '../src/features/bibs/ppocr';
import { renderBibScene, type BibScene, type HardCase } from '../bench/bibScenes';

/**
 * The BIB reader on generated race photos (3000 x 2000, drawn heads so the photos do not depend on
 * the team's face set). Quality over hundreds of photos, hard cases and the held-out family is
 * measured by api/bench/bib-reader.bench.ts; these cases pin the behaviour the pipeline relies on.
 */
const made = new Map<string, Promise<BibScene>>();
const scene = (hardCase: HardCase, seed: number): Promise<BibScene> => {
  const key = `${hardCase}-${seed}`;
  if (!made.has(key)) made.set(key, renderBibScene('tune', hardCase, seed, 3000, 2000, false));
  return made.get(key)!;
};

describe('BIB rules', () => {
  it('takes the event format as an anchored, case-insensitive pattern', () => {
    const rules = bibRulesFor('^TT\\d{3}$', null);
    expect(allowed('TT123', rules)).toBe(true);
    expect(allowed('TT1234', rules)).toBe(false);
    expect(rules.pattern?.test('tt123')).toBe(true);
  });

  it('without a format accepts up to 12 characters: two or more digits after at most three letters', () => {
    const rules = bibRulesFor(null, null);
    expect(rules.pattern).toBeNull();
    expect(allowed('A123', rules)).toBe(true);
    expect(allowed('42', rules)).toBe(true);
    expect(allowed('FINISH', rules)).toBe(false);
    expect(allowed('21K', rules)).toBe(false);
    expect(allowed('WATER500', rules)).toBe(false);
    // A word whose O was read as 0 is not a BIB.
    expect(allowed('DEM0', rules)).toBe(false);
    expect(allowed('7', rules)).toBe(false);
    expect(allowed('1234567890123', rules)).toBe(false);
  });

  it('refuses readings that are not on the participant list (trimmed, upper case)', () => {
    const rules = bibRulesFor('^[A-Z]\\d{3}$', [' a123 ', 'B456']);
    expect(allowed('A123', rules)).toBe(true);
    expect(allowed('C789', rules)).toBe(false);
  });

  it('tags nothing when the stored format is not a valid pattern', () => {
    const rules = bibRulesFor('^(\\d{4}$', null);
    expect(allowed('1234', rules)).toBe(false);
  });

  it('reads digits only when the format can hold nothing else', () => {
    expect(whitelistFor(bibRulesFor('^\\d{4}$', null))).toBe('0123456789');
    expect(whitelistFor(bibRulesFor('^[0-9]{3,5}$', null))).toBe('0123456789');
    expect(whitelistFor(bibRulesFor('^[A-Z]\\d{3}$', null))).toMatch(/^0123456789[A-Z]{26}$/);
    expect(whitelistFor(bibRulesFor(null, null))).toMatch(/A/);
  });
});

describe('BIB reader on generated race photos', () => {
  let reader: BibReader;

  beforeAll(async () => {
    reader = await createBibReader({ workers: 1 });
  }, 30_000);

  afterAll(async () => {
    await reader.close();
  });

  it('reads the BIB of one runner, digits only and with a letter', async () => {
    for (const [hardCase, seed] of [
      ['plain', 2],
      ['rotated', 4],
    ] as const) {
      const photo = await scene(hardCase, seed);
      const readings = await reader.read(photo.image, bibRulesFor(photo.pattern, photo.participants));
      expect(readings.map((r) => r.bib)).toEqual(photo.bibs);
      expect(readings[0]!.confidence).toBeGreaterThan(0.5);
      expect(readings[0]!.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('gives two BIBs for two runners', async () => {
    for (const seed of [4, 8]) {
      const photo = await scene('group', seed);
      expect(photo.bibs).toHaveLength(2);
      const readings = await reader.read(photo.image, bibRulesFor(photo.pattern, photo.participants));
      expect(readings.map((r) => r.bib).sort()).toEqual([...photo.bibs].sort());
    }
  });

  it('refuses a reading that does not fit the event format', async () => {
    const photo = await scene('plain', 1);
    expect(photo.bibs).toEqual(['21890']);
    expect((await reader.read(photo.image, bibRulesFor(null, null))).map((r) => r.bib)).toEqual(['21890']);
    expect(await reader.read(photo.image, bibRulesFor('^\\d{4}$', null))).toEqual([]);
  });

  it('refuses a BIB that is not on the participant list', async () => {
    const photo = await scene('plain', 2);
    const bib = photo.bibs[0]!;
    expect((await reader.read(photo.image, bibRulesFor(photo.pattern, [bib, '1000']))).map((r) => r.bib)).toEqual([bib]);
    expect(await reader.read(photo.image, bibRulesFor(photo.pattern, ['1000', '2000']))).toEqual([]);
  });

  it('rejects what is not an image with an error', async () => {
    await expect(reader.read(Buffer.from('not a photo'), bibRulesFor(null, null))).rejects.toThrow();
  });
});

describe('the model reader\'s acceptance', () => {
  const line: TextBox = { cx: 500, cy: 500, width: 200, height: 60, angle: 0, score: 0.9 };
  const looking = (texts: Record<string, LineText>): Look => async (_line, _index, view) => texts[view.name] ?? { text: '', probs: [] };
  const sure = (text: string): LineText => ({ text, probs: [...text].map(() => 0.99) });

  it('drops marks at the ends of a reading (a bib edge read as -, a pin as .)', async () => {
    const look = looking({ first: sure('-4821.'), second: sure('4821'), wide: sure('4821') });
    expect((await decide([line], look, bibRulesFor(null, null), DEFAULT_MODEL_TUNING)).map((r) => r.bib)).toEqual(['4821']);
  });

  it('refuses two words, a doubtful character and two views that disagree', async () => {
    const rules = bibRulesFor('^\\d{1,5}$', null);
    expect(await decide([line], looking({ first: sure('SPLIT 35'), second: sure('SPLIT 35') }), rules, DEFAULT_MODEL_TUNING)).toEqual([]);
    expect(await decide([line], looking({ first: sure('35 12'), second: sure('35 12') }), rules, DEFAULT_MODEL_TUNING)).toEqual([]);
    const doubtful = { text: '4821', probs: [0.99, 0.99, 0.3, 0.99] };
    expect(await decide([line], looking({ first: doubtful, second: sure('4821') }), rules, DEFAULT_MODEL_TUNING)).toEqual([]);
    expect(await decide([line], looking({ first: sure('4821'), second: sure('4827') }), rules, DEFAULT_MODEL_TUNING)).toEqual([]);
  });

  it('refuses a number continued by text of the same height on its line (a banner)', async () => {
    const word: TextBox = { ...line, cx: line.cx - 200, width: 150 };
    const look = looking({ first: sure('35'), second: sure('35'), wide: sure('35') });
    expect(await decide([line, word], look, bibRulesFor(null, null), DEFAULT_MODEL_TUNING)).toEqual([]);
    expect((await decide([line], look, bibRulesFor(null, null), DEFAULT_MODEL_TUNING)).map((r) => r.bib)).toEqual(['35']);
  });
});

describe('closing the reader', () => {
  it('frees its workers and refuses further reads', async () => {
    const reader = await createBibReader();
    await reader.close();
    await expect(reader.read(Buffer.alloc(10), bibRulesFor(null, null))).rejects.toThrow('BIB reader closed');
  }, 30_000);
});

describe('the tesseract engine without the legacy check (BIB_ENGINE=tesseract, BIB_LEGACY_CHECK=false)', () => {
  it('still reads a runner\'s BIB with the LSTM\'s two views alone', async () => {
    const reader = await createBibReader({ workers: 1, legacyCheck: false, engine: 'tesseract' });
    try {
      const photo = await scene('plain', 2);
      const readings = await reader.read(photo.image, bibRulesFor(photo.pattern, photo.participants));
      expect(readings.map((r) => r.bib)).toEqual(photo.bibs);
    } finally {
      await reader.close();
    }
  }, 120_000);
});
