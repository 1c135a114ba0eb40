import sharp from 'sharp';
import type { AppContext } from '../context';
import type { Db } from '../db/db';
import { createUser, findUserByEmail, setRole } from '../features/accounts';
import { PURCHASE_NOTIFICATION_SETTING } from '../features/orders';
import { DISABLE_PRINTS_SETTING } from '../rules/prints';
import { ensureFinisherCertificate, renderBackground, saveAchievement } from '../features/certificates';
import { ensureHomeImageRenditions } from '../features/events';
import { standardTemplate } from '@finishline/shared/pure';
import { createPrng } from './prng';
import {
  ACHIEVEMENTS,
  DEMO_PASSWORD,
  DEMO_USERS,
  EVENTS,
  HIGHLIGHT_COUNT,
  PRINT_PRODUCTS,
  PURCHASE_NOTIFICATION,
  SEED_VERSION,
  THEMES,
  type DemoEvent,
} from './demoData';
import { seedFinishLineVideos } from './finishLineDemo';
import { backgroundSvg, heroShadeSvg, logoSvg, PHOTO_HEIGHT, PHOTO_WIDTH, printProductSvg, randomLook, runnerSvg } from './scenes';
import { compose, rasterise, renderPhoto, renderStill, runPool, type Overlay, type RawImage } from './render';

/** app_settings key recording that (and which version of) the demo data is in the database. */
export const SEED_SETTING = 'demo_seed';

export interface SeedOptions {
  /** 'full': the whole demo (about 800 photos); 'small': a few photos per BIB, for fast tests. */
  photos: 'full' | 'small';
  log?: (message: string) => void;
  /** Photos rendered at once; the seed is tuned for 2 cores. */
  concurrency?: number;
}

export interface SeedSummary {
  skipped: boolean;
  events: number;
  photos: number;
  videos: number;
  milliseconds: number;
}

export interface PhotoJob {
  event: DemoEvent;
  imageId: string;
  bib: string | null;
  seq: number;
}

interface StoredPhoto extends PhotoJob {
  originalKey: string;
  previewKey: string;
  thumbKey: string;
  width: number;
  height: number;
}

const BACKGROUND_VARIANTS = 4;

export async function isSeeded(db: Db): Promise<boolean> {
  const rows = await db.query('select 1 from app_settings where key = $1', [SEED_SETTING]);
  return rows.length > 0;
}

/** Every photo and video the seed makes for one event, in capture order. */
export function planMedia(event: DemoEvent, size: SeedOptions['photos']): PhotoJob[] {
  const jobs: PhotoJob[] = [];
  let seq = 0;
  const nextId = (prefix: string) => `${event.code}-${prefix}${String(++seq).padStart(5, '0')}`;
  for (const bib of event.bibs) {
    const count = bib.photos[size];
    for (let i = 0; i < count; i++) jobs.push({ event, imageId: nextId(''), bib: bib.bib, seq });
  }
  for (let i = 0; i < event.unlabeled[size]; i++) jobs.push({ event, imageId: nextId(''), bib: null, seq });
  return jobs;
}

function keysOf(job: PhotoJob): Pick<StoredPhoto, 'originalKey' | 'previewKey' | 'thumbKey'> {
  const folder = job.event.code.toLowerCase();
  return {
    originalKey: `originals/${folder}/${job.imageId}.jpg`,
    previewKey: `previews/${folder}/${job.imageId}.jpg`,
    thumbKey: `thumbs/${folder}/${job.imageId}.jpg`,
  };
}

/** Stores the original, the watermarked preview and the thumbnail of one photo (all JPEG). */
async function putRenditions(
  ctx: AppContext,
  keys: ReturnType<typeof keysOf>,
  media: { original: Buffer; preview: Buffer; thumb: Buffer; width: number; height: number },
): Promise<Omit<StoredPhoto, keyof PhotoJob>> {
  await Promise.all([
    ctx.storage.put(keys.originalKey, media.original, 'image/jpeg'),
    ctx.storage.put(keys.previewKey, media.preview, 'image/jpeg'),
    ctx.storage.put(keys.thumbKey, media.thumb, 'image/jpeg'),
  ]);
  return { ...keys, width: media.width, height: media.height };
}

