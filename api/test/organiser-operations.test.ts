import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API_ROUTES,
  type BibSearchResult,
  type DeleteFaceDataResult,
  type EventChange,
  type ParticipantsImportRefusal,
  type ParticipantsImportResult,
  type ParticipantsResult,
  type PhotoReportRow,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { as, seedOrganiserFixture, type OrganiserFixture } from './organiserFixtures';
import { queuePhotosForFaces, sweepNewPhotos } from '../src/features/faces/faceJobs';
import { saveFacesOfPhoto } from '../src/features/faces/embeddingStore';
import { EMBEDDING_SIZE } from '../src/models/faces/engine';
import { saveAchievement } from '../src/features/certificates';

/** The organiser runs the event's photo operation: participants, moderation of reports, face data. */
describe('organiser: participants, moderation and face data', () => {
  let t: TestApp;
  let f: OrganiserFixture;
  const importCsv = (csv: string, token = f.tokens.organiser) =>
    t.request<ParticipantsImportResult | ParticipantsImportRefusal>('POST', API_ROUTES.organiserImportParticipants, { eventId: f.eventId, csv }, as(token));
  const participants = async (body: object = {}) =>
    (await t.request<ParticipantsResult>('POST', API_ROUTES.organiserParticipants, { eventId: f.eventId, ...body }, as(f.tokens.organiser))).body.result;

  beforeAll(async () => {
    t = await startTestApp();
    f = await seedOrganiserFixture(t.ctx);
    await t.ctx.db.query(`update events set bib_pattern = '^LH\\d{3}$' where id = $1`, [f.eventId]);
    await t.ctx.db.query(`insert into participants (event_id, bib_number, name) values ($1, 'LH999', 'Old Entry')`, [f.eventId]);
    // A one-race achievement: an imported finish time makes its runner eligible for the certificate.
    await saveAchievement(t.ctx.db, {
      title: 'Lake Half Finisher',
      description: 'Finished the Lake Half.',
      eventIds: [f.eventId],
      templateImageKey: null,
      templateConfig: null,
    });
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  describe('participants CSV', () => {
    it('refuses a file with a bad row, naming the row, and imports nothing', async () => {
      const csv = [
        'BIB,Name,Finish time,Email',
        'LH101,Asha Rao,1:52:07,asha.rao@example.com',
        'LH102,Vikram Sen,,',
        'XY7,Wrong Bib,2:01:00,',
        'LH104,,2:10:00,',
        'LH101,Asha Twice,,',
        'LH105,Late Runner,25 minutes,',
      ].join('\n');
      const res = await importCsv(csv);
      expect(res.status).toBe(400);
      expect(res.body.Message).toBe('4 rows have errors. Nothing was imported: please correct them and import the file again.');
      expect(res.body.result).toEqual({
        errorCount: 4,
        errors: [
          { line: 4, message: "Line 4: the BIB does not match the event's BIB format." },
          { line: 5, message: 'Line 5: the name is missing.' },
          { line: 6, message: 'Line 6: the BIB is already on line 2.' },
          { line: 7, message: 'Line 7: the finish time must look like 3:45:12.' },
        ],
      });
      expect((await participants()).rows.map((r) => r.bib_number)).toEqual(['LH999']);
    });

    it('imports the corrected file in one go and replaces the earlier list; the search and the certificate read it', async () => {
      const csv =
        '\uFEFF' +
        [
          '"BIB","Name","Finish Time","Email","Phone"',
          'lh101,"Rao, Asha",1:52:07,Asha.Rao@Example.com,98765 43210',
          'LH102,Vikram Sen,,,',
          'LH103,Meera Iyer,2:01:00,,',
        ].join('\r\n');
      const res = await importCsv(csv);
      expect(res.status).toBe(200);
      expect(res.body.Message).toBe('3 participants imported (they replace the 1 imported before).');
      expect(res.body.result).toEqual({ imported: 3, replaced: 1 });
      const list = await participants();
      expect(list.total).toBe(3);
      expect(list.rows[0]).toEqual({ bib_number: 'LH101', name: 'Rao, Asha', email: 'asha.rao@example.com', phone: '98765 43210', finish_time: '01:52:07' });
      expect((await participants({ search: 'meera' })).rows.map((r) => r.bib_number)).toEqual(['LH103']);
      // The BIB search reads the finish times for the certificate's eligibility: a finisher is eligible, a runner without a time is not.
      const search = async (bibNumber: string) =>
        (await t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber })).body.result;
      expect((await search('LH101')).achievementsEligibility.certificate_eligible).toBe(true);
      expect((await search('LH102')).achievementsEligibility.certificate_eligible).toBe(false);
      const changes = (await t.request<EventChange[]>('POST', API_ROUTES.organiserEventChanges, { eventId: f.eventId }, as(f.tokens.organiser))).body.result;
      expect(changes[0]).toMatchObject({ field: 'participants imported', old_value: '1', new_value: '3' });
    });

    it('names what is wrong with the file itself', async () => {
      expect((await importCsv('Runner,Time\nAsha,1:00:00')).body.Message).toBe(
        'The file needs a header row with the columns BIB and Name (Finish time, Email and Phone are optional).',
      );
      expect((await importCsv('BIB,Name\n')).body.Message).toBe('The file has no participants below its header row.');
      expect((await importCsv('BIB,Name\nLH101,"Asha')).body.Message).toMatch(/^The file could not be read as CSV\./);
      expect((await importCsv('')).body.Message).toBe('Please choose a CSV file.');
      expect((await participants()).total).toBe(3);
    });

    it('pages 15 at a time', async () => {
      const rows = ['BIB,Name', ...Array.from({ length: 40 }, (_, i) => `LH${String(i + 100).padStart(3, '0')},Runner ${i}`)];
      expect((await importCsv(rows.join('\n'))).status).toBe(200);
      const page3 = await participants({ page: 3 });
      expect(page3).toMatchObject({ total: 40, page: 3 });
      expect(page3.rows).toHaveLength(10);
      // The CSV export asks for every row at once.
      const all = await participants({ all: true });
      expect(all.rows).toHaveLength(40);
      expect(all.rows[39]!.bib_number).toBe('LH139');
    });

    it('only the event’s organiser reads or imports', async () => {
      expect((await importCsv('BIB,Name\nLH101,A', f.tokens.rival)).status).toBe(403);
      expect((await importCsv('BIB,Name\nLH101,A', f.tokens.runner)).status).toBe(403);
      expect((await t.request('POST', API_ROUTES.organiserParticipants, { eventId: f.eventId }, as(f.tokens.partner))).status).toBe(403);
      expect((await t.request('POST', API_ROUTES.organiserParticipants, { eventId: f.eventId })).status).toBe(401);
    });
  });

  describe('moderation of "Not me" reports', () => {
    let reportId: number;
    const results = async (bib: string) =>
      (await t.request<BibSearchResult>('POST', API_ROUTES.searchByBib, { eventID: f.eventId, bibNumber: bib })).body.result.photo.map((p) => p.id);

    it('a runner’s report waits in the queue with the photo', async () => {
      // The photo shows two runners: LH101 says it is not them.
      await t.ctx.db.query(`insert into photo_bibs (photo_id, event_id, bib_number) values ($1, $2, 'LH102')`, [f.photoIds[5], f.eventId]);
      const reported = await t.request(
        'POST',
        API_ROUTES.recordFeedback,
        { usrfeedback: 2, bibNumber: f.bib, eventID: f.eventId, photoids: String(f.photoIds[5]) },
        as(f.tokens.runner),
      );
      expect(reported.status).toBe(200);
      const queue = await t.request<PhotoReportRow[]>('POST', API_ROUTES.organiserReports, { eventId: f.eventId }, as(f.tokens.organiser));
      expect(queue.body.result).toEqual([
        expect.objectContaining({ photo_id: f.photoIds[5], image_id: 'LH-6', bib_number: 'LH101', reporter: 'Asha R.', status: 'open', reviewed_at: null }),
      ]);
      expect(queue.body.result[0]!.thumb).toMatch(/\/media\/thumbs\//);
      reportId = queue.body.result[0]!.report_id;
      // Until a decision, everyone else still sees it.
      expect(await results(f.bib)).toContain(f.photoIds[5]);
    });

    it('confirming takes the photo out of that BIB’s results for everyone, not out of the other runner’s', async () => {
      const rival = await t.request('POST', API_ROUTES.organiserDecideReport, { eventId: f.eventId, reportId, decision: 'upheld' }, as(f.tokens.rival));
      expect(rival.status).toBe(403);
      const res = await t.request<PhotoReportRow>(
        'POST',
        API_ROUTES.organiserDecideReport,
        { eventId: f.eventId, reportId, decision: 'upheld' },
        as(f.tokens.organiser),
      );
      expect(res.body).toMatchObject({ Message: "Confirmed: the photo has left this BIB's results.", result: { status: 'upheld' } });
      expect(await results(f.bib)).not.toContain(f.photoIds[5]);
      expect(await results('LH102')).toContain(f.photoIds[5]);
      expect((await t.request<PhotoReportRow[]>('POST', API_ROUTES.organiserReports, { eventId: f.eventId }, as(f.tokens.organiser))).body.result).toEqual([]);
      const upheld = await t.request<PhotoReportRow[]>('POST', API_ROUTES.organiserReports, { eventId: f.eventId, status: 'upheld' }, as(f.tokens.organiser));
      expect(upheld.body.result.map((r) => r.report_id)).toEqual([reportId]);
    });

    it('dismissing brings it back; a report of another event is not found', async () => {
      const res = await t.request<PhotoReportRow>(
        'POST',
        API_ROUTES.organiserDecideReport,
        { eventId: f.eventId, reportId, decision: 'dismissed' },
        as(f.tokens.organiser),
      );
      expect(res.body.Message).toBe('Dismissed: the photo stays in the results.');
      expect(await results(f.bib)).toContain(f.photoIds[5]);
      const rivalEvent = await t.request(
        'POST',
        API_ROUTES.organiserDecideReport,
        { eventId: f.rivalEventId, reportId, decision: 'upheld' },
        as(f.tokens.rival),
      );
      expect(rivalEvent).toMatchObject({ status: 404, body: { Message: 'This report was withdrawn or is not of this event.' } });
    });
  });

  describe('face data deletion', () => {
    it('deletes the event’s faces and jobs, turns selfie search off and is recorded; nothing is queued again', async () => {
      const db = t.ctx.db;
      await db.query('update events set selfiesearch = true where id = $1', [f.eventId]);
      const otherEvent = (
        await db.query<{ id: number }>(
          `insert into events (name, from_date, to_date, selfiesearch) values ('Other Selfie Run', '2026-01-01', '2026-01-01', true) returning id`,
        )
      )[0]!.id;
      const otherPhoto = (
        await db.query<{ id: number }>(
          `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height) values ($1, 'OS-1', 'image', 'k', 'k', 'k', 10, 10) returning id`,
          [otherEvent],
        )
      )[0]!.id;
      expect(await sweepNewPhotos(db)).toBeGreaterThan(0);
      const unit = (i: number) => Array.from({ length: EMBEDDING_SIZE }, (_, k) => (k === i ? 1 : 0));
      const testFace = (descriptor: number[]) => ({
        box: [0, 0, 64, 64] as [number, number, number, number],
        score: 0.9,
        descriptor,
        quality: { size: 64, brightness: 0.5, flatness: 0.05, sharpness: 0.1, yaw: 0, eyeLight: 0.6 },
      });
      await db.transaction(async (tx) => {
        await saveFacesOfPhoto(tx, f.photoIds[0]!, f.eventId, [testFace(unit(1))]);
        await saveFacesOfPhoto(tx, f.photoIds[1]!, f.eventId, [testFace(unit(2))]);
        await saveFacesOfPhoto(tx, otherPhoto, otherEvent, [testFace(unit(3))]);
      });

      const wrongName = await t.request('POST', API_ROUTES.organiserDeleteFaceData, { eventId: f.eventId, confirmName: 'Lakeside' }, as(f.tokens.organiser));
      expect(wrongName.body.Message).toBe("Please type the event's name exactly as shown to confirm.");
      expect((await t.request('POST', API_ROUTES.organiserDeleteFaceData, { eventId: f.eventId, confirmName: f.eventName }, as(f.tokens.rival))).status).toBe(
        403,
      );

      const res = await t.request<DeleteFaceDataResult>(
        'POST',
        API_ROUTES.organiserDeleteFaceData,
        { eventId: f.eventId, confirmName: 'lakeside half 2026' },
        as(f.tokens.organiser),
      );
      expect(res.status).toBe(200);
      expect(res.body.result.faces).toBe(2);
      expect(res.body.Message).toBe("The event's face data is deleted (2 faces). Search by selfie is off.");
      const count = async (sql: string, id: number) => (await db.query<{ n: number }>(sql, [id]))[0]!.n;
      expect(await count('select count(*)::int as n from photo_faces where event_id = $1', f.eventId)).toBe(0);
      expect(await count('select count(*)::int as n from face_index_jobs where event_id = $1', f.eventId)).toBe(0);
      expect(await count('select count(*)::int as n from photo_faces where event_id = $1', otherEvent)).toBe(1);

      await sweepNewPhotos(db);
      await queuePhotosForFaces(db, f.photoIds);
      expect(await count('select count(*)::int as n from face_index_jobs where event_id = $1', f.eventId)).toBe(0);
      const changes = (await t.request<EventChange[]>('POST', API_ROUTES.organiserEventChanges, { eventId: f.eventId }, as(f.tokens.organiser))).body.result;
      expect(changes.slice(0, 2)).toEqual([
        expect.objectContaining({ field: 'face data deleted', new_value: '2 faces of 8 photos', changed_by: 'Olga Org (olga.org@example.com)' }),
        expect.objectContaining({ field: 'Search by selfie', old_value: 'true', new_value: 'false' }),
      ]);
    });
  });
});
