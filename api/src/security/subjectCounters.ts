import type { Db } from '../db/db';
import type { SubjectRule } from './limits';

/**
 * Counters of the per-account, per-BIB and per-email rules (security/limits.ts). Kept in the
 * database so every API process shares them; what to do past a limit is the caller's rule.
 */

/** Hits of the rule's bucket inside its window. */
export async function countHits(db: Db, rule: SubjectRule): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from rate_limit_hits where bucket = $1 and hit_at > now() - make_interval(secs => $2)`,
    [rule.bucket, rule.windowSeconds],
  );
  return rows[0]?.n ?? 0;
}

/** True once the window holds the rule's limit of hits. */
export async function limitReached(db: Db, rule: SubjectRule): Promise<boolean> {
  return (await countHits(db, rule)) >= rule.limit;
}

export async function recordHit(db: Db, rule: SubjectRule): Promise<void> {
  await db.query('insert into rate_limit_hits (bucket) values ($1)', [rule.bucket]);
  // Old hits are pruned now and then rather than on every call.
  if (Math.random() < 0.01) await db.query(`delete from rate_limit_hits where hit_at < now() - interval '1 day'`);
}

/** Forgets the bucket's hits (a successful sign-in or password reset clears the account's failures). */
export async function clearHits(db: Pick<Db, 'query'>, rule: SubjectRule): Promise<void> {
  await db.query('delete from rate_limit_hits where bucket = $1', [rule.bucket]);
}
