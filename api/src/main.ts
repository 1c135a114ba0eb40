import fs from 'node:fs';
import { loadConfig } from './config/config';
import { createContext } from './createContext';
import { buildApp } from './app';
import { isSeeded, seedDemo } from './seed/seedDemo';
import { seedOrdersDemo } from './features/orders/demoOrders';
import { seedOrganiserDemo } from './seed/organiserDemo';
import { settleDemoPrintLines } from './seed/printLinesDemo';
import { seedPartnerUploads } from './seed/partnerUploads';
import { seedRunnerDemo } from './seed/runnerDemo';
import { closeFaceDetector } from './models/faces/detector';
import { ensureHomeImageRenditions } from './features/events';
import { startWork, type Work } from './pipeline/work';

/**
 * Starts the API: open the database, migrate, listen, then seed the demo on a first start, in the
 * background (health says demo 'seeding' until it is done). It also works the job queue (photos,
 * faces, videos, scheduled jobs) unless API_WORKS=false leaves that to worker processes (worker.ts);
 * `pnpm start` runs it all in this one process.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config, console.log);
  // A database seeded before home images had renditions gets them now, in the background (until then
  // the home page serves the original).
  ensureHomeImageRenditions(ctx.db, ctx.storage, console.log).catch((error: unknown) => console.warn('home image renditions:', error));
  const app = await buildApp(ctx);
  let work: Promise<Work | null> = Promise.resolve(null);
  let stopping = false;
  const shutdown = async () => {
    stopping = true;
    await app.close();
    await (await work.catch(() => null))?.stop();
    await closeFaceDetector();
    await ctx.db.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // Only a demo still to be made is 'seeding': a second start's demo is there already, and pnpm start
  // must not tell the developer it is on its way.
  if (config.seedOnStart && !(await isSeeded(ctx.db))) ctx.demo.state = 'seeding';
  // The API answers first; a first start's demo (rendering some 800 photos) fills in behind it.
  await app.listen({ port: config.port, host: config.host });
  if (config.seedOnStart) {
    await waitForSeedGate(config.seedGateFile, () => stopping);
    if (stopping) return;
    try {
      await seedDemo(ctx, { photos: config.seedPhotos, log: console.log });
      await seedOrdersDemo(ctx, console.log);
      await seedOrganiserDemo(ctx, console.log);
      await seedRunnerDemo(ctx, console.log);
      await seedPartnerUploads(ctx, console.log);
      await settleDemoPrintLines(ctx, console.log);
    } catch (error) {
      // Stopped (Ctrl-C) half way: the next start renders again what is missing. Otherwise it is a real failure.
      if (stopping) return;
      throw error;
    }
  }
  // The work starts after the seed: the demo's partner uploads are queued by then, and the seed's
  // rendering does not share the cores with the face and BIB models.
  if (config.work.apiWorks && !stopping) {
    work = startWork(
      ctx,
      config.work,
      (message) => app.log.info(message),
      (message) => app.log.warn(message),
    );
    await work;
  }
  if (config.seedOnStart) ctx.demo.state = 'ready';
}

/** Resolves once the gate file exists (none given: at once), checking every half second. */
async function waitForSeedGate(gateFile: string | null, stopped: () => boolean): Promise<void> {
  if (!gateFile) return;
  while (!stopped() && !fs.existsSync(gateFile)) await new Promise((resolve) => setTimeout(resolve, 500));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
