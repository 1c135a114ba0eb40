import { describe, expect, it } from '@jest/globals';
import type { CertificatePhoto, TemplateDetailsResult } from '@finishline/shared';
import { builderEvents, canAddRow, canRemoveRow, eventsForRow, pairsOf, prefilledRows, type CertificateEvent } from './state/rows';
import { allCropped, builderReducer, initialBuilderState, type BuilderState, type CertificateEventRow, type ProcessedImage } from './state/steps';

const EVENTS: CertificateEvent[] = [
  { event_id: 1, event_name: 'Mumbai Coastal Marathon 2026', achievement_id: 7 },
  { event_id: 2, event_name: 'Ahmedabad Riverfront Half 2026', achievement_id: 7 },
  { event_id: 3, event_name: 'Jaipur Pink City 10K 2026', achievement_id: 7 },
];

const photo = (id: number, eventId: number): CertificatePhoto => ({
  id,
  s3: `p${id}`,
  image: `t${id}`,
  photo_id: `IMG-${id}`,
  event_id: eventId,
  participant_details: { name: 'Priya Nair', finish_time: '03:58:41' },
});
const eventRow = (eventId: number): CertificateEventRow => ({
  eventId,
  eventName: `Event ${eventId}`,
  bibNumber: `B${eventId}`,
  selectedImage: null,
  eventImages: [photo(eventId * 10, eventId), photo(eventId * 10 + 1, eventId)],
  pagination: { current_page: 1, per_page: 50, total: 2, last_page: 1 },
  achievement_id: 7,
  photosUsable: true,
});
const processed = (eventId: number): ProcessedImage => ({
  originalImage: 'h',
  processedImageUrl: `blob:${eventId}`,
  cropData: {
    crop: { x: 0, y: 0, width: 10, height: 10, unit: 'px' },
    scale: 1,
    rotate: 0,
    naturalWidth: 10,
    naturalHeight: 10,
    displayWidth: 10,
    displayHeight: 10,
  },
  eventId,
  bibNumber: `B${eventId}`,
});
const template = { photos: [1, 2, 3].map((id) => ({ ...photo(id * 10, id), high_res_url: `high/${id}` })) } as unknown as TemplateDetailsResult;

describe('search rows', () => {
  it('adds a row only when the current row has an event and a BIB, and events are left', () => {
    expect(canAddRow([{ eventId: null, bibNumber: '' }], EVENTS)).toBe(false);
    expect(canAddRow([{ eventId: 1, bibNumber: '  ' }], EVENTS)).toBe(false);
    expect(canAddRow([{ eventId: 1, bibNumber: 'TT20608' }], EVENTS)).toBe(true);
    expect(
      canAddRow(
        [
          { eventId: 1, bibNumber: 'TT20608' },
          { eventId: 2, bibNumber: '' },
        ],
        EVENTS,
      ),
    ).toBe(false);
    // As many rows as events: nothing left to add.
    const full = [1, 2, 3].map((eventId) => ({ eventId, bibNumber: `B${eventId}` }));
    expect(canAddRow(full, EVENTS)).toBe(false);
    expect(canAddRow([{ eventId: 1, bibNumber: 'TT20608' }], EVENTS.slice(0, 1))).toBe(false);
  });

  it('removes a row only while more than one exists', () => {
    expect(canRemoveRow([{ eventId: 1, bibNumber: 'A' }])).toBe(false);
    expect(
      canRemoveRow([
        { eventId: 1, bibNumber: 'A' },
        { eventId: null, bibNumber: '' },
      ]),
    ).toBe(true);
  });

  it('never offers an event used in another row', () => {
    const rows = [
      { eventId: 1, bibNumber: 'A' },
      { eventId: 3, bibNumber: 'C' },
      { eventId: null, bibNumber: '' },
    ];
    expect(eventsForRow(rows, 2, EVENTS).map((e) => e.event_id)).toEqual([2]);
    expect(eventsForRow(rows, 0, EVENTS).map((e) => e.event_id)).toEqual([1, 2]);
  });

  it('prefills the first row from the stored event name (case-insensitive, equal or contained), or the only event', () => {
    expect(prefilledRows(EVENTS, 'mumbai coastal marathon 2026', 'TT20608')).toEqual([{ eventId: 1, bibNumber: 'TT20608' }]);
    expect(prefilledRows(EVENTS, 'Jaipur Pink City', 'JP60608')).toEqual([{ eventId: 3, bibNumber: 'JP60608' }]);
    expect(prefilledRows(EVENTS, 'Ahmedabad Riverfront Half 2026 (Full results)', null)).toEqual([{ eventId: 2, bibNumber: '' }]);
    expect(prefilledRows(EVENTS, 'Goa Beach Run', 'GB1')).toEqual([{ eventId: null, bibNumber: '' }]);
    expect(prefilledRows(EVENTS.slice(1, 2), null, 'AR40608')).toEqual([{ eventId: 2, bibNumber: 'AR40608' }]);
  });

  it('offers the events of the BIB search’s achievement, else every achievement’s events once', () => {
    const lists = {
      'Grand Slam': EVENTS,
      'Metro Slam': [
        { event_id: 1, event_name: 'Mumbai Coastal Marathon 2026', achievement_id: 8 },
        { event_id: 9, event_name: 'Delhi Winter Half 2024', achievement_id: 8 },
      ],
    };
    expect(builderEvents(lists, 8).map((e) => e.event_id)).toEqual([1, 9]);
    expect(builderEvents(lists, null).map((e) => e.event_id)).toEqual([1, 2, 3, 9]);
    expect(builderEvents(lists, 99).map((e) => e.event_id)).toEqual([1, 2, 3, 9]);
  });

  it('sends four pairs, the unused ones empty', () => {
    expect(
      pairsOf([
        { eventId: 1, bibNumber: ' TT20608 ' },
        { eventId: 2, bibNumber: 'AR40608' },
      ]),
    ).toEqual([
      { event_id: 1, bib_number: 'TT20608' },
      { event_id: 2, bib_number: 'AR40608' },
      { event_id: '', bib_number: '' },
      { event_id: '', bib_number: '' },
    ]);
  });
});

