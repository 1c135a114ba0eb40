import { PgBoss, fromPglite } from 'pg-boss';
import type { Db } from '../db/db';

/**
 * The one durable job queue of the API: pg-boss in the same database (PGlite included, through its
 * adapter). Several API processes on one PostgreSQL share it: a job is claimed by one of them, an
 * active job whose process died expires and is claimed again, and a job that throws is retried
 * retryLimit times before it is recorded as failed with its error. On a queue with heartbeatSeconds
 * the worker refreshes its jobs' heartbeat every half of it, and a job whose heartbeat stopped (its
 * process died) is retried after that time instead of after its whole expiry.
 */

/** How often pg-boss looks for expired jobs and stopped heartbeats when the caller does not say (the API passes JOB_MONITOR_SECONDS). */
const DEFAULT_MONITOR_SECONDS = 10;

export interface QueueDefinition {
  /** Retries after the first attempt (so retryLimit + 1 attempts in all). */
  retryLimit: number;
  retryDelaySeconds: number;
  /** An attempt that runs longer (its process died or hung) is given up and retried. */
  expireInSeconds: number;
  /**
   * The worker refreshes each running job's heartbeat every half of this (pg-boss does it while the
   * handler runs); a job not refreshed for this long (its process died) is failed and retried.
   * Whole seconds, at least 10. None: only expireInSeconds frees the job of a dead process.
   */
  heartbeatSeconds?: number;
  /** Each retry waits twice as long as the one before. */
  retryBackoff?: boolean;
  /**
   * 'stately': at most one job waiting and one running across every process (periodic jobs: a
   * second request while one waits is dropped). Default 'standard'.
   */
  policy?: 'standard' | 'stately';
}

export interface JobAttempt {
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** True when a failure of this attempt is final (no retry follows). */
  lastAttempt: boolean;
}

export type JobHandler<T> = (data: T, attempt: JobAttempt) => Promise<void>;

export interface JobQueue {
  /**
   * Creates the queue if it does not exist yet (every process that sends or works it calls this); an
   * existing queue whose retry, expiry or heartbeat settings differ is updated to these (its policy stays).
   */
  define(name: string, definition: QueueDefinition): Promise<void>;
  send(name: string, data: object, options?: { priority?: number; singletonKey?: string }): Promise<string | null>;
  sendMany(name: string, items: object[], options?: { priority?: number }): Promise<void>;
  /**
   * Runs handler for jobs of name in this process, up to concurrency at a time. A worker asks for
   * its next job pollSeconds (at least 0.5; default 2) after it asked for the last, so a job shorter
   * than that is followed by a rest even with jobs waiting.
   */
  work<T>(name: string, concurrency: number, handler: JobHandler<T>, options?: { pollSeconds?: number }): Promise<void>;
  offWork(name: string): Promise<void>;
  /** Sends a job of name on every tick of cron (minute resolution); one job per tick across every process. */
  schedule(name: string, cron: string): Promise<void>;
  /** Jobs of name created, retrying or active (not yet completed or failed). */
  pendingCount(name: string): Promise<number>;
  /**
   * The table of jobs, schema-qualified, for SQL that asks whether a job still lives (state created,
   * retry or active): a job whose worker died stops being active once its heartbeat or expiry runs out.
   */
  readonly jobTable: string;
  readonly boss: PgBoss;
}

const definitions = new Map<string, QueueDefinition>();

class BossQueue implements JobQueue {
  constructor(
    readonly boss: PgBoss,
    private readonly db: Db,
    private readonly schema: string,
  ) {}

  get jobTable(): string {
    return `${this.schema}.job`;
  }

  async define(name: string, definition: QueueDefinition): Promise<void> {
    definitions.set(name, definition);
    const options = {
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      expireInSeconds: definition.expireInSeconds,
      retryBackoff: definition.retryBackoff ?? false,
      // pg-boss refuses the key present but undefined.
      ...(definition.heartbeatSeconds === undefined ? {} : { heartbeatSeconds: definition.heartbeatSeconds }),
      // Workers are woken by NOTIFY as soon as a job is sent; polling stays as the floor.
      notify: true,
    };
    const existing = await this.boss.getQueue(name);
    if (!existing) {
      await this.boss.createQueue(name, { ...options, policy: definition.policy ?? 'standard' }).catch(async (error: unknown) => {
        // Another process created it at the same moment: that one stands.
        if (!(await this.boss.getQueue(name))) throw error;
      });
      return;
    }
    // A queue made by an earlier release (e.g. before heartbeats) takes this release's settings; new
    // jobs carry them, jobs already sent keep theirs.
    const heartbeatSeconds = definition.heartbeatSeconds ?? null;
    const differs =
      existing.retryLimit !== options.retryLimit ||
      existing.retryDelay !== options.retryDelay ||
      existing.expireInSeconds !== options.expireInSeconds ||
      Boolean(existing.retryBackoff) !== options.retryBackoff ||
      (existing.heartbeatSeconds ?? null) !== heartbeatSeconds;
    if (differs) {
      await this.boss.updateQueue(name, {
        retryLimit: options.retryLimit,
        retryDelay: options.retryDelay,
        expireInSeconds: options.expireInSeconds,
        retryBackoff: options.retryBackoff,
        heartbeatSeconds,
      });
    }
  }

