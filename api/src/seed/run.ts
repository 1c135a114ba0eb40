import { loadConfig } from '../config/config';
import { createContext } from '../createContext';
import { seedDemo } from './seedDemo';

/** `pnpm --filter @finishline/api seed [--small]`: seeds the configured database and storage once. */
async function run(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config, console.log);
  try {
    await seedDemo(ctx, { photos: process.argv.includes('--small') ? 'small' : config.seedPhotos, log: console.log });
  } finally {
    await ctx.db.close();
  }
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
