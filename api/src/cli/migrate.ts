import { migrationSettings } from '../config/config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';

/**
 * `pnpm migrate`: applies the database migrations once, as a step of a deploy before the new API
 * processes start (they migrate on start too, under the same lock, and then find nothing to do).
 * Needs only DATABASE_URL (or, in development, DATA_DIR for the embedded database).
 */
async function main(): Promise<void> {
  const { databaseUrl: url, dataDir, production } = migrationSettings();
  if (!url && production) throw new Error('pnpm migrate with NODE_ENV=production needs DATABASE_URL (the PostgreSQL server to migrate)');
  const db = await openDb({ url, dataDir: url ? null : dataDir, log: console.error });
  try {
    const applied = await migrate(db, console.log);
    console.log(applied.length === 0 ? 'migrate: the database is up to date' : `migrate: ${applied.length} migration(s) applied`);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(`migrate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
