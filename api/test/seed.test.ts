import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { isSeeded, planMedia, seedDemo, SEED_SETTING } from '../src/seed/seedDemo';
import { DEMO_PASSWORD, DEMO_USERS, EVENTS, SEED_VERSION } from '../src/seed/demoData';
import { findUserByEmail, verifyPassword } from '../src/features/accounts/users';
import { todayInIndia } from '../src/features/events/queries';
import { probeVideo } from '../src/media/ffmpeg';

const sha = (buffer: Buffer) => crypto.createHash('sha256').update(buffer).digest('hex');

describe('demo seed', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    // One after the other: if the second start fails, the first is already assigned and afterAll closes it.
    first = await startTestApp();
    second = await startTestApp();
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(first, second), TEAR_DOWN_TIMEOUT_MS);

  it('plans the full demo: a BIB with 300+ photos, 120+ unlabeled photos, BIBs with a handful, a finish-line camera', () => {
    const main = EVENTS.find((e) => e.name === 'Mumbai Coastal Marathon 2026')!;
    const jobs = planMedia(main, 'full');
    const countOf = (bib: string | null) => jobs.filter((j) => j.bib === bib).length;
    expect(countOf('TT30000')).toBeGreaterThanOrEqual(300);
    expect(countOf(null)).toBeGreaterThanOrEqual(120);
    expect(countOf('TT20608')).toBe(6);
    expect(main.finishCamera).toMatch(/\.MP4$/);
    const handful = main.bibs.filter((b) => b.photos.full >= 2 && b.photos.full <= 7);
    expect(handful.length).toBeGreaterThanOrEqual(5);
    const all = EVENTS.flatMap((e) => planMedia(e, 'full'));
    expect(all.length).toBeGreaterThanOrEqual(780);
    expect(new Set(all.map((j) => j.imageId)).size).toBe(all.length);
  });

  it('seeds once, records its version, and does nothing on a second run', async () => {
    expect(await isSeeded(first.ctx.db)).toBe(false);
    const run = await seedDemo(first.ctx, { photos: 'small' });
    // One clip per finisher of the event with a finish camera, cut from the filmed line.
    const [{ finishers }] = await first.ctx.db.query<{ finishers: number }>(
      `select count(*)::int as finishers from participants p join events e on e.id = p.event_id where e.name = 'Mumbai Coastal Marathon 2026' and p.finish_time is not null`,
    );
    expect(finishers).toBeGreaterThanOrEqual(2);
    expect(run).toMatchObject({ skipped: false, events: EVENTS.length, videos: finishers });
    expect(run.photos).toBeGreaterThan(30);
    const setting = await first.ctx.db.query<{ value: unknown }>('select value from app_settings where key = $1', [SEED_SETTING]);
    expect(setting[0].value).toEqual({ version: SEED_VERSION, photos: 'small' });

    const countRows = async () =>
      (
        await first.ctx.db.query<{ events: number; photos: number; users: number; participants: number }>(
          `select (select count(*)::int from events) as events, (select count(*)::int from photos) as photos,
                  (select count(*)::int from users) as users, (select count(*)::int from participants) as participants`,
        )
      )[0];
    const before = await countRows();
    expect(before).toMatchObject({ events: EVENTS.length, photos: run.photos + run.videos, users: DEMO_USERS.length });
    const again = await seedDemo(first.ctx, { photos: 'small' });
    expect(again.skipped).toBe(true);
    expect(await countRows()).toEqual(before);
  }, 180_000);

  it("films the main event's finish line and cuts every finisher's clip through the video pipeline; a stopped run is finished at the next start", async () => {
    const db = first.ctx.db;
    const [footage] = await db.query<{
      id: number;
      status: string;
      partner_user_id: number | null;
      original_name: string;
      duration_seconds: number;
      width: number;
    }>(`select v.* from finish_videos v join events e on e.id = v.event_id where e.name = 'Mumbai Coastal Marathon 2026'`);
    // The race's own camera, accepted like an upload, its clock set: no partner, every clip on sale.
    expect(footage).toMatchObject({ status: 'ready', partner_user_id: null, original_name: 'MCM26_FINISH_GANTRY.MP4', width: 640 });
    const finishers = await db.query<{ bib_number: string; finish: number }>(
      `select p.bib_number, extract(epoch from p.finish_time)::float8 as finish from participants p join events e on e.id = p.event_id
        where e.name = 'Mumbai Coastal Marathon 2026' and p.finish_time is not null order by p.finish_time`,
    );
    // Long enough for the race's span: the upload's own check let it in.
    expect(Number(footage!.duration_seconds)).toBeGreaterThanOrEqual(finishers[finishers.length - 1]!.finish - finishers[0]!.finish);
    const clips = await db.query<{
      id: number;
      image_id: string;
      status: string;
      clip_bib: string;
      bib_number: string;
      source: string;
      original_key: string;
      preview_key: string;
      partner_user_id: number | null;
    }>(
      `select p.id, p.image_id, p.status, p.clip_bib, b.bib_number, b.source, p.original_key, p.preview_key, p.partner_user_id
         from photos p join photo_bibs b on b.photo_id = p.id where p.source_video_id = $1 order by p.clip_bib`,
      [footage!.id],
    );
    expect(clips.map((c) => c.clip_bib)).toEqual(finishers.map((f) => f.bib_number).sort());
    for (const clip of clips)
      expect(clip).toMatchObject({ status: 'ready', bib_number: clip.clip_bib, source: 'timing', partner_user_id: null, image_id: `MCM26-V-${clip.clip_bib}` });
    // The runner's clip: the event's seconds around her crossing at the camera's size, and its preview.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-clip-'));
    try {
      const priya = clips.find((c) => c.clip_bib === 'TT20608')!;
      const full = path.join(work, 'full.mp4');
      const preview = path.join(work, 'preview.mp4');
      fs.writeFileSync(full, await first.ctx.storage.getBuffer(priya.original_key));
      fs.writeFileSync(preview, await first.ctx.storage.getBuffer(priya.preview_key));
      const probe = await probeVideo(full);
      expect(probe).toMatchObject({ codec: 'h264', width: 640, height: 360 });
      expect(probe!.durationSeconds).toBeCloseTo(7, 0);
      expect(await probeVideo(preview)).toMatchObject({ codec: 'h264', width: 640, height: 360 });

      // A start that stopped half way through the cutting: the next start cuts what waits.
      await db.query(`update photos set status = 'processing' where id = $1`, [priya.id]);
      await db.query(`update finish_videos set status = 'cutting' where id = $1`, [footage!.id]);
      await first.ctx.storage.delete(priya.original_key);
      expect((await seedDemo(first.ctx, { photos: 'small' })).skipped).toBe(true);
      const [after] = await db.query<{ status: string; video: string }>(
        `select p.status, v.status as video from photos p join finish_videos v on v.id = p.source_video_id where p.id = $1`,
        [priya.id],
      );
      expect(after).toEqual({ status: 'ready', video: 'ready' });
      fs.writeFileSync(full, await first.ctx.storage.getBuffer(priya.original_key));
      expect((await probeVideo(full))!.durationSeconds).toBeCloseTo(7, 0);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);

  it('covers every kind of event the spec names, across years, with upcoming dates in the future', async () => {
    const rows = await first.ctx.db.query<{
      name: string;
      from_date: string;
      issearchable: boolean;
      selfiesearch: boolean;
      preorder_allowed: boolean;
      showunlabeled: boolean;
      privacy_check: boolean;
      is_featured: boolean;
      id: number;
      organiser_user_id: number | null;
    }>(`select id, name, to_char(from_date, 'YYYY-MM-DD') as from_date, issearchable, selfiesearch, preorder_allowed, showunlabeled,
               privacy_check, is_featured, organiser_user_id from events`);
    const today = todayInIndia();
    const past = rows.filter((r) => r.from_date <= today);
    const upcoming = rows.filter((r) => r.from_date > today);
    expect(new Set(past.map((r) => r.from_date.slice(0, 4))).size).toBeGreaterThanOrEqual(3);
    expect(new Set(past.filter((r) => r.is_featured).map((r) => r.from_date.slice(0, 4))).size).toBeGreaterThanOrEqual(3);
    expect(upcoming.length).toBeGreaterThanOrEqual(3);
    expect(upcoming.some((r) => r.preorder_allowed && !r.issearchable)).toBe(true);
    for (const flag of ['issearchable', 'selfiesearch', 'preorder_allowed', 'showunlabeled', 'privacy_check'] as const) {
      expect({ flag, on: rows.some((r) => r[flag]), off: rows.some((r) => !r[flag]) }).toEqual({ flag, on: true, off: true });
    }
    const main = rows.find((r) => r.name === 'Mumbai Coastal Marathon 2026')!;
    expect(main).toMatchObject({ issearchable: true, selfiesearch: true, showunlabeled: true, preorder_allowed: true });

    const disabled = await first.ctx.db.query<{ value: number[] }>(`select value from app_settings where key = 'DISABLEPRINTS'`);
    expect(disabled[0].value).toEqual([rows.find((r) => r.name === 'Pune Hill Trail 2025')!.id]);

    const unlabeled = await first.ctx.db.query<{ n: number }>(
      'select count(*)::int as n from photos p where p.event_id = $1 and not exists (select 1 from photo_bibs b where b.photo_id = p.id)',
      [main.id],
    );
    expect(unlabeled[0].n).toBe(8);
    const privacy = await first.ctx.db.query<{ email: string }>(
      `select p.email from participants p join events e on e.id = p.event_id where e.privacy_check and p.bib_number = 'BH21042'`,
    );
    expect(privacy[0].email).toBe('runner@finishline.test');

    const organiser = await findUserByEmail(first.ctx.db, 'organiser@finishline.test');
    expect(organiser?.is_organiser).toBe(true);
    expect(rows.filter((r) => r.organiser_user_id === organiser!.id).length).toBeGreaterThanOrEqual(2);
    const partner = await findUserByEmail(first.ctx.db, 'partner@finishline.test');
    expect(partner?.is_partner).toBe(true);
    const runner = await findUserByEmail(first.ctx.db, 'runner@finishline.test');
    expect(await verifyPassword(runner!.password_hash, DEMO_PASSWORD)).toBe(true);
    expect(await verifyPassword(runner!.password_hash, 'wrong-password')).toBe(false);
  });

  it('is deterministic: a second database and storage get the same photos, byte for byte', async () => {
    await seedDemo(second.ctx, { photos: 'small' });
    const list = (t: TestApp) =>
      t.ctx.db.query<{ image_id: string; bib_number: string | null; original_key: string; preview_key: string; thumb_key: string; kind: string }>(
        `select p.image_id, b.bib_number, p.original_key, p.preview_key, p.thumb_key, p.kind
           from photos p left join photo_bibs b on b.photo_id = p.id order by p.image_id`,
      );
    const [a, b] = await Promise.all([list(first), list(second)]);
    expect(b).toEqual(a);
    for (const row of [a[0], a.find((r) => r.bib_number === null)!, a.find((r) => r.kind === 'video')!]) {
      for (const key of [row.original_key, row.preview_key, row.thumb_key]) {
        expect(sha(await second.ctx.storage.getBuffer(key))).toBe(sha(await first.ctx.storage.getBuffer(key)));
      }
    }
    // Originals are clean, previews are watermarked and smaller.
    const original = await first.ctx.storage.getBuffer(a[0].original_key);
    const preview = await first.ctx.storage.getBuffer(a[0].preview_key);
    expect(sha(original)).not.toBe(sha(preview));
    const sharp = (await import('sharp')).default;
    expect(await sharp(original).metadata()).toMatchObject({ width: 1600, height: 1067, format: 'jpeg' });
    expect(await sharp(preview).metadata()).toMatchObject({ width: 1000, format: 'jpeg' });
    expect(await sharp(await first.ctx.storage.getBuffer(a[0].thumb_key)).metadata()).toMatchObject({ width: 400 });
  }, 180_000);
});
