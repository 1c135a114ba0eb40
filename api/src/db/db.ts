import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { DEFAULT_PGLITE_SHARED_BUFFERS, PGLITE_SHARED_BUFFERS_FORMAT } from './pgliteSettings';

export type Row = Record<string, unknown>;

export interface QueryOptions {
  /**
   * A name for a hot statement that always has the same text: the server parses and plans it once
   * per connection and afterwards only binds and runs it (a prepared statement). Unique per SQL text.
   * PGlite prepares it once too (PREPARE, then EXECUTE with the values as literals): planning a
   * large statement in WebAssembly costs far more than running it.
   */
  name?: string;
  /**
   * Embedded PGlite only (one process owns the database, so it sees every write): the named read's
   * rows may be answered from memory for up to this many milliseconds, until any other statement
   * runs. Every statement that does not say keepsCache (a read or a write, inside a transaction or
   * not) empties the cache, so only a change of time shows late, by at most this long. The rows
   * handed out are frozen. The server ignores it: other processes write there.
   */
  cacheMs?: number;
  /** A write to tables no cached read reads (the funnel marks): it leaves PGlite's cache standing. */
  keepsCache?: boolean;
}

/** The one database interface the server uses, backed by PGlite (embedded) or a PostgreSQL server. */
export interface Db {
  readonly kind: 'pglite' | 'postgres';
  query<T extends Row = Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /** Runs fn inside one transaction; the Db handed to fn uses that transaction. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /** What the job queue connects to (pg-boss needs the PGlite instance itself, or its own pool). */
  readonly native?: { kind: 'pglite'; pglite: PGlite } | { kind: 'postgres'; url: string; schema: string | null };
  /** Runs hook (once) before the database closes: the job queue stops there. */
  beforeClose?(hook: () => Promise<void>): void;
}

/** One statement as a recording database saw it. */
export interface RecordedStatement {
  sql: string;
  params: unknown[];
  name?: string;
}

/**
 * The same database, recording every statement run through it (transactions included) in seen:
 * tests count a request's round trips with it, benchmarks explain and replay them.
 */
export function recordingDb(db: Db, seen: RecordedStatement[]): Db {
  const wrap = (inner: Db): Db => ({
    kind: inner.kind,
    query: <T extends Row = Row>(sql: string, params: unknown[] = [], options?: QueryOptions) => {
      seen.push({ sql, params, ...(options?.name ? { name: options.name } : {}) });
      return inner.query<T>(sql, params, options);
    },
    transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
    exec: (sql) => {
      seen.push({ sql, params: [] });
      return inner.exec(sql);
    },
    close: () => inner.close(),
    native: inner.native,
  });
  return wrap(db);
}

/** Hooks that run before a database closes, newest first. */
class CloseHooks {
  private hooks: Array<() => Promise<void>> = [];
  add(hook: () => Promise<void>): void {
    this.hooks.push(hook);
  }
  async run(): Promise<void> {
    for (const hook of this.hooks.splice(0).reverse()) await hook();
  }
}

/** A value as an untyped SQL literal ('...' or null), or null when it has no plain one. */
function literalOf(value: unknown): string | null {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? "'true'" : "'false'";
  if (typeof value === 'number') return Number.isFinite(value) ? `'${value}'` : null;
  if (typeof value === 'bigint') return `'${value}'`;
  if (typeof value === 'string') return value.includes('\0') ? null : `'${value.replace(/'/g, "''")}'`;
  return null;
}

/** Most cached reads kept: beyond, the cache starts afresh (a few hundred searches' rows). */
const CACHE_ENTRIES = 1000;

