/**
 * Selfie search at scale: `pnpm --filter @finishline/api bench:selfie`.
 *
 * 1. Indexing rate: race scenes with faces from ../shared/data/faces (when present) go through the
 *    real background job; prints photos per second.
 * 2. An event with BENCH_FACES (default 100,000) stored faces: synthetic descriptors shaped like real
 *    ones (people around a common centre, each person's photos around the person) written through
 *    the same save path, 4 faces a photo. Then, 30 runs each:
 *    - matching alone, as the API does it (the event's faces held in memory, incremental loading);
 *    - matching alone as an exact scan in the database (pgvector `<->` or real[]), for comparison;
 *    - selfie search end to end (decode, detect, describe, match, privacy rule, signed URLs) with a
 *      real selfie, and end to end with an on-device descriptor.
 *    Also the first search after a restart (the event loaded into memory) and after new faces.
 *
 * Embedded PGlite in memory (pgvector) by default; DATABASE_URL=postgres://... measures a server
 * (real[] when it has no pgvector) in a schema of its own, dropped afterwards.
 */
import os from 'node:os';
import { faceDetector } from '../src/models/faces/detector';
import { embeddingColumn, matchPhotosInEvent, matchPhotosInEventSql, saveFacesOfPhoto } from '../src/features/faces/embeddingStore';
import type { DetectedFace } from '../src/models/faces/engine';
import { startFaceIndexer } from '../src/pipeline/faces';
import { searchBySelfie } from '../src/features/faces/selfieSearch';
import { AppError } from '../src/http/envelope';
import { FACE_DESCRIPTOR_LENGTH } from '@finishline/shared/pure';
import { addEventPhoto, createSelfieEvent, loadFaceSet, renderScene, renderSelfie, seededRandom } from './faceScenes';
import { runBench } from './benchSupport';
import { withFaceBenchContext } from './benchApp';

