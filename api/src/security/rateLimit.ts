import type { Db } from '../db/db';
import { tooManyRequests } from '../http/envelope';

export interface RateLimitRule {
  /** What is limited, e.g. `signin:ip:1.2.3.4` or `otp:email:a@b.c`. */
  bucket: string;
  limit: number;
  windowSeconds: number;
  message: string;
}

/**
 * Counts a hit and refuses (429 with the rule's message) once the window holds `limit` hits.
 * Kept in the database so several API processes share the same counters.
 */
export async function hitRateLimit(db: Db, rule: RateLimitRule): Promise<void> {
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from rate_limit_hits where bucket = $1 and hit_at > now() - make_interval(secs => $2)`,
    [rule.bucket, rule.windowSeconds],
  );
  if ((rows[0]?.n ?? 0) >= rule.limit) throw tooManyRequests(rule.message);
  await db.query('insert into rate_limit_hits (bucket) values ($1)', [rule.bucket]);
  // Old hits are pruned now and then rather than on every call.
  if (Math.random() < 0.01) await db.query(`delete from rate_limit_hits where hit_at < now() - interval '1 day'`);
}

/** Applies several rules (e.g. per IP and per account); the first exhausted one refuses. */
export async function hitRateLimits(db: Db, rules: RateLimitRule[]): Promise<void> {
  for (const rule of rules) await hitRateLimit(db, rule);
}

/**
 * Refuses (429) when any rule's window is already full, without counting a hit. Sign-in checks
 * first and counts only failures, so a right password after too many wrong ones is still refused.
 */
export async function assertUnderRateLimits(db: Db, rules: RateLimitRule[]): Promise<void> {
  for (const rule of rules) {
    const rows = await db.query<{ n: number }>(
      `select count(*)::int as n from rate_limit_hits where bucket = $1 and hit_at > now() - make_interval(secs => $2)`,
      [rule.bucket, rule.windowSeconds],
    );
    if ((rows[0]?.n ?? 0) >= rule.limit) throw tooManyRequests(rule.message);
  }
}

/** Counts one hit in each rule's bucket without refusing (the failure that follows a check). */
export async function recordRateLimitHits(db: Db, rules: RateLimitRule[]): Promise<void> {
  for (const rule of rules) await db.query('insert into rate_limit_hits (bucket) values ($1)', [rule.bucket]);
}
