import type { AppContext } from '../../context';
import { reconcilePendingOrders } from '../../features/payment';
import { cleanStoredOriginals } from '../../features/supply';
import { preparePrintFiles, retryDueRefunds } from '../../features/fulfilment';
import { deliverDueMail } from '../../mail/outbox';
import type { JobQueue } from '../../queue/jobQueue';
import {
  CANARY_WATCH_JOB,
  CLEAN_ORIGINALS_JOB,
  defineScheduledQueues,
  MAIL_JOB,
  PRINT_FILES_JOB,
  PRINT_REFUNDS_JOB,
  PRUNE_JOB,
  RECONCILE_JOB,
} from '../../queue/queues';
import { watchCanaries } from '../../features/releases';
import { pruneExpiredRows } from './prune';

/**
 * The periodic jobs of the API on the one job queue: outbox mail, payment reconciliation, pruning
 * and cleaning the personal metadata out of originals stored before they were cleaned on arrival. Every API process works them; pg-boss sends one job per schedule tick across every
 * process, and the 'stately' policy keeps at most one waiting and one running, so three instances
 * do the work once, not three times.
 */
export { CANARY_WATCH_JOB, CLEAN_ORIGINALS_JOB, MAIL_JOB, PRINT_FILES_JOB, PRINT_REFUNDS_JOB, PRUNE_JOB, RECONCILE_JOB } from '../../queue/queues';

export interface BackgroundJobs {
  stop(): Promise<void>;
}

/** Defines the queues, works them in this process and (schedule: true) sets their schedules. */
export async function startBackgroundJobs(
  ctx: AppContext,
  queue: JobQueue,
  log: (message: string) => void,
  options: { schedule?: boolean } = {},
): Promise<BackgroundJobs> {
  await defineScheduledQueues(queue, ctx.config.mail.retrySeconds);
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
    const pruned = await pruneExpiredRows(ctx.db, {
      ...ctx.config.jobs,
      idempotencyKeyHours: ctx.config.idempotency.keyHours,
      clientReports: ctx.config.releases,
    });
    const total = Object.values(pruned).reduce((sum, n) => sum + n, 0);
    if (total > 0) log(`prune: ${JSON.stringify(pruned)}`);
  });

  await queue.work(CLEAN_ORIGINALS_JOB, 1, async () => {
    const report = await cleanStoredOriginals(ctx, { log });
    if (report.checked > 0) log(`clean originals: ${report.checked} checked, ${report.rewritten} rewritten, ${report.failed} failed, ${report.left} left`);
  });

  await queue.work(PRINT_FILES_JOB, 1, async () => {
    const report = await preparePrintFiles(ctx, { log });
    if (report.ready + report.held + report.left > 0) log(`print files: ${report.ready} ready, ${report.held} held, ${report.left} left for later`);
  });

  await queue.work(PRINT_REFUNDS_JOB, 1, async () => {
    const report = await retryDueRefunds(ctx, (error) => log(`print refunds: ${String(error)}`));
    if (report.refunded + report.pending > 0) log(`print refunds: ${report.refunded} refunded, ${report.pending} still pending`);
  });

  await queue.work(CANARY_WATCH_JOB, 1, async () => {
    await watchCanaries(ctx, log);
  });

  if (options.schedule ?? true) {
    await queue.schedule(MAIL_JOB, ctx.config.jobs.mailSchedule);
    await queue.schedule(RECONCILE_JOB, ctx.config.jobs.reconcileSchedule);
    await queue.schedule(PRUNE_JOB, ctx.config.jobs.pruneSchedule);
    await queue.schedule(CLEAN_ORIGINALS_JOB, ctx.config.jobs.cleanOriginalsSchedule);
    await queue.schedule(PRINT_FILES_JOB, ctx.config.jobs.printFilesSchedule);
    await queue.schedule(PRINT_REFUNDS_JOB, ctx.config.jobs.printRefundsSchedule);
    await queue.schedule(CANARY_WATCH_JOB, ctx.config.releases.watchSchedule);
  }

  return {
    async stop() {
      for (const name of [MAIL_JOB, RECONCILE_JOB, PRUNE_JOB, CLEAN_ORIGINALS_JOB, PRINT_FILES_JOB, PRINT_REFUNDS_JOB, CANARY_WATCH_JOB])
        await queue.offWork(name);
    },
  };
}
