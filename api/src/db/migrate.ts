import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies every `NNN_name.sql` in migrations/ not yet recorded, in order, each in its own transaction.
 * Number ranges are reserved per area so parallel work never collides:
 * 000-099 platform, 100-199 accounts, 200-299 discovery and faces, 300-399 cart, 400-499 orders,
 * 500-599 photo supply and partners, 600-699 organisers, 700-799 certificates, 800-899 production
 * operations (outbox, reconciliation).
 *
 * Several API processes may start at once on one server (or `pnpm migrate` run beside them): every
 * step, the creation of schema_migrations included, runs under one advisory lock, so one process
 * migrates and the others find the work done. Two concurrent `create table if not exists` would
 * otherwise race on the catalogue and one would fail.
 */
const MIGRATION_LOCK = 872349;

export async function migrate(db: Db, log: (msg: string) => void = () => undefined): Promise<string[]> {
  await db.transaction(async (tx) => {
    if (tx.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`);
  });
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
    const done = await db.transaction(async (tx) => {
      if (tx.kind === 'postgres') {
        await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        // A migration may build an index on a large table: the pool's statement timeout does not apply.
        await tx.query('set local statement_timeout = 0');
      }
      const rows = await tx.query('select 1 from schema_migrations where name = $1', [file]);
      if (rows.length > 0) return false;
      await tx.exec(sql);
      await tx.query('insert into schema_migrations (name) values ($1)', [file]);
      return true;
    });
    if (done) {
      applied.push(file);
      log(`migration applied: ${file}`);
    }
  }
  return applied;
}
