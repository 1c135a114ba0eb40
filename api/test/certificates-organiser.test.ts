import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  API_ROUTES,
  CERTIFICATE_BACKGROUND_MAX_BYTES,
  CERTIFICATE_SETTINGS_MESSAGES,
  standardTemplate,
  type CertificateBackgroundResult,
  type CertificatePreviewResult,
  type CertificateTemplateConfig,
  type OrganiserCertificate,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { as, seedOrganiserFixture, type OrganiserFixture } from './organiserFixtures';

/**
 * The organiser's part of a race's finisher certificate (Event Dashboard, Certificate tab): read,
 * save, upload a background and preview, by the race's own organiser only; a template with a field
 * off the canvas, a background that is no image or too large are refused with a message naming the
 * field, and the stored certificate stays as it was.
 */
describe('the organiser sets up a race’s finisher certificate', () => {
  let t: TestApp;
  let f: OrganiserFixture;

  const call = <T>(route: string, body: Record<string, unknown>, token = f.tokens.organiser) => t.request<T>('POST', route, body, as(token));
  const stored = async () =>
    (
      await t.ctx.db.query<{
        title: string;
        active: boolean;
        accent_color: string | null;
        template_image_key: string | null;
        template_config: CertificateTemplateConfig | null;
      }>('select title, active, accent_color, template_image_key, template_config from achievements where finisher_event_id = $1', [f.eventId])
    )[0];
  const draft = (over: Partial<{ title: string; accent_color: string; background_key: string | null; template_config: CertificateTemplateConfig }> = {}) => ({
    eventId: f.eventId,
    title: 'Lakeside Finisher',
    accent_color: '#1f6f43',
    background_key: null,
    template_config: standardTemplate({ title: 'Lakeside Finisher', eventIds: [f.eventId], accent: '#1f6f43' }),
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp({ searchSessionMinutes: 120 });
    f = await seedOrganiserFixture(t.ctx);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('a race without results says so, and nothing can be saved for it yet', async () => {
    const read = await call<OrganiserCertificate>(API_ROUTES.organiserCertificate, { eventId: f.eventId });
    expect(read.status).toBe(200);
    expect(read.body.result).toMatchObject({ has_results: false, finishers: 0, title: f.eventName });
    const save = await call(API_ROUTES.organiserSaveCertificate, { ...draft(), active: true });
    expect(`${save.status} ${save.body.Message}`).toBe(`409 ${CERTIFICATE_SETTINGS_MESSAGES.noResults}`);
  });

  it('only the race’s own organiser reads, saves, uploads and previews (403 for another organiser and a runner)', async () => {
    await call(API_ROUTES.organiserImportParticipants, {
      eventId: f.eventId,
      csv: ['BIB,Name,Finish time,Email', `${f.bib},Asha Rao,1:52:07,asha.rao@example.com`, 'LH102,Vikram Sen,2:01:00,'].join('\n'),
    });
    const png = (
      await sharp({ create: { width: 300, height: 200, channels: 3, background: '#336699' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const calls: Array<[string, Record<string, unknown>]> = [
      [API_ROUTES.organiserCertificate, { eventId: f.eventId }],
      [API_ROUTES.organiserSaveCertificate, { ...draft({ title: 'Taken over' }), active: false }],
      [API_ROUTES.organiserCertificateBackground, { eventId: f.eventId, image: png }],
      [API_ROUTES.organiserCertificatePreview, draft()],
    ];
    for (const [route, body] of calls) {
      for (const who of ['rival', 'runner'] as const) expect(`${route} ${who} ${(await call(route, body, f.tokens[who])).status}`).toBe(`${route} ${who} 403`);
      expect(`${route} visitor ${(await t.request('POST', route, body)).status}`).toBe(`${route} visitor 401`);
    }
    // Nothing the refused calls sent was stored.
    expect(await stored()).toMatchObject({ title: f.eventName, active: true, accent_color: null, template_config: null });
  });

  it('saves on/off, title, colour and the placed fields, and records the change in the event’s audit trail', async () => {
    const config = standardTemplate({ title: 'Lakeside Finisher', eventIds: [f.eventId], accent: '#1f6f43' });
    config.texts.push({
      field: 'static',
      text: '4 October 2026',
      font_file: 'Montserrat-Regular.ttf',
      font_size: 40,
      color: '#1d2433',
      x: 3400,
      y: 2300,
      align: 'center',
    });
    const save = await call<OrganiserCertificate>(API_ROUTES.organiserSaveCertificate, { ...draft({ template_config: config }), active: true });
    expect(save.status).toBe(200);
    expect(save.body.result).toMatchObject({ has_results: true, active: true, title: 'Lakeside Finisher', accent_color: '#1f6f43', background_key: null });
    const row = await stored();
    expect(row).toMatchObject({ title: 'Lakeside Finisher', active: true, accent_color: '#1f6f43', template_image_key: null });
    expect(row.template_config?.texts).toContainEqual(expect.objectContaining({ text: '4 October 2026', x: 3400, y: 2300 }));
    expect(row.template_config?.texts).toContainEqual(expect.objectContaining({ text: 'Lakeside Finisher', field: 'static' }));
    const changes = await t.ctx.db.query<{ new_value: string }>(`select new_value from event_changes where event_id = $1 and field = 'certificate'`, [
      f.eventId,
    ]);
    expect(changes.map((c) => c.new_value)).toEqual(['on, "Lakeside Finisher", standard layout in #1f6f43']);
  });

  it('refuses a field off the canvas, naming it, and keeps the stored template', async () => {
    const before = await stored();
    const outside = standardTemplate({ title: 'Moved', eventIds: [f.eventId] });
    outside.texts = outside.texts.map((item) => (item.field === 'bib_number' ? { ...item, x: 4100 } : item));
    const save = await call(API_ROUTES.organiserSaveCertificate, { ...draft({ title: 'Moved', template_config: outside }), active: true });
    const bibY = outside.texts.find((item) => item.field === 'bib_number')!.y;
    expect(`${save.status} ${save.body.Message}`).toBe(
      `400 The field BIB lies outside the certificate (3840 x 2560) at x 4100, y ${bibY}. Please move it onto the canvas.`,
    );
    const slotOut = standardTemplate({ title: 'Moved', eventIds: [f.eventId] });
    slotOut.images = [{ ...slotOut.images[0], y: 2000 }];
    const slot = await call(API_ROUTES.organiserSaveCertificate, { ...draft({ title: 'Moved', template_config: slotOut }), active: true });
    expect(`${slot.status} ${slot.body.Message}`).toMatch(/^400 The field Photo slot 1 lies outside the certificate \(3840 x 2560\) at x \d+, y 2000\./);
    const preview = await call(API_ROUTES.organiserCertificatePreview, draft({ template_config: outside }));
    expect(preview.status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it('takes a JPEG or PNG background up to the limit, refuses anything else by name, and saves it only with the certificate', async () => {
    const before = await stored();
    const upload = (image: string) => call<CertificateBackgroundResult>(API_ROUTES.organiserCertificateBackground, { eventId: f.eventId, image });
    const notImage = await upload(Buffer.from('%PDF-1.4 not an image').toString('base64'));
    expect(`${notImage.status} ${notImage.body.Message}`).toBe(`400 ${CERTIFICATE_SETTINGS_MESSAGES.background}`);
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ff0000' } })
      .gif()
      .toBuffer();
    expect((await upload(gif.toString('base64'))).body.Message).toBe(CERTIFICATE_SETTINGS_MESSAGES.background);
    // Just over the limit: a valid JPEG header followed by padding.
    const jpeg = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ff0000' } })
      .jpeg()
      .toBuffer();
    const huge = Buffer.concat([jpeg, Buffer.alloc(CERTIFICATE_BACKGROUND_MAX_BYTES + 1 - jpeg.length)]);
    const tooLarge = await upload(`data:image/jpeg;base64,${huge.toString('base64')}`);
    expect(`${tooLarge.status} ${tooLarge.body.Message}`).toBe(`400 ${CERTIFICATE_SETTINGS_MESSAGES.backgroundSize}`);
    expect(await stored()).toEqual(before);

    const good = await upload(
      `data:image/png;base64,${(
        await sharp({ create: { width: 600, height: 400, channels: 3, background: '#224466' } })
          .png()
          .toBuffer()
      ).toString('base64')}`,
    );
    expect(good.status).toBe(200);
    const key = good.body.result.background_key;
    expect(key).toMatch(new RegExp(`^public/certificates/backgrounds/${f.eventId}-[0-9a-f]{16}\\.jpg$`));
    expect(await sharp(await t.ctx.storage.getBuffer(key)).metadata()).toMatchObject({ format: 'jpeg', width: 3840, height: 2560 });
    // Uploaded, not yet saved: the certificate is as it was.
    expect(await stored()).toEqual(before);

    // Another race's background (or a made-up key) is refused.
    const foreign = await call(API_ROUTES.organiserSaveCertificate, {
      ...draft({ background_key: key.replace(`/${f.eventId}-`, `/${f.rivalEventId}-`) }),
      active: true,
    });
    expect(`${foreign.status} ${foreign.body.Message}`).toBe(`400 ${CERTIFICATE_SETTINGS_MESSAGES.backgroundKey}`);
    const saved = await call<OrganiserCertificate>(API_ROUTES.organiserSaveCertificate, { ...draft({ background_key: key }), active: true });
    expect(saved.status).toBe(200);
    expect((await stored()).template_image_key).toBe(key);
    expect(saved.body.result.background_url).toContain(key);
  });

  it('previews the draft with a real finisher, downscaled, the photo slot from the watermarked preview (never the original)', async () => {
    // The finisher's photo: the original blue, its watermarked preview red; the preview must show red.
    const [photo] = await t.ctx.db.query<{ original_key: string; preview_key: string }>('select original_key, preview_key from photos where id = $1', [
      f.photoIds[0],
    ]);
    const previewKey = `previews/${f.eventId}/certificate-preview-test.jpg`;
    await t.ctx.storage.put(
      photo.original_key,
      await sharp({ create: { width: 300, height: 200, channels: 3, background: '#0000ff' } })
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    );
    await t.ctx.storage.put(
      previewKey,
      await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ff0000' } })
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    );
    await t.ctx.db.query('update photos set preview_key = $2 where id = $1', [f.photoIds[0], previewKey]);

    const preview = await call<CertificatePreviewResult>(API_ROUTES.organiserCertificatePreview, draft());
    expect(preview.status).toBe(200);
    expect(preview.body.result).toMatchObject({
      width: 960,
      height: 640,
      participant_name: 'Asha Rao',
      bib_number: f.bib,
      finish_time: '01:52:07',
      with_photo: true,
    });
    const bytes = Buffer.from(preview.body.result.image.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 960, height: 640 });
    const slot = draft().template_config.images[0];
    const scale = 960 / 3840;
    const { data } = await sharp(bytes)
      .extract({ left: Math.round((slot.x + slot.width / 2) * scale) - 2, top: Math.round((slot.y + slot.height / 2) * scale) - 2, width: 4, height: 4 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const [r, g, b] = [data[0], data[1], data[2]];
    expect({ red: r > 180, blue: b < 90, green: g < 90 }).toEqual({ red: true, blue: true, green: true });
  });
});
