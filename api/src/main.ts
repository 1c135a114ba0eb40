import { loadConfig } from './config/config';
import { createContext } from './createContext';
import { buildApp } from './app';
import { seedDemo, seedSizeFromEnv } from './seed/seedDemo';
import { seedOrdersDemo } from './features/orders/demoOrders';
import { seedOrganiserDemo } from './seed/organiserDemo';
import { settleDemoPrintLines } from './seed/printLinesDemo';
import { seedPartnerUploads } from './seed/partnerUploads';
import { seedRunnerDemo } from './seed/runnerDemo';
import { FACE_YIELD_TO_UPLOADS_MS, startFaceIndexer } from './features/faces/indexer';
import { closeFaceDetector } from './features/faces/detector';
import { startSupplyWorker, startVideoWorker } from './features/supply';
import { defaultReaderProcesses } from './features/bibs';
import { acquireJobQueue } from './queue/jobQueue';
import { startBackgroundJobs } from './jobs/backgroundJobs';
import { ensureHomeImageRenditions } from './features/events';

/** Starts the API: open the database, migrate, seed on first start, listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config, console.log);
  // Demo data is rendered before listening, so the first page a visitor opens already has events.
  if (config.seedOnStart) {
    await seedDemo(ctx, { photos: seedSizeFromEnv(), log: console.log });
    await seedOrdersDemo(ctx, console.log);
    await seedOrganiserDemo(ctx, console.log);
    await seedRunnerDemo(ctx, console.log);
    await seedPartnerUploads(ctx, console.log);
    await settleDemoPrintLines(ctx, console.log);
  }
  // A database seeded before home images had renditions gets them now, in the background (until then
  // the home page serves the original).
  ensureHomeImageRenditions(ctx.db, ctx.storage, console.log).catch((error: unknown) => console.warn('home image renditions:', error));
  const app = await buildApp(ctx);
  // The one job queue (pg-boss in the same database): uploaded photos and face indexing run on it.
  const { queue, release: releaseQueue } = await acquireJobQueue(ctx.db, (message) => app.log.warn(message), { monitorSeconds: config.jobs.monitorSeconds });
  // Face embeddings of event photos (the demo seed's included) are computed in the background, at
  // half a core by default (FACE_INDEX_PAUSE=0: flat out); FACE_INDEXING=false leaves it to other processes.
  const pauseRatio = Number(process.env.FACE_INDEX_PAUSE ?? 1);
  const faceIndexer =
    process.env.FACE_INDEXING === 'false'
      ? null
      : startFaceIndexer(
          // Uploaded photos waiting for their BIBs go first: a runner searches by BIB the evening of the race.
          { db: ctx.db, storage: ctx.storage, queue, pauseRatio: Number.isFinite(pauseRatio) ? pauseRatio : 1, yieldToUploadsMs: FACE_YIELD_TO_UPLOADS_MS },
          (message) => app.log.info(message),
        );
  // Uploaded photos are processed here unless SUPPLY_WORKER=false leaves it to other processes;
  // BIB_READING=false skips reading BIBs (photos then stay unlabeled until tagged by hand);
  // BIB_ENGINE=tesseract reads BIBs with the earlier tesseract reader (BIB_OCR_WORKERS, and
  // BIB_LEGACY_CHECK=false to save its legacy classifier's ~140 MB at the cost of more wrong tags).
  const supplyWorker =
    process.env.SUPPLY_WORKER === 'false'
      ? null
      : await startSupplyWorker(ctx, queue, {
          concurrency: Math.max(1, Number(process.env.SUPPLY_CONCURRENCY ?? 2) || 2),
          ocrWorkers: Math.max(1, Number(process.env.BIB_OCR_WORKERS ?? 2) || 2),
          readerProcesses: Math.max(1, Number(process.env.BIB_READER_PROCESSES ?? defaultReaderProcesses()) || 1),
          legacyCheck: process.env.BIB_LEGACY_CHECK !== 'false',
          bibEngine: process.env.BIB_ENGINE === 'tesseract' ? 'tesseract' : 'model',
          ...(process.env.BIB_READING === 'false' ? { reader: null } : {}),
        });
  // Finish-line videos are cut here unless VIDEO_WORKER=false; VIDEO_CONCURRENCY pieces at a time
  // (default 1: each FFmpeg uses two threads). The BIB check shares the photo worker's reader.
  const videoWorker =
    process.env.VIDEO_WORKER === 'false'
      ? null
      : await startVideoWorker(ctx, queue, { reader: supplyWorker?.reader ?? null, concurrency: Math.max(1, Number(process.env.VIDEO_CONCURRENCY ?? 1) || 1) });
  // Outbox mail, payment reconciliation and pruning: scheduled once across every instance, worked by any.
  const backgroundJobs = await startBackgroundJobs(ctx, queue, (message) => app.log.info(message));
  const shutdown = async () => {
    await app.close();
    await backgroundJobs.stop();
    await faceIndexer?.stop();
    await videoWorker?.stop();
    await supplyWorker?.stop();
    await releaseQueue();
    await closeFaceDetector();
    await ctx.db.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
