import { insertTestPhoto } from './support/photos';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type BibAvailabilityEntry, type PaginatePhotosResult } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';

/** Advanced search (several event + BIB pairs) and the paginated photo call of unlabeled photos. */
describe('discovery API', () => {
  let t: TestApp;
  let marathon: number;
  let trail: number;
  let hidden: number;

  async function event(name: string, flags: { showunlabeled?: boolean; issearchable?: boolean; privacy?: boolean } = {}): Promise<number> {
    const rows = await t.ctx.db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, issearchable, showunlabeled, privacy_check)
       values ($1, date '2025-12-07', date '2025-12-07', $2, $3, $4) returning id`,
      [name, flags.issearchable ?? true, flags.showunlabeled ?? false, flags.privacy ?? false],
    );
    return rows[0]!.id;
  }

  async function photos(eventId: number, bib: string | null, count: number, prefix: string): Promise<void> {
    for (let i = 1; i <= count; i += 1) {
      const key = `${prefix}-${String(i).padStart(4, '0')}`;
      await insertTestPhoto(t.ctx.db, {
        eventId,
        bib,
        imageId: key,
        originalKey: `originals/t/${key}.jpg`,
        previewKey: `previews/t/${key}.jpg`,
        thumbKey: `thumbs/t/${key}.jpg`,
        seq: i,
      });
    }
  }

  /** The paginate call as the browser sends it: a multipart form. */
  async function paginate(fields: Record<string, string>) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const res = await fetch(`${t.url}${API_ROUTES.paginatePhotos}`, { method: 'POST', body: form });
    return { status: res.status, body: (await res.json()) as { StatusCode: number; Message: string; HasError: boolean; result: PaginatePhotosResult } };
  }

  beforeAll(async () => {
    t = await startTestApp();
    marathon = await event('City Marathon 2025', { showunlabeled: true });
    trail = await event('Hill Trail 2025');
    hidden = await event('Secret Run 2025', { issearchable: false });
    await photos(marathon, 'CM101', 3, 'CM101');
    await photos(marathon, null, 120, 'CMU');
    await photos(trail, 'HT7', 2, 'HT7');
    await photos(hidden, 'CM101', 2, 'SR');
    await insertTestPhoto(t.ctx.db, {
      eventId: marathon,
      bib: 'CM101',
      imageId: 'CM101-V1',
      kind: 'video',
      originalKey: 'originals/t/v.mp4',
      previewKey: 'previews/t/v.mp4',
      thumbKey: 'thumbs/t/v.jpg',
      width: 1280,
      height: 720,
    });
  }, SET_UP_TIMEOUT_MS);

  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('tells for each event and BIB whether photos exist', async () => {
    const res = await t.request<BibAvailabilityEntry[]>('POST', API_ROUTES.bibAvailability, {
      entries: [
        { eventID: marathon, bibNumber: ' cm101 ' },
        { eventID: trail, bibNumber: 'CM101' },
        { eventID: trail, bibNumber: 'ht7' },
        { eventID: hidden, bibNumber: 'CM101' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([
      { eventID: marathon, eventName: 'City Marathon 2025', bibNumber: 'CM101', photoCount: 3, videoCount: 1, hasPhotos: true, issearchable: 1 },
      { eventID: trail, eventName: 'Hill Trail 2025', bibNumber: 'CM101', photoCount: 0, videoCount: 0, hasPhotos: false, issearchable: 1 },
      { eventID: trail, eventName: 'Hill Trail 2025', bibNumber: 'HT7', photoCount: 2, videoCount: 0, hasPhotos: true, issearchable: 1 },
      { eventID: hidden, eventName: 'Secret Run 2025', bibNumber: 'CM101', photoCount: 0, videoCount: 0, hasPhotos: false, issearchable: 0 },
    ]);
  });

  it('refuses an empty list, an empty BIB and unknown events with clear messages', async () => {
    const empty = await t.request('POST', API_ROUTES.bibAvailability, { entries: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.Message).toBe('Please enter a BIB number for at least one event.');
    const blank = await t.request('POST', API_ROUTES.bibAvailability, { entries: [{ eventID: marathon, bibNumber: '  ' }] });
    expect(blank.body.Message).toBe('Please enter your BIB number.');
    const unknown = await t.request('POST', API_ROUTES.bibAvailability, { entries: [{ eventID: 999999, bibNumber: 'X1' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.Message).toBe('We could not find one of the chosen events. Please choose the events again.');
  });

  it('pages unlabeled photos 50 at a time from a multipart form', async () => {
    const first = await paginate({ event_id: String(marathon), bib_number: 'unlabeled', page: '1', per_page: '50' });
    expect(first.status).toBe(200);
    expect(first.body.HasError).toBe(false);
    expect(first.body.result.photos).toHaveLength(50);
    expect(first.body.result.pagination).toEqual({ current_page: 1, per_page: 50, total: 120, last_page: 3 });
    expect(first.body.result.photos[0]).toMatchObject({ imageid: 'CMU-0001', bibNumber: 'unlabeled', category: 'image', type: 'download' });
    expect(first.body.result.photos[0]!.s3).toContain('sig=');

    const last = await paginate({ event_id: String(marathon), bib_number: 'unlabeled', page: '3' });
    expect(last.body.result.photos.map((p) => p.imageid)).toEqual(Array.from({ length: 20 }, (_, i) => `CMU-${String(101 + i).padStart(4, '0')}`));
    const beyond = await paginate({ event_id: String(marathon), bib_number: 'unlabeled', page: '9' });
    expect(beyond.body.result.photos).toEqual([]);
    expect(beyond.body.result.pagination.total).toBe(120);
  });

  it('refuses unlabeled photos where the event does not show them, and bad paging input', async () => {
    const closed = await paginate({ event_id: String(trail), bib_number: 'unlabeled' });
    expect(closed.status).toBe(400);
    expect(closed.body.Message).toBe('Unlabeled photos of Hill Trail 2025 are not available.');
    const badPage = await paginate({ event_id: String(marathon), page: '0' });
    expect(badPage.status).toBe(400);
    expect(badPage.body.Message).toBe('page starts at 1.');
  });

  it('withholds a privacy-checked BIB until it is verified', async () => {
    const privateEvent = await event('Private Run 2025', { privacy: true });
    await photos(privateEvent, 'PR1', 2, 'PR1');
    const res = await paginate({ event_id: String(privateEvent), bib_number: 'PR1' });
    expect(res.status).toBe(403);
    const open = await paginate({ event_id: String(marathon), bib_number: 'cm101' });
    expect(open.body.result.photos.map((p) => p.imageid)).toEqual(['CM101-0001', 'CM101-0002', 'CM101-0003']);
  });
});
