/**
 * Selfie search benchmark: `pnpm --filter @finishline/api bench:selfie`.
 *
 * 1. Indexing rate: race scenes (with faces from ../shared/data/faces when present, else faceless
 *    scenes) go through the real background job; prints photos per second.
 * 2. Latency on an event with 10,000 indexed faces: synthetic embeddings are inserted directly (2,500
 *    photos x 4 faces), then selfie searches run end to end (face detection, matching, signed URLs)
 *    and matching alone; prints median and p95.
 *
 * Uses embedded PGlite in memory (pgvector); DATABASE_URL=postgres://... measures a server instead
 * (real[] when it has no pgvector). BENCH_FACES=n changes the face count.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config';
import { createContextWith } from '../src/createContext';
import { openDb } from '../src/db/db';
import { closeFaceDetector, faceDetector } from '../src/features/faces/detector';
import { embeddingColumn, matchPhotosInEvent, saveFacesOfPhoto } from '../src/features/faces/embeddingStore';
import { EMBEDDING_SIZE, normalise } from '../src/features/faces/engine';
import { startFaceIndexer } from '../src/features/faces/indexer';
import { MATCH_OPTIONS, searchBySelfie } from '../src/features/faces/selfieSearch';
import { AppError } from '../src/http/envelope';
import { addEventPhoto, createSelfieEvent, loadFaceSet, renderScene, renderSelfie, seededRandom } from './faceScenes';

const TOTAL_FACES = Number(process.env.BENCH_FACES ?? 10_000);
const FACES_PER_PHOTO = 4;
const INDEX_PHOTOS = 20;
const SEARCHES = 30;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${label}: median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (${samples.length} runs)`;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-bench-'));
  const config = loadConfig({ dataDir: tmp, storage: { kind: 'local', dir: path.join(tmp, 'objects') }, seedOnStart: false });
  const schema = process.env.DATABASE_URL ? `bench_${Date.now()}` : undefined;
  const db = await openDb({ url: process.env.DATABASE_URL ?? null, dataDir: null, schema });
  const ctx = await createContextWith(config, db);
  const faceSet = loadFaceSet();
  const random = seededRandom(2026);
  console.log(`database: ${db.kind}, embeddings stored as ${(await embeddingColumn(db)) === 'vector' ? 'pgvector vector(1024)' : 'real[]'}`);
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}`);
  if (!faceSet) console.log('face set not found: indexing faceless scenes and searching with a synthetic selfie only');

  try {
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
    const [{ n: indexedFaces }] = (await db.query<{ n: number }>('select count(*)::int as n from photo_faces where event_id = $1', [indexEvent])) as [{ n: number }];
    console.log(`indexing: ${INDEX_PHOTOS} photos (960x600, ${faceSet ? 3 : 0} faces each), ${indexedFaces} faces in ${seconds.toFixed(1)} s = ${(INDEX_PHOTOS / seconds).toFixed(2)} photos/s`);

    // 2. An event with TOTAL_FACES synthetic faces. Real embeddings share a large common part; the
    //    synthetic ones do too (a fixed base plus noise per person), so centring has work to do.
    const bigEvent = await createSelfieEvent(db, 'Bench Latency Run');
    const base = Array.from({ length: EMBEDDING_SIZE }, () => random());
    const fillStart = performance.now();
    const photoCount = Math.ceil(TOTAL_FACES / FACES_PER_PHOTO);
    for (let p = 0; p < photoCount; p += 1) {
      const rows = await db.query<{ id: number }>(
        `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, seq)
         values ($1, $2, 'image', 'originals/none.jpg', $3, $4, 960, 600, $5) returning id`,
        [bigEvent, `BL-${p}`, `previews/bench/${p}.jpg`, `thumbs/bench/${p}.jpg`, p],
      );
      const faces = Array.from({ length: FACES_PER_PHOTO }, () => ({
        box: [0, 0, 100, 100] as [number, number, number, number],
        score: 0.9,
        embedding: normalise(base.map((v) => v + (random() - 0.5) * 0.8)),
      }));
      await db.transaction((tx) => saveFacesOfPhoto(tx, rows[0]!.id, bigEvent, faces));
    }
    console.log(`latency event: ${photoCount * FACES_PER_PHOTO} faces in ${photoCount} photos stored in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);

    // The person searched for: a real selfie when the face set is there (its scene added to the event).
    let selfie: Buffer | null = null;
    if (faceSet) {
      selfie = await renderSelfie(faceSet[0]!.image);
      const scene = await addEventPhoto(db, ctx.storage, bigEvent, 'BL-person', await renderScene([faceSet[0]!.image], random));
      await db.transaction(async (tx) => saveFacesOfPhoto(tx, scene, bigEvent, await faceDetector().detect(await ctx.storage.getBuffer(`originals/${bigEvent}/BL-person.jpg`), 'index')));
    }

    const matchTimes: number[] = [];
    const query = selfie ? (await faceDetector().detect(selfie, 'selfie'))[0]!.embedding : normalise(base.map((v) => v + (random() - 0.5) * 0.8));
    let matched = 0;
    for (let i = 0; i < SEARCHES; i += 1) {
      const t0 = performance.now();
      matched = (await matchPhotosInEvent(db, bigEvent, query, MATCH_OPTIONS)).length;
      matchTimes.push(performance.now() - t0);
    }
    console.log(summary(`matching only (${photoCount * FACES_PER_PHOTO} faces, ${matched} photos matched)`, matchTimes));

    if (selfie) {
      const endToEnd: number[] = [];
      const body = { eventID: bigEvent, selfieimg: selfie.toString('base64') };
      for (let i = 0; i < SEARCHES; i += 1) {
        const t0 = performance.now();
        try {
          await searchBySelfie(ctx, faceDetector(), body, null);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
        }
        endToEnd.push(performance.now() - t0);
      }
      console.log(summary('selfie search end to end (decode, detect, embed, match, sign URLs)', endToEnd));
    }
  } finally {
    await closeFaceDetector();
    if (schema) await db.query(`drop schema if exists ${schema} cascade`);
    await db.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