/** The runners of one photo: a main runner with a readable BIB, or a group with unreadable cards. */
function overlaysFor(job: PhotoJob): Overlay[] {
  const rng = createPrng(job.imageId);
  if (job.bib) {
    const overlays: Overlay[] = [];
    if (rng.chance(0.35)) {
      const side = runnerSvg(randomLook(rng), null, job.event.code, rng.float(1.2, 1.5), rng.chance(0.5));
      overlays.push({
        svg: side.svg,
        left: rng.chance(0.5) ? rng.int(20, 200) : PHOTO_WIDTH - side.width - rng.int(20, 200),
        top: PHOTO_HEIGHT - side.height - rng.int(60, 120),
      });
    }
    const main = runnerSvg(randomLook(rng), job.bib, job.event.code, rng.float(1.9, 2.4));
    overlays.push({ svg: main.svg, left: rng.int(140, PHOTO_WIDTH - main.width - 140), top: Math.max(0, PHOTO_HEIGHT - main.height - rng.int(5, 40)) });
    return overlays;
  }
  const count = rng.int(2, 4);
  return Array.from({ length: count }, (_, i) => {
    const runner = runnerSvg(randomLook(rng), null, job.event.code, rng.float(1.0, 1.5), rng.chance(0.5));
    const slot = (PHOTO_WIDTH - 200) / count;
    return {
      svg: runner.svg,
      left: Math.min(PHOTO_WIDTH - runner.width, 100 + slot * i + rng.int(0, Math.max(0, Math.floor(slot - runner.width)))),
      top: PHOTO_HEIGHT - runner.height - rng.int(10, 90),
    };
  });
}

function backgroundOf(event: DemoEvent, variant: number): string {
  return backgroundSvg(createPrng(`${event.code}/bg/${variant}`), event.name, event.code, event.colour, event.scene, variant);
}

async function renderEventMedia(ctx: AppContext, event: DemoEvent, jobs: PhotoJob[], concurrency: number, onPhoto: () => void): Promise<StoredPhoto[]> {
  const stored: StoredPhoto[] = [];
  if (jobs.length > 0) {
    // Backgrounds are rasterised once per event and reused by every photo.
    const backgrounds: RawImage[] = [];
    for (let v = 0; v < BACKGROUND_VARIANTS; v++) backgrounds.push(await rasterise(backgroundOf(event, v)));
    await runPool(jobs, concurrency, async (job) => {
      const background = backgrounds[createPrng(`${job.imageId}/variant`).int(0, BACKGROUND_VARIANTS - 1)];
      const photo = await renderPhoto(background, overlaysFor(job));
      stored.push({ ...job, ...(await putRenditions(ctx, keysOf(job), photo)) });
      onPhoto();
    });
  }
  return stored;
}

