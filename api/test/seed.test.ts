import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { isSeeded, planMedia, seedDemo, SEED_SETTING } from '../src/seed/seedDemo';
import { DEMO_PASSWORD, DEMO_USERS, EVENTS, SEED_VERSION } from '../src/seed/demoData';
import { findUserByEmail, verifyPassword } from '../src/features/accounts/users';
import { todayInIndia } from '../src/features/events/queries';

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

  it('plans the full demo: a BIB with 300+ photos, 120+ unlabeled photos, BIBs with a handful, three videos', () => {
    const main = EVENTS.find((e) => e.name === 'Mumbai Coastal Marathon 2026')!;
    const jobs = planMedia(main, 'full');
    const countOf = (bib: string | null, kind = 'image') => jobs.filter((j) => j.bib === bib && j.kind === kind).length;
    expect(countOf('TT30000')).toBeGreaterThanOrEqual(300);
    expect(countOf(null)).toBeGreaterThanOrEqual(120);
    expect(countOf('TT20608')).toBe(6);
    expect(countOf('TT20608', 'video')).toBe(3);
    const handful = main.bibs.filter((b) => b.photos.full >= 2 && b.photos.full <= 7);
    expect(handful.length).toBeGreaterThanOrEqual(5);
    const all = EVENTS.flatMap((e) => planMedia(e, 'full'));
    expect(all.length).toBeGreaterThanOrEqual(780);
    expect(new Set(all.map((j) => j.imageId)).size).toBe(all.length);
  });

  it('seeds once, records its version, and does nothing on a second run', async () => {
    expect(await isSeeded(first.ctx.db)).toBe(false);
    const run = await seedDemo(first.ctx, { photos: 'small' });
    expect(run).toMatchObject({ skipped: false, events: EVENTS.length, videos: 3 });
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

    const unlabeled = await first.ctx.db.query<{ n: number }>('select count(*)::int as n from photos p where p.event_id = $1 and not exists (select 1 from photo_bibs b where b.photo_id = p.id)', [main.id]);
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