/** Rows shared by every caller of a cached read: nobody may change them. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  // PGlite serves one connection: transactions must not interleave with other queries.
  private queue: Promise<unknown> = Promise.resolve();
  private readonly closeHooks = new CloseHooks();
  /** Rows of cached reads (QueryOptions.cacheMs) by name and parameters, with when they go stale. */
  private readonly cache = new Map<string, { rows: Row[]; until: number }>();
  /** Named statements by name: the SQL text prepared, or false for one that runs unprepared. */
  private readonly prepared = new Map<string, string | false>();
  readonly native;
  constructor(
    private readonly pglite: PGlite,
    private readonly inTx = false,
  ) {
    this.native = { kind: 'pglite' as const, pglite };
  }

  beforeClose(hook: () => Promise<void>): void {
    this.closeHooks.add(hook);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inTx) return fn();
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async query<T extends Row = Row>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<T[]> {
    return this.serial(async () => {
      const cacheKey = options.name && options.cacheMs ? `${options.name}\u0000${JSON.stringify(params)}` : null;
      if (cacheKey) {
        const hit = this.cache.get(cacheKey);
        if (hit && hit.until > Date.now()) return hit.rows as T[];
      } else if (!options.keepsCache) this.cache.clear();
      const rows = (options.name ? await this.executePrepared<T>(options.name, sql, params) : null) ?? (await this.pglite.query<T>(sql, params)).rows;
      if (cacheKey) {
        if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
        this.cache.set(cacheKey, { rows: deepFreeze(rows), until: Date.now() + options.cacheMs! });
      }
      return rows;
    });
  }

  /**
   * A named statement through PREPARE/EXECUTE: PGlite's query API cannot keep a prepared statement
   * (it parses and plans every statement again), and an EXECUTE with bind parameters is refused, so
   * the values go in as quoted literals (untyped, so each is cast to its parameter's type exactly as
   * a bound text value is). Null when the statement runs unprepared instead: a value without a plain
   * literal (arrays, objects, dates), a name used for another text, or a statement PREPARE refused.
   */
  private async executePrepared<T extends Row>(name: string, sql: string, params: unknown[]): Promise<T[] | null> {
    const literals = params.map(literalOf);
    if (literals.includes(null)) return null;
    let prepared = this.prepared.get(name);
    if (prepared === undefined) {
      prepared = await this.prepare(name, sql);
      this.prepared.set(name, prepared);
    }
    if (prepared !== sql) return null;
    const args = literals.length > 0 ? `(${literals.join(', ')})` : '';
    try {
      return (await this.pglite.query<T>(`execute ${quoteIdent(name)}${args}`)).rows;
    } catch (error) {
      // Gone (a DISCARD on the connection): prepared again next time, unprepared this time.
      if ((error as { code?: string }).code !== '26000') throw error;
      this.prepared.delete(name);
      return null;
    }
  }

  /** The SQL text prepared under name, or false when it cannot be (it then runs unprepared). */
  private async prepare(name: string, sql: string): Promise<string | false> {
    // The literals rely on standard quoting: '' is the only escape, a backslash is a backslash.
    const [conforming] = (await this.pglite.query<{ on: boolean }>(`select current_setting('standard_conforming_strings') = 'on' as on`)).rows;
    if (!conforming?.on) return false;
    try {
      await this.pglite.exec(`prepare ${quoteIdent(name)} as ${sql}`);
      return sql;
    } catch {
      return false;
    }
  }

  async exec(sql: string): Promise<void> {
    await this.serial(() => {
      this.cache.clear();
      return this.pglite.exec(sql);
    });
  }

  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    if (this.inTx) return fn(this);
    return this.serial(() => {
      this.cache.clear();
      return this.pglite.transaction(async (tx) => {
        const txDb: Db = {
          kind: 'pglite',
          query: async <R extends Row = Row>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows,
          exec: async (sql: string) => {
            await tx.exec(sql);
          },
          transaction: (inner) => inner(txDb),
          close: async () => undefined,
        };
        return fn(txDb);
      });
    });
  }

  async close(): Promise<void> {
    await this.closeHooks.run();
    await this.queue;
    await this.pglite.close();
  }
}