/** Logos, hero, season highlights and print product pictures: public assets, no signature needed. */
async function renderPublicAssets(ctx: AppContext): Promise<{ highlights: string[]; hero: string }> {
  for (const event of EVENTS) {
    await ctx.storage.put(`public/logos/${event.code.toLowerCase()}.png`, await renderStill(logoSvg(event.code, event.name, event.colour), 'png'), 'image/png');
  }
  for (const product of PRINT_PRODUCTS) {
    await ctx.storage.put(`public/prints/${product.slug}.png`, await renderStill(printProductSvg(product.slug, product.name, '#0b5cad'), 'png'), 'image/png');
  }
  const main = EVENTS[0];
  const heroScene = await compose(
    await rasterise(backgroundOf(main, 1)),
    [0, 1, 2].map((i) => {
      const runner = runnerSvg(randomLook(createPrng(`hero/${i}`)), main.bibs[i]?.bib ?? null, main.code, 1.7 - i * 0.2);
      return { svg: runner.svg, left: 260 + i * 420, top: PHOTO_HEIGHT - runner.height - 20 - i * 40 };
    }),
  );
  const heroOverlay = heroShadeSvg(1920, 800);
  const hero = await sharp(heroScene.data, { raw: { width: heroScene.width, height: heroScene.height, channels: heroScene.channels } })
    .resize(1920, 800, { fit: 'cover' })
    .composite([{ input: Buffer.from(heroOverlay) }])
    .jpeg({ quality: 80 })
    .toBuffer();
  const heroKey = 'public/hero/finish-line.jpg';
  await ctx.storage.put(heroKey, hero, 'image/jpeg');

  const highlights: string[] = [];
  const featured = EVENTS.filter((e) => e.bibs.length > 0);
  for (let i = 0; i < HIGHLIGHT_COUNT; i++) {
    const event = featured[i % featured.length];
    const rng = createPrng(`highlight/${i}`);
    const runner = runnerSvg(randomLook(rng), event.bibs[0].bib, event.code, 2.1);
    const scene = await compose(await rasterise(backgroundOf(event, i % BACKGROUND_VARIANTS)), [
      { svg: runner.svg, left: rng.int(200, PHOTO_WIDTH - runner.width - 200), top: PHOTO_HEIGHT - runner.height - 20 },
    ]);
    const image = await sharp(scene.data, { raw: { width: scene.width, height: scene.height, channels: scene.channels } })
      .resize(800)
      .jpeg({ quality: 78 })
      .toBuffer();
    const key = `public/highlights/season-2026-${i + 1}.jpg`;
    await ctx.storage.put(key, image, 'image/jpeg');
    highlights.push(key);
  }
  return { highlights, hero: heroKey };
}

const achievementBackgroundKey = (title: string) => `public/certificates/${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.jpg`;

/** Each achievement's certificate background, in its colour, for its number of photo slots. */
async function renderAchievementBackgrounds(ctx: AppContext): Promise<void> {
  for (const achievement of ACHIEVEMENTS) {
    // Slot geometry depends on the number of events only, so placeholder ids draw the same frames.
    const layout = standardTemplate({ title: achievement.title, eventIds: achievement.events.map((_, i) => i + 1) });
    await ctx.storage.put(achievementBackgroundKey(achievement.title), await renderBackground(layout, achievement.accent), 'image/jpeg');
  }
}

async function insertPhotos(tx: Db, photos: StoredPhoto[], eventIds: Map<string, number>): Promise<void> {
  const chunk = 200;
  for (let start = 0; start < photos.length; start += chunk) {
    const rows = photos.slice(start, start + chunk);
    const params: unknown[] = [];
    const values = rows.map((p) => {
      params.push(eventIds.get(p.event.code), p.imageId, p.originalKey, p.previewKey, p.thumbKey, p.width, p.height, p.seq);
      const n = params.length - 8;
      // The seed's own media are photos; its videos are cut from the finish line (finishLineDemo.ts).
      return `(${Array.from({ length: 8 }, (_, i) => `$${n + i + 1}`).join(', ')}, 'image', now())`;
    });
    const inserted = await tx.query<{ id: number; image_id: string }>(
      // The demo renders its originals with sharp, which writes no metadata: they are clean as stored.
      `insert into photos (event_id, image_id, original_key, preview_key, thumb_key, width, height, seq, kind, metadata_cleaned_at)
       values ${values.join(', ')} returning id, image_id`,
      params,
    );
    // The demo's own photos carry the BIB they were drawn with.
    const idOf = new Map(inserted.map((r) => [r.image_id, r.id]));
    const tagged = rows.filter((p) => p.bib !== null);
    if (tagged.length > 0) {
      await tx.query(
        `insert into photo_bibs (photo_id, event_id, bib_number, source)
         select unnest($1::int[]), unnest($2::int[]), unnest($3::text[]), 'seed'`,
        [tagged.map((p) => idOf.get(p.imageId)), tagged.map((p) => eventIds.get(p.event.code)), tagged.map((p) => p.bib)],
      );
    }
  }
}

