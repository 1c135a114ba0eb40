import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  API_ROUTES,
  type AchievementsEligibility,
  type AchievementsSearchResult,
  type BibSearchResult,
  type CertificateUploadResult,
  type HomePageResult,
  type TemplateDetailsResult,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { as, seedOrganiserFixture, type OrganiserFixture } from './organiserFixtures';
import { certificateForm, paidOrderOfBib, sessionIdOf } from './certificateFixtures';
import { timedCertificates } from '../src/features/certificates';

/**
 * Every race with results has a finisher certificate, with no developer step: an organiser's new
 * race gets one when its participants are imported with official times; the builder lists it, and a
 * runner who bought their photos there makes and stores the certificate; the ultra premium zip draws it.
 */
describe('finisher certificates of every race with results', () => {
  let t: TestApp;
  let f: OrganiserFixture;

  const form = <T>(route: string, fields: Record<string, string>, token: string, file?: Buffer) => certificateForm<T>(t.url, route, fields, token, file);
  const finisherOf = async (eventId: number) =>
    (
      await t.ctx.db.query<{ id: number; title: string; active: boolean }>('select id, title, active from achievements where finisher_event_id = $1', [eventId])
    )[0];

  beforeAll(async () => {
    t = await startTestApp({ searchSessionMinutes: 120 });
    f = await seedOrganiserFixture(t.ctx);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('a race without official times has none; the import with times makes it, titled after the race, and the builder lists it', async () => {
    const imported = (csv: string) => t.request('POST', API_ROUTES.organiserImportParticipants, { eventId: f.eventId, csv }, as(f.tokens.organiser));
    expect((await imported(['BIB,Name,Finish time,Email', 'LH101,Asha Rao,,asha.rao@example.com'].join('\n'))).status).toBe(200);
    expect(await finisherOf(f.eventId)).toBeUndefined();
    expect((await imported(['BIB,Name,Finish time,Email', 'LH101,Asha Rao,1:52:07,asha.rao@example.com', 'LH102,Vikram Sen,2:01:00,'].join('\n'))).status).toBe(
      200,
    );
    const finisher = await finisherOf(f.eventId);
    expect(finisher).toMatchObject({ title: f.eventName, active: true });
    // A second import keeps the certificate as it was (its id, its settings).
    expect((await imported(['BIB,Name,Finish time,Email', 'LH101,Asha Rao,1:52:07,asha.rao@example.com'].join('\n'))).status).toBe(200);
    expect((await finisherOf(f.eventId)).id).toBe(finisher.id);

    const home = (await t.request<HomePageResult>('GET', API_ROUTES.homePage)).body.result;
    expect(home.finisher_events).toContainEqual({ event_id: f.eventId, event_name: f.eventName, achievement_id: finisher.id });
    // The home page's series stay as they were: a race's own certificate is not a series.
    expect(
      Object.values(home.slam_events ?? {})
        .flat()
        .some((e) => e.event_id === f.eventId),
    ).toBe(false);
    const search = await t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber: f.bib });
    expect(search.body.result.achievementsEligibility).toEqual({ certificate_eligible: true, certificate_url: null, achievement_id: finisher.id });
  });

  it('the runner who bought their photos builds and stores the race’s certificate; the ultra premium zip draws it', async () => {
    const finisher = await finisherOf(f.eventId);
    const token = f.tokens.runner;
    await paidOrderOfBib(t.ctx, f.eventId, f.bib, {
      userId: f.users.runner,
      placedByUserId: f.users.runner,
      placedSessionId: await sessionIdOf(t.ctx, token),
      email: 'asha.rao@example.com',
    });
    const found = await form<AchievementsSearchResult>(
      API_ROUTES.achievementsSearch,
      { 'event_bib_pairs[0][event_id]': String(f.eventId), 'event_bib_pairs[0][bib_number]': f.bib, page: '1' },
      token,
    );
    expect(found.status).toBe(200);
    expect(found.body.result.achievement_details).toMatchObject({
      achievement_id: finisher.id,
      title: f.eventName,
      participant_name: 'Asha Rao',
      events: [{ event_id: f.eventId, finish_time: '01:52:07' }],
    });
    expect(found.body.result.pairs[0].photos_usable).toBe(true);
    const details = await form<TemplateDetailsResult>(
      API_ROUTES.certificateTemplate,
      { achievement_id: String(finisher.id), [`selected_photos[${f.eventId}]`]: String(found.body.result.pairs[0].photos[0].id) },
      token,
    );
    expect(details.status).toBe(200);
    expect(details.body.result.template.template_config.output_resolution).toEqual({ width: 3840, height: 2560 });
    const jpeg = await sharp({ create: { width: 3840, height: 2560, channels: 3, background: '#f4efe2' } })
      .jpeg()
      .toBuffer();
    const stored = await form<CertificateUploadResult>(API_ROUTES.certificateUpload, { achievement_id: String(finisher.id) }, token, jpeg);
    expect(`${stored.status} ${stored.body.Message}`).toBe('200 Certificate uploaded successfully!');

    const [photo] = await t.ctx.db.query<{ original_key: string }>('select original_key from photos where id = $1', [f.photoIds[0]]);
    const zipped = await timedCertificates(t.ctx, { event_id: f.eventId, bib_number: f.bib, email: 'asha.rao@example.com' }, photo.original_key);
    expect(zipped.map((c) => c.name)).toEqual([`timed-certificate-${f.bib}.jpg`]);
    expect(await sharp(zipped[0].data).metadata()).toMatchObject({ format: 'jpeg', width: 3840, height: 2560 });

    // The order page asks whether the BIB has a certificate: yes, with the one this session made; another session sees no link to it.
    const eligibility = (bibNumber: string, token?: string) =>
      t.request<AchievementsEligibility>('POST', API_ROUTES.certificateEligibility, { eventID: f.eventId, bibNumber }, token ? as(token) : {});
    const mine = (await eligibility(f.bib, token)).body.result;
    expect(mine).toMatchObject({ certificate_eligible: true, achievement_id: finisher.id });
    expect(mine.certificate_url).toEqual(expect.any(String));
    expect((await eligibility(f.bib)).body.result).toEqual({ certificate_eligible: true, certificate_url: null, achievement_id: finisher.id });
    // A BIB without an official time has none; a missing BIB is named.
    expect((await eligibility('NOPE-1')).body.result.certificate_eligible).toBe(false);
    const blank = await eligibility('  ');
    expect(`${blank.status} ${blank.body.Message}`).toBe('400 Please enter your BIB number.');

    // Turned off by its organiser: no longer offered, and not in the zip.
    await t.ctx.db.query('update achievements set active = false where id = $1', [finisher.id]);
    try {
      expect((await eligibility(f.bib, token)).body.result).toEqual({ certificate_eligible: false, certificate_url: null, achievement_id: null });
      expect(
        (await timedCertificates(t.ctx, { event_id: f.eventId, bib_number: f.bib, email: 'asha.rao@example.com' }, photo.original_key)).map((c) => c.name),
      ).toEqual([]);
      const home = (await t.request<HomePageResult>('GET', API_ROUTES.homePage)).body.result;
      expect(home.finisher_events?.some((e) => e.event_id === f.eventId)).toBe(false);
    } finally {
      await t.ctx.db.query('update achievements set active = true where id = $1', [finisher.id]);
    }
  });
});
