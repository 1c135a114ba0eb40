import type { AppConfig } from './config/config';
import type { AppContext } from './context';
import { openDb, type Db } from './db/db';
import { migrate } from './db/migrate';
import { createStorage } from './storage/storage';
import { createMailer } from './mail/mailer';
import { FunnelMarks } from './rules/funnel';

/** Opens the configured database and prepares everything the server needs. Used by main. */
export async function createContext(config: AppConfig, log: (msg: string) => void = () => undefined): Promise<AppContext> {
  const db = await openDb({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    pool: config.database,
    pgliteSharedBuffers: config.database.pgliteSharedBuffers,
    log,
  });
  return createContextWith(config, db, log);
}

/** Builds the context around an open database (tests hand in their own). */
export async function createContextWith(config: AppConfig, db: Db, log: (msg: string) => void = () => undefined): Promise<AppContext> {
  await migrate(db, log);
  const storage = createStorage(config);
  const mailer = createMailer(config.mail);
  return { config, db, storage, mailer, funnel: new FunnelMarks(db, log), demo: { state: 'off' } };
}
