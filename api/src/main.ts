import { loadConfig } from './config/config';
import { createContext } from './createContext';
import { buildApp } from './app';
import { seedDemo } from './seed/seedDemo';

/** Starts the API: open the database, migrate, seed on first start, listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config, console.log);
  // Demo data is rendered before listening, so the first page a visitor opens already has events.
  if (config.seedOnStart) await seedDemo(ctx, { photos: 'full', log: console.log });
  const app = await buildApp(ctx);
  const shutdown = async () => {
    await app.close();
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