describe('steps', () => {
  const searched = (): BuilderState => builderReducer(initialBuilderState(), { type: 'searched', events: [eventRow(1), eventRow(2)] });
  const choose = (state: BuilderState, eventId: number, id = eventId * 10) =>
    builderReducer(state, { type: 'toggleImage', eventId, photo: photo(id, eventId) });

  it('go search, selection, processing, preview; processing needs one image per event and preview every image cropped', () => {
    let state = searched();
    expect(state.step).toBe('select');
    expect(builderReducer(state, { type: 'template', template }).step).toBe('select');
    state = choose(choose(state, 1), 2);
    state = builderReducer(state, { type: 'template', template });
    expect(state.step).toBe('process');
    expect(state.events.map((e) => e.selectedImage?.high_res_url)).toEqual(['high/1', 'high/2']);

    expect(builderReducer(state, { type: 'generate' }).step).toBe('process');
    state = builderReducer(state, { type: 'cropped', image: processed(1) });
    expect(allCropped(state)).toBe(false);
    expect(builderReducer(state, { type: 'generate' }).step).toBe('process');
    state = builderReducer(state, { type: 'cropped', image: processed(2) });
    state = builderReducer(state, { type: 'generate' });
    expect(state.step).toBe('preview');
  });

  it('clicking the selected photo again unselects it, and a new choice forgets that event’s crop', () => {
    let state = choose(searched(), 1);
    expect(state.events[0].selectedImage?.id).toBe(10);
    state = choose(state, 1);
    expect(state.events[0].selectedImage).toBeNull();
    state = builderReducer(choose(state, 1), { type: 'cropped', image: processed(1) });
    state = choose(state, 1, 11);
    expect([state.events[0].selectedImage?.id, state.processed[1]]).toEqual([11, undefined]);
  });

  it('Back goes from preview to processing and from processing to selection, keeping the choices', () => {
    let state = choose(choose(searched(), 1), 2);
    state = builderReducer(state, { type: 'template', template });
    state = builderReducer(builderReducer(state, { type: 'cropped', image: processed(1) }), { type: 'cropped', image: processed(2) });
    state = builderReducer(state, { type: 'generate' });
    state = builderReducer(state, { type: 'back' });
    expect(state.step).toBe('process');
    expect(Object.keys(state.processed)).toEqual(['1', '2']);
    state = builderReducer(state, { type: 'back' });
    expect(state.step).toBe('select');
    expect(state.events.map((e) => e.selectedImage?.id)).toEqual([10, 20]);
  });

  it('Edit Search returns to the search and clears the chosen images; closing starts again from the search', () => {
    const rows = [{ eventId: 1, bibNumber: 'TT20608' }];
    let state = choose(builderReducer(builderReducer(initialBuilderState(rows), { type: 'searched', events: [eventRow(1)] }), { type: 'rows', rows }), 1);
    const edited = builderReducer(state, { type: 'editSearch' });
    expect([edited.step, edited.events[0].selectedImage, edited.rows]).toEqual(['search', null, rows]);
    state = builderReducer(state, { type: 'close' });
    expect(state).toEqual(initialBuilderState(rows));
  });
});