class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  private readonly closeHooks = new CloseHooks();
  readonly native;
  constructor(
    private readonly pool: pg.Pool,
    url: string,
    schema: string | null,
  ) {
    this.native = { kind: 'postgres' as const, url, schema };
  }

  beforeClose(hook: () => Promise<void>): void {
    this.closeHooks.add(hook);
  }

  async query<T extends Row = Row>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<T[]> {
    return (await this.pool.query(options.name ? { name: options.name, text: sql, values: params } : { text: sql, values: params })).rows as T[];
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const txDb: Db = {
      kind: 'postgres',
      query: async <R extends Row = Row>(sql: string, params: unknown[] = [], options: QueryOptions = {}) =>
        (await client.query(options.name ? { name: options.name, text: sql, values: params } : { text: sql, values: params })).rows as R[],
      exec: async (sql: string) => {
        await client.query(sql);
      },
      transaction: (inner) => inner(txDb),
      close: async () => undefined,
    };
    try {
      await client.query('BEGIN');
      const result = await fn(txDb);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.closeHooks.run();
    await this.pool.end();
  }
}

// Return BIGINT (count(*)) and NUMERIC as JS numbers: our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

/** The pool of a PostgreSQL server (PGlite ignores it). */
export interface PoolSettings {
  poolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  idleTimeoutMs: number;
}

export const DEFAULT_POOL: PoolSettings = { poolSize: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 30_000, idleTimeoutMs: 30_000 };

/** Opens the database: a PostgreSQL server when url is given, else PGlite persisted in dataDir (or in memory). */
export async function openDb(options: {
  url: string | null;
  dataDir: string | null;
  schema?: string;
  pool?: PoolSettings;
  /** PGlite's shared_buffers ("32MB"); ignored for a server. */
  pgliteSharedBuffers?: string;
  /** Where errors of idle connections go (a server restart, a dropped connection). */
  log?: (message: string) => void;
}): Promise<Db> {
  if (options.url) {
    const settings = options.pool ?? DEFAULT_POOL;
    // A schema keeps parallel test runs on one server apart; production uses the default (public).
    const searchPath = options.schema ? `-c search_path=${options.schema},public` : undefined;
    if (options.schema) {
      const admin = new pg.Client({ connectionString: options.url });
      await admin.connect();
      await admin.query(`create schema if not exists ${options.schema}`);
      await admin.end();
    }
    const pool = new pg.Pool({
      connectionString: options.url,
      max: settings.poolSize,
      options: searchPath,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      idleTimeoutMillis: settings.idleTimeoutMs,
      // The server cancels a statement that runs longer, so a stuck query frees its connection.
      ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
    });
    // An idle connection that breaks (server restart, failover, network) emits 'error' on the pool:
    // without a listener that error would end the process. The pool drops the connection and opens
    // a new one for the next query.
    pool.on('error', (error) => (options.log ?? console.error)(`database connection lost: ${error.message}`));
    await pool.query('select 1');
    return new PostgresDb(pool, options.url, options.schema ?? null);
  }
  let location: string | undefined;
  if (options.dataDir) {
    location = path.join(options.dataDir, 'pgdata');
    fs.mkdirSync(location, { recursive: true });
  }
  const sharedBuffers = options.pgliteSharedBuffers ?? DEFAULT_PGLITE_SHARED_BUFFERS;
  if (!PGLITE_SHARED_BUFFERS_FORMAT.test(sharedBuffers))
    throw new Error(`PGLITE_SHARED_BUFFERS must be a size such as 32MB (kB, MB or GB), got "${sharedBuffers}"`);
  const pglite = await PGlite.create(location, {
    extensions: { vector },
    // startParams replace PGlite's own, so theirs come first.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
    // Same number handling as the pg driver below: BIGINT and NUMERIC as JS numbers.
    parsers: { 20: (v: string) => Number.parseInt(v, 10), 1700: (v: string) => Number.parseFloat(v) },
  });
  return new PgliteDb(pglite);
}
