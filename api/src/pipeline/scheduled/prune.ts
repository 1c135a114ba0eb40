import type { Db } from '../../db/db';
import type { JobsConfig, ReleasesConfig } from '../../config/config';

export interface PruneResult {
  sessions: number;
  oneTimeCodes: number;
  paymentCallbacks: number;
  sentMail: number;
  captchas: number;
  rateLimitHits: number;
  idempotencyKeys: number;
  clientErrorSamples: number;
  clientReportCounts: number;
}

async function deleted(db: Db, sql: string, params: unknown[]): Promise<number> {
  const rows = await db.query<{ n: number }>(`with gone as (${sql} returning 1) select count(*)::int as n from gone`, params);
  return rows[0]?.n ?? 0;
}

/**
 * Deletes rows nobody can use any more: sessions and one-time codes some days after they expired (or
 * were revoked / used), payment callbacks past their audit period, delivered outbox mail, spent
 * captchas, old rate-limit hits, Idempotency-Keys past their lifetime, and the shell's error samples (a week)
 * and report counts past their days. Each delete stands alone, so running it twice changes nothing.
 */
export async function pruneExpiredRows(
  db: Db,
  jobs: Pick<JobsConfig, 'expiredRowRetentionDays' | 'paymentCallbackRetentionDays' | 'sentMailRetentionDays'> & {
    idempotencyKeyHours: number;
    /** The shell's reports (features/releases): error samples and the counts per minute. */
    clientReports?: Pick<ReleasesConfig, 'sampleRetentionDays' | 'countRetentionDays'>;
  },
): Promise<PruneResult> {
  const grace = jobs.expiredRowRetentionDays;
  return {
    sessions: await deleted(db, `delete from sessions where expires_at < now() - make_interval(days => $1) or revoked_at < now() - make_interval(days => $1)`, [
      grace,
    ]),
    oneTimeCodes: await deleted(
      db,
      `delete from one_time_codes where expires_at < now() - make_interval(days => $1) or used_at < now() - make_interval(days => $1)`,
      [grace],
    ),
    paymentCallbacks: await deleted(db, `delete from payment_callbacks where received_at < now() - make_interval(days => $1)`, [
      jobs.paymentCallbackRetentionDays,
    ]),
    sentMail: await deleted(db, `delete from mail_outbox where sent_at < now() - make_interval(days => $1)`, [jobs.sentMailRetentionDays]),
    captchas: await deleted(db, `delete from captcha_used where used_at < now() - interval '1 day'`, []),
    rateLimitHits: await deleted(db, `delete from rate_limit_hits where hit_at < now() - interval '1 day'`, []),
    idempotencyKeys: await deleted(db, `delete from idempotency_keys where created_at < now() - make_interval(hours => $1)`, [jobs.idempotencyKeyHours]),
    clientErrorSamples: await deleted(db, `delete from client_error_samples where created_at < now() - make_interval(days => $1)`, [
      jobs.clientReports?.sampleRetentionDays ?? 7,
    ]),
    clientReportCounts: await deleted(db, `delete from client_report_counts where minute < now() - make_interval(days => $1)`, [
      jobs.clientReports?.countRetentionDays ?? 30,
    ]),
  };
}
