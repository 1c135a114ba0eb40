import type { Db } from '../db/db';
import type { MailMessage, Mailer } from './mailer';

/**
 * The mail outbox table (migration 800): mail that must not be lost is written in the same
 * transaction as the change that causes it, then delivered by deliverMail (right after the commit)
 * or by the queue's mail job (deliverDueMail) when that first attempt failed or never ran. A row is
 * claimed for a while before its send, so two processes never send it at once; a process that dies
 * mid-send leaves a claim that runs out, and the mail is sent again later (at least once, and once
 * when nothing crashes between the send and its record).
 */

/** How long one delivery may hold its row before another process may take it. */
const CLAIM_SECONDS = 120;
/** Longest wait between two attempts of one mail. */
const MAX_RETRY_SECONDS = 3600;

export interface OutboxRow extends Record<string, unknown> {
  id: number;
  dedupe_key: string;
  tag: string;
  to_address: string;
  subject: string;
  body_text: string;
  order_id: number | null;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
}

/**
 * Writes a mail into the outbox (inside the caller's transaction). The same dedupeKey written twice
 * keeps the first mail: returns its id the first time, null after.
 */
export async function enqueueMail(db: Db, message: MailMessage, options: { dedupeKey: string; orderId?: number | null }): Promise<number | null> {
  const rows = await db.query<{ id: number }>(
    `insert into mail_outbox (dedupe_key, tag, to_address, subject, body_text, order_id) values ($1, $2, $3, $4, $5, $6)
     on conflict (dedupe_key) do nothing returning id`,
    [options.dedupeKey, message.tag, message.to, message.subject, message.text, options.orderId ?? null],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

export interface OutboxDelivery {
  db: Db;
  mailer: Mailer;
  /** Wait after the first failed attempt; each further failure doubles it (up to an hour). */
  retrySeconds: number;
}

async function send(delivery: OutboxDelivery, row: OutboxRow): Promise<boolean> {
  try {
    await delivery.mailer.send({ to: row.to_address, subject: row.subject, text: row.body_text, tag: row.tag });
  } catch (error) {
    const wait = Math.min(MAX_RETRY_SECONDS, delivery.retrySeconds * 2 ** Math.max(0, row.attempts - 1));
    await delivery.db.query(`update mail_outbox set claimed_until = null, last_error = $2, next_attempt_at = now() + make_interval(secs => $3) where id = $1`, [
      row.id,
      String((error as Error)?.message ?? error).slice(0, 500),
      wait,
    ]);
    return false;
  }
  await delivery.db.query('update mail_outbox set sent_at = now(), claimed_until = null, last_error = null where id = $1', [row.id]);
  return true;
}

/** Delivers one mail now (right after its transaction committed). False when it was not sent: the mail job tries again. */
export async function deliverMail(delivery: OutboxDelivery, id: number): Promise<boolean> {
  const rows = await delivery.db.query<OutboxRow>(
    `update mail_outbox set claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
      where id = $1 and sent_at is null and (claimed_until is null or claimed_until < now())
      returning *`,
    [id, CLAIM_SECONDS],
  );
  return rows[0] ? send(delivery, rows[0]) : false;
}

/**
 * Sends one mail written to the outbox right away, when the mail server answers; a failure is only
 * logged, since the mail job retries it. For the answers a person waits for (a dispatch, a refund).
 */
export async function deliverSoon(
  ctx: { db: Db; mailer: Mailer; config: { mail: { retrySeconds: number } } },
  mailId: number | null,
  log: (error: unknown) => void,
): Promise<void> {
  if (mailId === null) return;
  try {
    await deliverMail({ db: ctx.db, mailer: ctx.mailer, retrySeconds: ctx.config.mail.retrySeconds }, mailId);
  } catch (error) {
    log(error);
  }
}

/**
 * Delivers every mail whose time has come, oldest first, in batches claimed with SKIP LOCKED so
 * that several processes share the work without sending a mail twice.
 */
export async function deliverDueMail(delivery: OutboxDelivery, batchSize = 50): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for (;;) {
    const batch = await delivery.db.query<OutboxRow>(
      `update mail_outbox set claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
        where id in (select id from mail_outbox
                      where sent_at is null and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
                      order by id limit $1 for update skip locked)
        returning *`,
      [batchSize, CLAIM_SECONDS],
    );
    for (const row of batch.sort((a, b) => Number(a.id) - Number(b.id))) {
      if (await send(delivery, row)) sent += 1;
      else failed += 1;
    }
    // A failed mail waits for its next attempt time, so the loop ends once a batch sent nothing new.
    if (batch.length < batchSize || failed > 0) return { sent, failed };
  }
}