  async send(name: string, data: object, options: { priority?: number; singletonKey?: string } = {}): Promise<string | null> {
    return this.boss.send(name, data, options);
  }

  async sendMany(name: string, items: object[], options: { priority?: number } = {}): Promise<void> {
    if (items.length === 0) return;
    await this.boss.insert(
      name,
      items.map((data) => ({ data, ...(options.priority === undefined ? {} : { priority: options.priority }) })),
    );
  }

  async work<T>(name: string, concurrency: number, handler: JobHandler<T>, options: { pollSeconds?: number } = {}): Promise<void> {
    const retryLimit = definitions.get(name)?.retryLimit ?? 0;
    const poll = Math.max(0.5, options.pollSeconds ?? 2); // pg-boss's floor
    await this.boss.work<T>(
      name,
      { batchSize: 1, localConcurrency: concurrency, pollingIntervalSeconds: poll, notifyPollingIntervalSeconds: poll },
      async (jobs) => {
        for (const job of jobs) {
          await handler(job.data, { id: job.id, retryCount: job.retryCount, lastAttempt: job.retryCount >= retryLimit });
        }
      },
    );
  }

  async schedule(name: string, cron: string): Promise<void> {
    await this.boss.schedule(name, cron);
  }

  async offWork(name: string): Promise<void> {
    await this.boss.offWork(name, { wait: true });
  }

  async pendingCount(name: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `select count(*)::int as n from ${this.jobTable} where name = $1 and state in ('created', 'retry', 'active')`,
      [name],
    );
    return rows[0]?.n ?? 0;
  }
}

interface Shared {
  queue: Promise<JobQueue>;
  users: number;
}
const shared = new WeakMap<Db, Shared>();

/** The schema pg-boss keeps its tables in for this database. */
export function jobQueueSchema(db: Db): string {
  const native = db.native;
  // Parallel test runs on one server keep their own schema; so does their queue.
  return native?.kind === 'postgres' && native.schema ? `${native.schema}_pgboss` : 'pgboss';
}

export interface JobQueueOptions {
  /**
   * How often pg-boss fails expired jobs and jobs whose heartbeat stopped (and counts its queues).
   * One process does it per interval, whichever claims it first.
   */
  monitorSeconds?: number;
}

async function startBoss(db: Db, log: (message: string) => void, options: JobQueueOptions): Promise<JobQueue> {
  const native = db.native;
  if (!native) throw new Error('The job queue needs a database opened by openDb.');
  const schema = jobQueueSchema(db);
  // The supervisor's pass runs the monitor, so both run at this interval.
  const monitorSeconds = options.monitorSeconds ?? DEFAULT_MONITOR_SECONDS;
  const supervision = { monitorIntervalSeconds: monitorSeconds, superviseIntervalSeconds: monitorSeconds };
  const boss =
    native.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(native.pglite), backend: 'pglite', useListenNotify: true, registerInstance: false, schema, ...supervision })
      : new PgBoss({ connectionString: native.url, schema, max: 4, useListenNotify: true, registerInstance: false, ...supervision });
  boss.on('error', (error: Error) => log(`job queue: ${error.message}`));
  await boss.start();
  return new BossQueue(boss, db, schema);
}

/**
 * The job queue of this database, started on first use and shared by everything in this process
 * that uses the same Db. Each user calls release() when done; the last one stops pg-boss (and the
 * database closing stops it too). options apply when this call starts it.
 */
export async function acquireJobQueue(
  db: Db,
  log: (message: string) => void = () => undefined,
  options: JobQueueOptions = {},
): Promise<{ queue: JobQueue; release: () => Promise<void> }> {
  let entry = shared.get(db);
  if (!entry) {
    const created: Shared = { queue: startBoss(db, log, options), users: 0 };
    entry = created;
    shared.set(db, created);
    created.queue.catch(() => shared.delete(db));
    db.beforeClose?.(async () => {
      if (shared.get(db) !== created) return;
      shared.delete(db);
      await stopBoss(created);
    });
  }
  const current = entry;
  current.users += 1;
  const queue = await current.queue;
  let released = false;
  return {
    queue,
    release: async () => {
      if (released) return;
      released = true;
      current.users -= 1;
      if (current.users === 0 && shared.get(db) === current) {
        shared.delete(db);
        await stopBoss(current);
      }
    },
  };
}

async function stopBoss(entry: Shared): Promise<void> {
  const queue = await entry.queue.catch(() => null);
  // pg-boss closes only a pool it made itself; the PGlite instance stays the caller's to close.
  await queue?.boss.stop({ graceful: true, timeout: 10_000, close: true });
}