async function insertRows(tx: Db, photos: StoredPhoto[], assets: { highlights: string[]; hero: string }, size: SeedOptions['photos']): Promise<void> {
  for (const [i, theme] of THEMES.entries()) {
    await tx.query('insert into event_themes (code, name, sort) values ($1, $2, $3) on conflict (code) do nothing', [theme.code, theme.name, i]);
  }

  const userIds = new Map<string, number>();
  for (const user of DEMO_USERS) {
    const existing = await findUserByEmail(tx, user.email);
    const id =
      existing?.id ??
      (await createUser(tx, {
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        password: DEMO_PASSWORD,
        primaryPhone: user.primaryPhone,
        isPartner: user.isPartner,
        // The demo's addresses are the shop's own (finishline.test): nobody else can prove them.
        emailVerified: true,
      }));
    userIds.set(user.role, id);
    // The roles a platform operator grants, through the very function of `pnpm admin grant-organiser`.
    if (user.grant) await setRole(tx, user.email, user.grant, true, { userId: null, via: 'seed' });
  }

  const eventIds = new Map<string, number>();
  for (const e of EVENTS) {
    const rows = await tx.query<{ id: number }>(
      `insert into events (name, logo_key, from_date, to_date, location, issearchable, selfiesearch, preorder_allowed, showunlabeled,
         privacy_check, is_featured, theme_code, slam_key, organiser_user_id, threshold_photo_count, show_prempack, show_ultrapack,
         preorder_price, preorder_cut_price)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) returning id`,
      [
        e.name,
        `public/logos/${e.code.toLowerCase()}.png`,
        e.from,
        e.to,
        e.location,
        e.issearchable,
        e.selfiesearch,
        e.preorderAllowed,
        e.showunlabeled,
        e.privacyCheck,
        e.featured,
        e.theme,
        e.slam,
        e.ownedByOrganiser ? userIds.get('organiser') : null,
        e.thresholdPhotoCount,
        e.showPremPack,
        e.showUltraPack,
        e.preorder?.price ?? null,
        e.preorder?.cutPrice ?? null,
      ],
    );
    const eventId = rows[0].id;
    eventIds.set(e.code, eventId);
    for (const bib of e.bibs) {
      if (bib.photos[size] === 0) continue;
      await tx.query('insert into participants (event_id, bib_number, name, email, finish_time) values ($1, $2, $3, $4, $5)', [
        eventId,
        bib.bib,
        bib.participant.name,
        bib.participant.email,
        bib.participant.finishTime,
      ]);
    }
    await ensureFinisherCertificate(tx, eventId);
    if (e.sponsor) {
      await tx.query(
        `insert into sponsor_offers (event_id, coupon_name, sponsor_name, description, discount_type, discount_amount, max_orders_allowed)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [eventId, e.sponsor.couponName, e.sponsor.sponsorName, e.sponsor.description, e.sponsor.type, e.sponsor.amount, e.sponsor.maxOrders],
      );
    }
  }

  await insertPhotos(tx, photos, eventIds);

  for (const achievement of ACHIEVEMENTS) {
    const ids = achievement.events.map((code) => eventIds.get(code)!);
    await saveAchievement(tx, {
      title: achievement.title,
      description: achievement.description,
      eventIds: ids,
      templateImageKey: achievementBackgroundKey(achievement.title),
      templateConfig: standardTemplate({ title: achievement.title, eventIds: ids }),
    });
  }

  for (const [i, p] of PRINT_PRODUCTS.entries()) {
    await tx.query(
      'insert into print_products (name, image_key, price, sort, print_width_in, print_height_in) values ($1, $2, $3, $4, $5, $6) on conflict (name) do nothing',
      [p.name, `public/prints/${p.slug}.png`, p.price, i, p.widthIn, p.heightIn],
    );
  }
  await tx.query(`insert into home_images (kind, image_key, alt, season, sort) values ('hero', $1, $2, '2026', 0)`, [
    assets.hero,
    'Runners crossing the finish line of the Mumbai Coastal Marathon 2026',
  ]);
  for (const [i, key] of assets.highlights.entries()) {
    await tx.query(`insert into home_images (kind, image_key, alt, season, sort) values ('highlight', $1, $2, '2026', $3)`, [
      key,
      `Highlight ${i + 1} of the 2026 season`,
      i + 1,
    ]);
  }

  const disabled = EVENTS.filter((e) => e.disablePrints).map((e) => eventIds.get(e.code));
  await tx.query('insert into app_settings (key, value) values ($1, $2) on conflict (key) do nothing', [DISABLE_PRINTS_SETTING, JSON.stringify(disabled)]);
  await tx.query(`insert into app_settings (key, value) values ($1, $2) on conflict (key) do nothing`, [
    PURCHASE_NOTIFICATION_SETTING,
    JSON.stringify(PURCHASE_NOTIFICATION),
  ]);
  await tx.query('insert into app_settings (key, value) values ($1, $2)', [SEED_SETTING, JSON.stringify({ version: SEED_VERSION, photos: size })]);
}

/**
 * Seeds the demo world once: renders every photo, video and public image into object storage, then
 * writes all rows in one transaction that also records the seed version. Runs again do nothing.
 * Rendering is deterministic, so a run that stopped half way simply renders the same files again.
 */
export async function seedDemo(ctx: AppContext, options: SeedOptions): Promise<SeedSummary> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const concurrency = options.concurrency ?? 2;
  if (await isSeeded(ctx.db)) {
    log('seed: demo data already present, nothing to do');
    // A start that stopped while filming or cutting the finish line finishes it now.
    await seedFinishLineVideos(ctx, log);
    return { skipped: true, events: 0, photos: 0, videos: 0, milliseconds: Date.now() - started };
  }

  // One libvips thread per operation; the pool below runs `concurrency` photos side by side.
  const previousConcurrency = sharp.concurrency();
  sharp.concurrency(1);
  try {
    const jobsByEvent = EVENTS.map((event) => ({ event, jobs: planMedia(event, options.photos) }));
    const total = jobsByEvent.reduce((sum, e) => sum + e.jobs.length, 0);
    log(`seed: rendering ${total} photos for ${EVENTS.length} events (${options.photos})`);
    const assets = await renderPublicAssets(ctx);
    await renderAchievementBackgrounds(ctx);
    const stored: StoredPhoto[] = [];
    let done = 0;
    for (const { event, jobs } of jobsByEvent) {
      if (jobs.length === 0) continue;
      const media = await renderEventMedia(ctx, event, jobs, concurrency, () => {
        done++;
        if (done % 100 === 0) log(`seed: ${done}/${total} rendered (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      });
      // Keep capture order: the pool finishes photos out of order.
      stored.push(...media.sort((a, b) => a.seq - b.seq));
    }

    const inserted = await ctx.db.transaction(async (tx) => {
      // Several API processes may start at once on one server: one seeds, the others find it done.
      if (tx.kind === 'postgres') await tx.query('select pg_advisory_xact_lock(872350)');
      if (await isSeeded(tx)) return false;
      await insertRows(tx, stored, assets, options.photos);
      return true;
    });
    // The hero's smaller and WebP copies, made once now rather than on a visitor's request.
    if (inserted) await ensureHomeImageRenditions(ctx.db, ctx.storage, log);
    const videos = await seedFinishLineVideos(ctx, log);
    const summary = {
      skipped: !inserted,
      events: EVENTS.length,
      photos: stored.length,
      videos,
      milliseconds: Date.now() - started,
    };
    log(`seed: ${summary.events} events, ${summary.photos} photos, ${summary.videos} videos in ${(summary.milliseconds / 1000).toFixed(1)} s`);
    return summary;
  } finally {
    sharp.concurrency(previousConcurrency);
  }
}