const TOTAL_FACES = Number(process.env.BENCH_FACES ?? 100_000);
const FACES_PER_PHOTO = 4;
const INDEX_PHOTOS = Number(process.env.BENCH_INDEX_PHOTOS ?? 12);
const RUNS = 30;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${label}: median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (${samples.length} runs)`;
}

async function timed(runs: number, run: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  return samples;
}

/** Normal random numbers (Box-Muller) from the seeded uniform generator. */
function gaussian(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}

async function main(): Promise<void> {
  await withFaceBenchContext(process.env.DATABASE_URL ?? null, async (ctx, db) => {
    const faceSet = loadFaceSet();
    const random = seededRandom(2026);
    const normal = gaussian(random);
    console.log(`database: ${db.kind}, descriptors stored as ${(await embeddingColumn(db)) === 'vector' ? 'pgvector vector(128)' : 'real[]'}`);
    console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, load average ${os.loadavg()[0]!.toFixed(1)}`);
    if (!faceSet) console.log('face set not found: indexing faceless scenes, end to end only with an on-device descriptor');

    // 1. Indexing rate through the job, models already loaded (loading is a one-off at start).
    await faceDetector().warmUp();
    const indexEvent = await createSelfieEvent(db, 'Bench Indexing Run');
    for (let i = 0; i < INDEX_PHOTOS; i += 1) {
      const faces = faceSet ? [0, 1, 2].map((k) => faceSet[(i * 3 + k) % faceSet.length]!.image) : [];
      await addEventPhoto(db, ctx.storage, indexEvent, `BI-${i}`, await renderScene(faces, random));
    }
    const started = performance.now();
    const indexer = startFaceIndexer({ db, storage: ctx.storage });
    await indexer.whenIdle();
    await indexer.stop();
    const seconds = (performance.now() - started) / 1000;
    const [{ n: indexedFaces }] = (await db.query<{ n: number }>('select count(*)::int as n from photo_faces where event_id = $1', [indexEvent])) as [
      { n: number },
    ];
    console.log(
      `indexing: ${INDEX_PHOTOS} photos (960x600, ${faceSet ? 3 : 0} faces each, whole image + tiles), ${indexedFaces} faces in ${seconds.toFixed(1)} s = ${(INDEX_PHOTOS / seconds).toFixed(2)} photos/s`,
    );

    // 2. The big event. People around a common centre, photos of a person around that person.
    const bigEvent = await createSelfieEvent(db, 'Bench Latency Run');
    const centre = Array.from({ length: FACE_DESCRIPTOR_LENGTH }, () => normal() * 0.1);
    const person = () => centre.map((c) => c + normal() * 0.06);
    const photoCount = Math.ceil(TOTAL_FACES / FACES_PER_PHOTO);
    const fillStart = performance.now();
    const ids = await db.query<{ id: number }>(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, seq)
       select $1, 'BL-' || g, 'image', 'originals/none.jpg', 'previews/bench/' || g || '.jpg', 'thumbs/bench/' || g || '.jpg', 960, 600, g
         from generate_series(1, $2) g returning id`,
      [bigEvent, photoCount],
    );
    let people: number[][] = [];
    for (let p = 0; p < ids.length; p += 1) {
      if (p % 50 === 0) people = Array.from({ length: 200 }, person);
      const faces: DetectedFace[] = Array.from({ length: FACES_PER_PHOTO }, () => {
        const who = people[Math.floor(random() * people.length)]!;
        return {
          box: [0, 0, 100, 100],
          score: 0.9,
          descriptor: who.map((v) => v + normal() * 0.025),
          quality: { size: 100, brightness: 0.5, sharpness: 0.05, flatness: 0.1, yaw: 0, eyeLight: 0.6 },
        };
      });
      await saveFacesOfPhoto(db, ids[p]!.id, bigEvent, faces);
    }
    console.log(`big event: ${photoCount * FACES_PER_PHOTO} faces in ${photoCount} photos stored in ${((performance.now() - fillStart) / 1000).toFixed(0)} s`);

    // The person searched for: a real selfie when the face set is there (its scene added to the event).
    let selfie: Buffer | null = null;
    let query = people[0]!.map((v) => v + normal() * 0.025);
    if (faceSet) {
      selfie = await renderSelfie(faceSet[0]!.image);
      const scene = await addEventPhoto(db, ctx.storage, bigEvent, 'BL-person', await renderScene([faceSet[0]!.image], random));
      await saveFacesOfPhoto(db, scene, bigEvent, await faceDetector().detect(await ctx.storage.getBuffer(`originals/${bigEvent}/BL-person.jpg`), 'index'));
      query = (await faceDetector().detect(selfie, 'selfie'))[0]!.descriptor;
    }

    const firstLoad = await timed(1, () => matchPhotosInEvent(db, bigEvent, query));
    console.log(`first search after a start (the event's ${photoCount * FACES_PER_PHOTO} faces loaded into memory): ${firstLoad[0]!.toFixed(0)} ms`);
    let matched = 0;
    const inMemory = await timed(RUNS, async () => {
      matched = (await matchPhotosInEvent(db, bigEvent, query)).length;
    });
    console.log(summary(`matching alone, faces held in memory (${photoCount * FACES_PER_PHOTO} faces, ${matched} photos matched)`, inMemory));
    const sql = await timed(Math.min(RUNS, Number(process.env.BENCH_SQL_RUNS ?? 10)), async () => {
      matched = (await matchPhotosInEventSql(db, bigEvent, query)).length;
    });
    console.log(summary(`matching alone, exact scan in the database (${matched} photos matched)`, sql));

    // A photo indexed meanwhile: the next search fetches only the new faces.
    const extra = await db.query<{ id: number }>(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height) values ($1, 'BL-new', 'image', 'o.jpg', 'p.jpg', 't.jpg', 960, 600) returning id`,
      [bigEvent],
    );
    await saveFacesOfPhoto(db, extra[0]!.id, bigEvent, [
      { box: [0, 0, 100, 100], score: 0.9, descriptor: query, quality: { size: 100, brightness: 0.5, sharpness: 0.05, flatness: 0.1, yaw: 0, eyeLight: 0.6 } },
    ]);
    const afterInsert = await timed(1, () => matchPhotosInEvent(db, bigEvent, query));
    console.log(`first search after a photo was indexed (new faces fetched only): ${afterInsert[0]!.toFixed(1)} ms`);

    const onDevice = await timed(RUNS, async () => {
      try {
        await searchBySelfie(ctx, faceDetector(), { eventID: bigEvent, embedding: query }, null);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    });
    console.log(summary('on-device search end to end on the server (check descriptor, match, privacy rule, sign URLs)', onDevice));
    if (selfie) {
      const body = { eventID: bigEvent, selfieimg: selfie.toString('base64') };
      const endToEnd = await timed(RUNS, async () => {
        try {
          await searchBySelfie(ctx, faceDetector(), body, null);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
        }
      });
      console.log(summary('selfie search end to end (decode, detect, describe, match, privacy rule, sign URLs)', endToEnd));
    }
  });
}

runBench(main);
