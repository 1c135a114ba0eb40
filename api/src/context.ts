import type { AppConfig } from './config/config';
import type { Db } from './db/db';
import type { ObjectStorage } from './storage/storage';
import type { Mailer } from './mail/mailer';
import type { FunnelMarks } from './rules/funnel';

/**
 * Everything a route needs, built once at start and handed to every feature plugin.
 * Features that add a service (mail, captcha, payment...) add a field here and build it in createContext.
 */
export interface AppContext {
  config: AppConfig;
  db: Db;
  storage: ObjectStorage;
  mailer: Mailer;
  /** Funnel marks of searches and cart bills, written in the background. */
  funnel: FunnelMarks;
  /**
   * The demo seed of a first start runs after the API listens: 'seeding' until it is done and the job
   * work has started ('off' when this process does not seed, or until then when its demo was made by
   * an earlier start). /health says it, so `pnpm start` knows when the demo is complete.
   */
  demo: { state: 'off' | 'seeding' | 'ready' };
}
