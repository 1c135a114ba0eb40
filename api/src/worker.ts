import { loadConfig } from './config/config';
import { createContext } from './createContext';
import { closeFaceDetector } from './models/faces/detector';
import { startWork } from './pipeline/work';

/**
 * A worker process (`pnpm worker`): no HTTP, only the job queue's work (photos, faces, videos,
 * scheduled jobs, as its settings say), against the same database and object storage as the API.
 * Run as many as the race needs (docs/deploy.md). SIGTERM: it stops taking jobs, lets the running
 * ones finish (WORKER_STOP_SECONDS, default 60) and exits; a job still running then is taken again
 * by another worker once this one's heartbeat stops.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // The worker never seeds: the API does it once on its first start.
  const ctx = await createContext({ ...config, seedOnStart: false }, console.log);
  const work = await startWork(
    ctx,
    config.work,
    (message) => console.log(message),
    (message) => console.warn(message),
  );
  console.log(`worker ${process.pid}: working ${work.parts.join(', ') || 'nothing (every part is switched off)'}`);
  let exiting = false;
  const shutdown = async (signal: string) => {
    if (exiting) return;
    exiting = true;
    console.log(`worker ${process.pid}: ${signal}, finishing the running jobs (up to ${config.work.stopGraceSeconds} s)`);
    const { finished } = await work.stop();
    if (!finished) {
      console.log(
        `worker ${process.pid}: jobs still running after ${config.work.stopGraceSeconds} s are handed back (another worker takes them once this one's heartbeat stops)`,
      );
      process.exit(0);
    }
    await closeFaceDetector();
    await ctx.db.close();
    console.log(`worker ${process.pid}: stopped`);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
