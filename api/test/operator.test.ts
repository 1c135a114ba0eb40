import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type OrganiserRoleResult, type User } from '@finishline/shared/pure';
import { closeAll, startTestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS, type TestApp } from './support/testApp';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { setRole } from '../src/features/accounts';
import { ADMIN_USAGE, runAdmin } from '../src/cli/admin';
import { loadConfig } from '../src/config/config';
import { openDb } from '../src/db/db';
import { migrate } from '../src/db/migrate';

const as = (token: string) => ({ authorization: `Bearer ${token}` });

describe('operator: who becomes an organiser', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp();
    const db = t.ctx.db;
    const ids = {
      operator: await createUser(db, { firstName: 'Opal', lastName: 'Operator', email: 'opal@example.com', password: 'Finish@2026' }),
      organiser: await createUser(db, { firstName: 'Olga', lastName: 'Org', email: 'olga@example.com', password: 'Finish@2026', isOrganiser: true }),
      runner: await createUser(db, { firstName: 'Nina', lastName: 'Newrace', email: 'nina@example.com', password: 'Finish@2026' }),
    };
    await setRole(db, 'opal@example.com', 'operator', true, { userId: null, via: 'cli' });
    for (const [who, id] of Object.entries(ids)) tokens[who] = (await createSession(db, id)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('an operator grants the organiser role by API; the account then holds it, recorded with who and how', async () => {
    const res = await t.request<OrganiserRoleResult>(
      'POST',
      API_ROUTES.operatorOrganiserRole,
      { email: 'NINA@example.com', grant: true },
      as(tokens.operator!),
    );
    expect(res.body).toMatchObject({ StatusCode: 200, Message: 'The account is now an organiser.', result: { email: 'nina@example.com', isOrganiser: true } });
    const me = await t.request<User>('GET', API_ROUTES.currentUser, undefined, as(tokens.runner!));
    expect(me.body.result.isOrganiser).toBe(true);
    const log = await t.ctx.db.query<{ role: string; granted: boolean; via: string; changed_by: number }>(
      `select c.role, c.granted, c.via, c.changed_by from role_changes c join users u on u.id = c.user_id where u.email = 'nina@example.com'`,
    );
    expect(log).toEqual([{ role: 'organiser', granted: true, via: 'api', changed_by: expect.any(Number) }]);
    // Granting again changes nothing and records nothing.
    await t.request('POST', API_ROUTES.operatorOrganiserRole, { email: 'nina@example.com', grant: true }, as(tokens.operator!));
    expect(await t.ctx.db.query(`select 1 from role_changes c join users u on u.id = c.user_id where u.email = 'nina@example.com'`)).toHaveLength(1);
  });

  it('and takes it back', async () => {
    const res = await t.request<OrganiserRoleResult>(
      'POST',
      API_ROUTES.operatorOrganiserRole,
      { email: 'nina@example.com', grant: false },
      as(tokens.operator!),
    );
    expect(res.body).toMatchObject({ Message: 'The account is no longer an organiser.', result: { isOrganiser: false } });
  });

  it('an unknown email is a clear 404; bad input is a 400 with the field’s message', async () => {
    const res = await t.request('POST', API_ROUTES.operatorOrganiserRole, { email: 'nobody@example.com', grant: true }, as(tokens.operator!));
    expect(res).toMatchObject({ status: 404, body: { Message: 'There is no account with this email. Ask them to sign up first, then grant the role.' } });
    expect((await t.request('POST', API_ROUTES.operatorOrganiserRole, { email: 'x', grant: true }, as(tokens.operator!))).body.Message).toBe(
      'Please enter a valid email.',
    );
  });

  it('an organiser, a runner or a visitor cannot grant it', async () => {
    expect((await t.request('POST', API_ROUTES.operatorOrganiserRole, { email: 'nina@example.com', grant: true }, as(tokens.organiser!))).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.operatorOrganiserRole, { email: 'nina@example.com', grant: true }, as(tokens.runner!))).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.operatorOrganiserRole, { email: 'nina@example.com', grant: true })).status).toBe(401);
  });
});

describe('pnpm admin grant-organiser <email> (the command line on the server)', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-admin-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('grants the role of an existing account in the configured database and says so; refuses an unknown email and bad usage', async () => {
    const config = loadConfig({ dataDir: dir, databaseUrl: null });
    const db = await openDb({ url: null, dataDir: dir });
    await migrate(db);
    await createUser(db, { firstName: 'Rohan', lastName: 'Desai', email: 'rohan@example.com', password: 'Finish@2026' });
    await db.close();

    expect(await runAdmin(['grant-organiser', 'Rohan@example.com'], config)).toEqual({ code: 0, out: 'rohan@example.com (account 1) is now an organiser.' });
    expect(await runAdmin(['grant-organiser', 'ghost@example.com'], config)).toEqual({
      code: 1,
      out: 'There is no account with this email. Ask them to sign up first, then grant the role.',
    });
    expect(await runAdmin(['make-organiser'], config)).toEqual({ code: 2, out: ADMIN_USAGE });

    const again = await openDb({ url: null, dataDir: dir });
    try {
      expect(await again.query('select is_organiser from users where email = $1', ['rohan@example.com'])).toEqual([{ is_organiser: true }]);
      expect(await again.query('select role, granted, via, changed_by from role_changes')).toEqual([
        { role: 'organiser', granted: true, via: 'cli', changed_by: null },
      ]);
    } finally {
      await again.close();
    }
  });
});
