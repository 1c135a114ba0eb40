import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { API_ROUTES, COLLAGE_RULE_MESSAGE, COURSE_MAP_MESSAGE, type CartLine, type OrganiserEvent } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { loadConfig } from '../src/config/config';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { LIMIT_MESSAGES } from '../src/security/limits';

/**
 * The runner's collage before paying: drawn small at the print's layout from the watermarked
 * previews (never the originals), under the bill's rules, and limited per address.
 */
describe('collage preview in the cart', () => {
  let t: TestApp;
  let f: OrdersFixture;
  const PREVIEWS_PER_ADDRESS = 6;

  beforeAll(async () => {
    t = await startTestApp({ trustProxy: ['127.0.0.1'], security: { ...loadConfig().security, collagePreviewsPerIp: PREVIEWS_PER_ADDRESS } });
    f = await seedOrdersFixture(t.ctx);
    // The previews green, the originals red: the preview must show only green photos.
    const green = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 200, b: 40 } } })
      .jpeg()
      .toBuffer();
    const photos = await t.ctx.db.query<{ preview_key: string }>('select preview_key from photos where id = any($1::int[])', [f.photoIds]);
    for (const p of photos) await t.ctx.storage.put(p.preview_key, green, 'image/jpeg');
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  const collage = (photoIds: number[], orientation = 'Vertical'): CartLine =>
    ({ type: 'collage', category: 'image', id: photoIds[0]!, collagePhotoIds: photoIds, orientation }) as CartLine;
  const preview = (lines: CartLine[], extra: object = {}, address = '203.0.113.10') =>
    fetch(`${t.url}${API_ROUTES.collagePreview}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({
        eventId: f.eventId,
        bibNumber: f.bib,
        searchKind: 'bib',
        packageKind: null,
        lines,
        sponsorofferID: null,
        discountedPhotoIds: [],
        ...extra,
      }),
    });

  it('draws the collage at the print layout, portrait and landscape, from the watermarked previews', async () => {
    const portrait = await preview([{ type: 'download', category: 'image', id: f.photoIds[3]! } as CartLine, collage(f.photoIds.slice(0, 3))]);
    expect(portrait.status).toBe(200);
    expect(portrait.headers.get('content-type')).toBe('image/jpeg');
    const image = Buffer.from(await portrait.arrayBuffer());
    // 2 ft x 3 ft at 30 dpi.
    expect(await sharp(image).metadata()).toMatchObject({ width: 720, height: 1080, format: 'jpeg' });
    // The photos are the previews' green, never the originals' red (200, 80, 40).
    const { data } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
    let green = 0;
    let red = 0;
    for (let i = 0; i < data.length; i += 3) {
      if (data[i + 1]! > 170 && data[i]! < 60) green++;
      if (data[i]! > 160 && data[i + 1]! < 120 && data[i + 2]! < 100) red++;
    }
    expect(green / (data.length / 3)).toBeGreaterThan(0.2);
    expect(red).toBe(0);

    const landscape = await preview([collage(f.photoIds.slice(0, 5), 'Horizontal')]);
    expect(await sharp(Buffer.from(await landscape.arrayBuffer())).metadata()).toMatchObject({ width: 1080, height: 720 });
  });

  it('refuses what could not be bought either, with the reason', async () => {
    const refusals: Array<[CartLine[], object, string]> = [
      [[collage(f.photoIds.slice(0, 2))], {}, COLLAGE_RULE_MESSAGE],
      [[{ type: 'download', category: 'image', id: f.photoIds[0]! } as CartLine], {}, COLLAGE_RULE_MESSAGE],
      [
        [collage([...f.photoIds.slice(0, 2), f.otherBibPhotoId])],
        {},
        `One order holds images for a single BIB only. Photo ${f.otherBibPhotoId} is not of BIB ${f.bib}.`,
      ],
      [
        [collage([...f.photoIds.slice(0, 2), f.freePhotoIds[0]!])],
        {},
        `Photo ${f.freePhotoIds[0]} is not part of Orders Test Marathon 2026. Please remove it from your cart.`,
      ],
      [[collage(f.photoIds.slice(0, 3))], { searchKind: 'unlabeled', bibNumber: 'unlabeled' }, 'Collages are not offered for unlabeled photos.'],
    ];
    for (const [lines, extra, message] of refusals) {
      const res = await preview(lines, extra, '203.0.113.20');
      expect([res.status, ((await res.json()) as { Message: string }).Message]).toEqual([400, message]);
    }
  });

  it('is limited per address', async () => {
    const address = '203.0.113.30';
    for (let i = 0; i < PREVIEWS_PER_ADDRESS; i++) expect((await preview([collage(f.photoIds.slice(0, 3))], {}, address)).status).toBe(200);
    const refused = await preview([collage(f.photoIds.slice(0, 3))], {}, address);
    expect([refused.status, ((await refused.json()) as { Message: string }).Message]).toEqual([429, LIMIT_MESSAGES.collagePreview]);
    // Another address is not held back.
    expect((await preview([collage(f.photoIds.slice(0, 3))], {}, '203.0.113.31')).status).toBe(200);
  });

  it("draws the course map the race's organiser uploaded at the collage's foot; only that organiser uploads it, an image only", async () => {
    const organiserId = await createUser(t.ctx.db, {
      firstName: 'Meera',
      lastName: 'Organiser',
      email: 'meera.org@example.com',
      password: 'Finish@2026',
      isOrganiser: true,
    });
    const otherId = await createUser(t.ctx.db, {
      firstName: 'Neel',
      lastName: 'Organiser',
      email: 'neel.org@example.com',
      password: 'Finish@2026',
      isOrganiser: true,
    });
    await t.ctx.db.query('update events set organiser_user_id = $2 where id = $1', [f.eventId, organiserId]);
    const token = (await createSession(t.ctx.db, organiserId)).token;
    const other = (await createSession(t.ctx.db, otherId)).token;
    const blueMap = (
      await sharp({ create: { width: 800, height: 300, channels: 3, background: { r: 20, g: 60, b: 220 } } })
        .png()
        .toBuffer()
    ).toString('base64');
    const upload = (image: string, as = token) =>
      t.request<OrganiserEvent>('POST', API_ROUTES.organiserCourseMap, { eventId: f.eventId, image }, { authorization: `Bearer ${as}` });

    expect((await upload(blueMap, other)).status).toBe(403);
    const notImage = await upload(Buffer.from('not an image at all').toString('base64'));
    expect([notImage.status, notImage.body.Message]).toEqual([400, COURSE_MAP_MESSAGE]);
    const saved = await upload(`data:image/png;base64,${blueMap}`);
    expect(saved.status).toBe(200);
    expect(saved.body.result.course_map).toMatch(/course-maps/);
    const [event] = await t.ctx.db.query<{ course_map_key: string }>('select course_map_key from events where id = $1', [f.eventId]);
    expect(await t.ctx.db.query('select field, new_value from event_changes where event_id = $1 and field = $2', [f.eventId, 'course_map'])).toEqual([
      { field: 'course_map', new_value: event!.course_map_key },
    ]);

    // The preview now ends with the map: its middle is the map's blue.
    const res = await preview([collage(f.photoIds.slice(0, 3))], {}, '203.0.113.40');
    const { data } = await sharp(Buffer.from(await res.arrayBuffer()))
      .extract({ left: 340, top: 940, width: 40, height: 40 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const blue = data.filter((_v, i) => i % 3 === 2).reduce((a, b) => a + b, 0) / (data.length / 3);
    const red = data.filter((_v, i) => i % 3 === 0).reduce((a, b) => a + b, 0) / (data.length / 3);
    expect(blue).toBeGreaterThan(180);
    expect(red).toBeLessThan(70);
  });
});
