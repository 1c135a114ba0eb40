import { describe, expect, it } from '@jest/globals';
import {
  achievementsSearchSchema,
  capitalizeWords,
  certificateRowsProblem,
  certificateTexts,
  fittedFontSize,
  formatFinishTime,
  initialSquareCrop,
  standardTemplate,
  validTemplateConfig,
} from '../src/pure';

describe('certificate names and times', () => {
  it('shows the participant name with each word capitalised', () => {
    expect(capitalizeWords('PRIYA NAIR')).toBe('Priya Nair');
    expect(capitalizeWords('  priya   nair ')).toBe('Priya Nair');
    expect(capitalizeWords("mary-ann o'brien")).toBe("Mary-Ann O'Brien");
    expect(capitalizeWords('ánanya iyer')).toBe('Ánanya Iyer');
    expect(capitalizeWords('')).toBe('');
  });

  it('writes finish times as HH:MM:SS', () => {
    expect(formatFinishTime('3:58:41')).toBe('03:58:41');
    expect(formatFinishTime('01:56:12.250')).toBe('01:56:12');
    expect(formatFinishTime(null)).toBeNull();
    expect(formatFinishTime('DNF')).toBeNull();
  });
});

describe('certificate search rules (the form and the server)', () => {
  it('names the first field that breaks a rule', () => {
    expect(
      certificateRowsProblem([
        { eventId: 1, bibNumber: 'A' },
        { eventId: null, bibNumber: 'B' },
      ]),
    ).toBe('Please select an event for field 2');
    expect(certificateRowsProblem([{ eventId: 1, bibNumber: ' ' }])).toBe('Please enter BIB number for field 1');
    expect(
      certificateRowsProblem([
        { eventId: 1, bibNumber: 'A' },
        { eventId: 1, bibNumber: 'B' },
      ]),
    ).toBe('Please select different events for each field');
    expect(
      certificateRowsProblem([
        { eventId: 1, bibNumber: 'A' },
        { eventId: 2, bibNumber: 'B' },
      ]),
    ).toBeNull();
  });

  it('reads the four slots of the form, padding ignored, numbered fields as sent in a multipart form', async () => {
    const sent = {
      event_bib_pairs: {
        0: { event_id: '4', bib_number: ' tt1 ' },
        1: { event_id: '', bib_number: '' },
        2: { event_id: '', bib_number: '' },
        3: { event_id: '', bib_number: '' },
      },
    };
    const input = await achievementsSearchSchema.validate(sent);
    expect(input.event_bib_pairs[0]).toEqual({ event_id: 4, bib_number: 'tt1' });
    await expect(
      achievementsSearchSchema.validate({
        event_bib_pairs: [
          { event_id: 4, bib_number: 'A' },
          { event_id: '', bib_number: '' },
          { event_id: 5, bib_number: 'B' },
        ],
      }),
    ).rejects.toThrow('Please select an event for field 2');
  });
});

describe('certificate layout', () => {
  const values = {
    participantName: 'priya nair',
    events: [
      { event_id: 4, event_name: 'Mumbai', bib_number: 'TT1', finish_time: '03:58:41' },
      { event_id: 5, event_name: 'Jaipur', bib_number: 'JP1', finish_time: null },
    ],
  };

  it('the standard template: 3840 by 2560, one square slot per event in order, valid for the template schema', async () => {
    const config = standardTemplate({ title: 'Grand Slam', eventIds: [4, 5, 6] });
    expect(config.output_resolution).toEqual({ width: 3840, height: 2560 });
    expect(config.images.map((s) => [s.event_id, s.slot, s.width === s.height])).toEqual([
      [4, 1, true],
      [5, 2, true],
      [6, 3, true],
    ]);
    expect(await validTemplateConfig(config)).toEqual(config);
  });

  it('resolves texts: the capitalised name, each event’s time at the default size 70, nothing for a missing time', () => {
    const texts = certificateTexts(standardTemplate({ title: 'Grand Slam', eventIds: [4, 5] }), values);
    expect(texts.find((t) => t.text === 'Priya Nair')).toBeDefined();
    expect(texts.filter((t) => t.text === '03:58:41').map((t) => t.fontSize)).toEqual([70]);
    expect(texts.map((t) => t.text)).toEqual(expect.arrayContaining(['Mumbai', 'Jaipur', 'BIB TT1', 'BIB JP1']));
    expect(texts).toHaveLength(3 + 2 + 3 + 2 + 1);
    const name = { ...texts[3], maxWidth: 1000 };
    expect([fittedFontSize(name, 800), fittedFontSize(name, 2000)]).toEqual([name.fontSize, Math.floor(name.fontSize / 2)]);
  });

  it('starts the crop from the centred square of the short side', () => {
    expect(initialSquareCrop(1600, 1000)).toEqual({ unit: '%', x: 18.75, y: 0, width: 62.5, height: 100 });
    expect(initialSquareCrop(800, 1200)).toMatchObject({ x: 0, width: 100 });
  });
});
