import { loadConfig } from './config/config';
import { createContext } from './createContext';
import { buildApp } from './app';
import { seedDemo } from './seed/seedDemo';
import { seedOrdersDemo } from './features/orders/demoOrders';
import { seedOrganiserDemo } from './seed/organiserDemo';
import { settleDemoPrintLines } from './seed/printLinesDemo';
import { seedPartnerUploads } from './seed/partnerUploads';
import { seedRunnerDemo } from './seed/runnerDemo';
import { closeFaceDetector } from './models/faces/detector';
import { ensureHomeImageRenditions } from './features/events';
import { startWork, type Work } from './pipeline/work';

/**
 * Starts the API: open the database, migrate, seed on first start, listen. It also works the job
 * queue (photos, faces, videos, scheduled jobs) unless API_WORKS=false leaves that to worker
 * processes (worker.ts); `pnpm start` runs it all in this one process.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config, console.log);
  // Demo data is rendered before listening, so the first page a visitor opens already has events.
  if (config.seedOnStart) {
    await seedDemo(ctx, { photos: config.seedPhotos, log: console.log });
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
  const work: Work | null = config.work.apiWorks
    ? await startWork(
        ctx,
        config.work,
        (message) => app.log.info(message),
        (message) => app.log.warn(message),
      )
    : null;
  const shutdown = async () => {
    await app.close();
    await work?.stop();
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
