import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { createUser, findUserByEmail, verifyPassword } from '../src/features/accounts/users';
import { createSession, findSession, revokeSession } from '../src/features/accounts/sessions';
import { clearHits, countHits, limitReached, recordHit } from '../src/security/subjectCounters';
import { readOutbox } from '../src/mail/mailer';

describe('accounts core: users, sessions, rate limits, outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('stores an argon2id hash, never the password, and verifies it', async () => {
    await createUser(t.ctx.db, { firstName: 'Asha', lastName: 'Rao', email: 'Asha@Example.com', password: 'Secret#2026' });
    const row = await findUserByEmail(t.ctx.db, 'asha@example.com');
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    expect(row?.password_hash).not.toContain('Secret#2026');
    expect(await verifyPassword(row!.password_hash, 'Secret#2026')).toBe(true);
    expect(await verifyPassword(row!.password_hash, 'secret#2026')).toBe(false);
  });

  it('keeps only the token hash and refuses a revoked session', async () => {
    const { token } = await createSession(t.ctx.db, null);
    const stored = await t.ctx.db.query<{ token_hash: string }>('select token_hash from sessions');
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    expect(await findSession(t.ctx.db, token)).not.toBeNull();
    await revokeSession(t.ctx.db, token);
    expect(await findSession(t.ctx.db, token)).toBeNull();
  });

  it('counts the hits of a bucket inside its window, reaches the limit and forgets them when cleared', async () => {
    const rule = { bucket: 'test:bucket', limit: 2, windowSeconds: 60 };
    await recordHit(t.ctx.db, rule);
    expect(await limitReached(t.ctx.db, rule)).toBe(false);
    await recordHit(t.ctx.db, rule);
    expect(await limitReached(t.ctx.db, rule)).toBe(true);
    await t.ctx.db.query(`update rate_limit_hits set hit_at = now() - interval '2 minutes' where bucket = 'test:bucket'`);
    expect(await countHits(t.ctx.db, rule)).toBe(0);
    await recordHit(t.ctx.db, rule);
    await clearHits(t.ctx.db, rule);
    expect(await t.ctx.db.query(`select 1 from rate_limit_hits where bucket = 'test:bucket'`)).toHaveLength(0);
  });

  it('writes mail to the outbox folder', async () => {
    await t.ctx.mailer.send({ to: 'a@b.c', subject: 'Hello', text: 'Code 1234', tag: 'test' });
    const mails = await readOutbox(t.ctx.mailer.outboxDir!);
    expect(mails.at(-1)).toMatchObject({ to: 'a@b.c', subject: 'Hello', tag: 'test' });
  });
});
