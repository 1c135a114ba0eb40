import type { AppContext } from '../context';
import { reconcilePendingOrders } from '../features/payment';
import { cleanStoredOriginals } from '../features/supply';
import { deliverDueMail } from '../mail/outbox';
import type { JobQueue } from '../queue/jobQueue';
import { pruneExpiredRows } from './prune';

/**
 * The periodic jobs of the API on the one job queue: outbox mail, payment reconciliation, pruning
 * and cleaning the personal metadata out of originals stored before they were cleaned on arrival. Every API process works them; pg-boss sends one job per schedule tick across every
 * process, and the 'stately' policy keeps at most one waiting and one running, so three instances
 * do the work once, not three times.
 */
export const MAIL_JOB = 'mail-outbox';
export const RECONCILE_JOB = 'payment-reconcile';
export const PRUNE_JOB = 'prune-expired';
export const CLEAN_ORIGINALS_JOB = 'clean-originals';

export interface BackgroundJobs {
  stop(): Promise<void>;
}

export async function defineBackgroundQueues(ctx: AppContext, queue: JobQueue): Promise<void> {
  // A failed delivery throws, so pg-boss retries the job with backoff; each mail keeps its own next attempt time too.
  await queue.define(MAIL_JOB, { retryLimit: 5, retryDelaySeconds: ctx.config.mail.retrySeconds, retryBackoff: true, expireInSeconds: 600, policy: 'stately' });
  await queue.define(RECONCILE_JOB, { retryLimit: 1, retryDelaySeconds: 30, expireInSeconds: 900, policy: 'stately' });
  await queue.define(PRUNE_JOB, { retryLimit: 1, retryDelaySeconds: 60, expireInSeconds: 900, policy: 'stately' });
  // A run works for at most 4 minutes; the next tick goes on where it stopped.
  await queue.define(CLEAN_ORIGINALS_JOB, { retryLimit: 1, retryDelaySeconds: 60, expireInSeconds: 600, policy: 'stately' });
}

/** Defines the queues, works them in this process and (schedule: true) sets their schedules. */
export async function startBackgroundJobs(
  ctx: AppContext,
  queue: JobQueue,
  log: (message: string) => void,
  options: { schedule?: boolean } = {},
): Promise<BackgroundJobs> {
  await defineBackgroundQueues(ctx, queue);
  const delivery = { db: ctx.db, mailer: ctx.mailer, retrySeconds: ctx.config.mail.retrySeconds };

  await queue.work(MAIL_JOB, 1, async () => {
    const { sent, failed } = await deliverDueMail(delivery);
    if (sent > 0) log(`mail outbox: ${sent} mail(s) sent`);
    if (failed > 0) throw new Error(`mail outbox: ${failed} mail(s) could not be sent; they are tried again later`);
  });
  await queue.work(RECONCILE_JOB, 1, async () => {
    const result = await reconcilePendingOrders(ctx, ctx.config.jobs.reconcile, (error) => log(`payment reconcile: ${String(error)}`));
    if (result.settled > 0 || result.expired > 0) log(`payment reconcile: ${result.checked} checked, ${result.settled} settled, ${result.expired} expired`);
  });
  await queue.work(PRUNE_JOB, 1, async () => {
    const pruned = await pruneExpiredRows(ctx.db, { ...ctx.config.jobs, idempotencyKeyHours: ctx.config.idempotency.keyHours });
    const total = Object.values(pruned).reduce((sum, n) => sum + n, 0);
    if (total > 0) log(`prune: ${JSON.stringify(pruned)}`);
  });

  await queue.work(CLEAN_ORIGINALS_JOB, 1, async () => {
    const report = await cleanStoredOriginals(ctx, { log });
    if (report.checked > 0) log(`clean originals: ${report.checked} checked, ${report.rewritten} rewritten, ${report.failed} failed, ${report.left} left`);
  });

  if (options.schedule ?? true) {
    await queue.schedule(MAIL_JOB, ctx.config.jobs.mailSchedule);
    await queue.schedule(RECONCILE_JOB, ctx.config.jobs.reconcileSchedule);
    await queue.schedule(PRUNE_JOB, ctx.config.jobs.pruneSchedule);
    await queue.schedule(CLEAN_ORIGINALS_JOB, ctx.config.jobs.cleanOriginalsSchedule);
  }

  return {
    async stop() {
      for (const name of [MAIL_JOB, RECONCILE_JOB, PRUNE_JOB, CLEAN_ORIGINALS_JOB]) await queue.offWork(name);
    },
  };
}
