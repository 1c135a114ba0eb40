import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { API_ROUTES, CLIENT_REPORT_LIMITS, type ClientReport } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { loadConfig, REPO_ROOT } from '../src/config/config';
import { watchCanaries } from '../src/features/releases';
import { pruneExpiredRows } from '../src/pipeline/scheduled/prune';
import { readOutbox } from '../src/mail/mailer';

const report = (overrides: Partial<ClientReport> = {}): ClientReport => ({
  kind: 'view',
  remote: 'storefront',
  version: 'v1',
  route: '/products',
  message: '',
  count: 1,
  ...overrides,
});

describe("the shell's reports of its remotes: batches, limits, no personal data, and the canary watch", () => {
  let t: TestApp;
  const post = (reports: unknown, ip?: string) => t.request('POST', API_ROUTES.clientReports, { reports }, ip ? { 'x-forwarded-for': ip } : {});

  beforeAll(async () => {
    t = await startTestApp({ releases: { ...loadConfig().releases, batchesPerIpPerMinute: 100, samplesPerMinute: 3 } });
    // The test's release folder and runtime config, as `pnpm start` writes them in its data folder.
    t.ctx.config.releases = {
      ...t.ctx.config.releases,
      releasesDir: path.join(t.ctx.config.dataDir, 'releases'),
      runtimeConfigFile: path.join(t.ctx.config.dataDir, 'runtime-config.json'),
    };
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);
  beforeEach(async () => {
    await t.ctx.db.query('delete from client_report_counts');
    await t.ctx.db.query('delete from client_error_samples');
  });

  it('counts a batch per remote, version and minute, and keeps its errors as samples', async () => {
    const response = await post([
      report({ count: 3 }),
      report({ version: 'v2', count: 2 }),
      report({ kind: 'render', version: 'v2', message: 'TypeError: x is undefined', count: 2 }),
      report({ kind: 'load', remote: 'account', version: 'initial', route: '/order-history', message: 'Failed to fetch manifest' }),
    ]);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ accepted: 4 });
    await post([report({ kind: 'rejection', version: 'v2', message: 'Error: timeout' }), report({ version: 'v2' })]);
    const counts = await t.ctx.db.query('select remote, version, views, errors from client_report_counts order by remote, version');
    expect(counts).toEqual([
      { remote: 'account', version: 'initial', views: 0, errors: 1 },
      { remote: 'storefront', version: 'v1', views: 3, errors: 0 },
      { remote: 'storefront', version: 'v2', views: 3, errors: 3 },
    ]);
    const minutes = await t.ctx.db.query<{ n: number }>('select count(distinct minute)::int as n from client_report_counts');
    expect(minutes[0].n).toBe(1);
    const samples = await t.ctx.db.query('select remote, version, kind, route, message, count from client_error_samples order by id');
    expect(samples).toEqual([
      { remote: 'storefront', version: 'v2', kind: 'render', route: '/products', message: 'TypeError: x is undefined', count: 2 },
      { remote: 'account', version: 'initial', kind: 'load', route: '/order-history', message: 'Failed to fetch manifest', count: 1 },
      { remote: 'storefront', version: 'v2', kind: 'rejection', route: '/products', message: 'Error: timeout', count: 1 },
    ]);
  });

  it('stores no personal data: emails, phone numbers and other runs of digits, queries and origins are taken out', async () => {
    await post([
      report({
        kind: 'render',
        route: 'http://localhost:3000/order/987654321?email=asha@example.com&phone=9876543210#top',
        message: 'Error: no order for asha.rao@example.com (+91 98765 43210) at https://api.example/api/orders?token=abc123 bib 40021',
      }),
    ]);
    const [sample] = await t.ctx.db.query<{ route: string; message: string }>('select route, message from client_error_samples');
    expect(sample.route).toBe('/order/[number]');
    expect(sample.message).toBe('Error: no order for [email] ([number]) at https://api.example/api/orders bib [number]');
    const everything =
      JSON.stringify(await t.ctx.db.query('select * from client_error_samples')) + JSON.stringify(await t.ctx.db.query('select * from client_report_counts'));
    for (const personal of ['asha', 'example.com', '9876543210', '98765', 'token', '40021', '987654321']) expect(everything).not.toContain(personal);
  });

  it('refuses a batch that is too big or malformed with a clear message, and stores nothing of it', async () => {
    const cases: Array<[unknown, string]> = [
      [Array.from({ length: CLIENT_REPORT_LIMITS.batchSize + 1 }, () => report()), `Please send at most ${CLIENT_REPORT_LIMITS.batchSize} reports at once.`],
      [[], 'Please send at least one report.'],
      [[report({ remote: 'shop' as never })], 'Unknown remote.'],
      [[report({ version: '../../etc' })], 'Unknown version.'],
      [[report({ kind: 'crash' as never })], 'Unknown report kind.'],
      [[report({ count: 5000 })], `A count is at most ${CLIENT_REPORT_LIMITS.countPerReport}.`],
    ];
    for (const [reports, message] of cases) {
      const response = await post(reports);
      expect({ status: response.status, message: response.body.Message }).toEqual({ status: 400, message });
    }
    expect(await t.ctx.db.query('select * from client_report_counts')).toEqual([]);
  });

  it('keeps a few samples per release and minute while the counts go on, and limits the batches of one address', async () => {
    const limited = await startTestApp({ releases: { ...loadConfig().releases, batchesPerIpPerMinute: 3, samplesPerMinute: 2 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await limited.request('POST', API_ROUTES.clientReports, { reports: [report({ kind: 'render', message: `Error ${i}` })] });
        statuses.push(response.status);
        if (response.status === 429) expect(response.body.Message).toBe('Too many reports from this browser. Please try again in a minute.');
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await limited.ctx.db.query('select views, errors from client_report_counts')).toEqual([{ views: 0, errors: 3 }]);
      expect(await limited.ctx.db.query('select message from client_error_samples order by id')).toEqual([{ message: 'Error 0' }, { message: 'Error 1' }]);
    } finally {
      await limited.close();
    }
  });

  it('keeps samples for a week: the prune job removes older ones', async () => {
    await post([report({ kind: 'render', message: 'old' })]);
    await post([report({ kind: 'render', message: 'recent' })]);
    await t.ctx.db.query(`update client_error_samples set created_at = now() - interval '8 days' where message = 'old'`);
    const pruned = await pruneExpiredRows(t.ctx.db, { ...t.ctx.config.jobs, idempotencyKeyHours: 24, clientReports: t.ctx.config.releases });
    expect(pruned.clientErrorSamples).toBe(1);
    expect(await t.ctx.db.query('select message from client_error_samples')).toEqual([{ message: 'recent' }]);
  });

  describe('the canary watch', () => {
    type Script = { release(remote: string, options: object): { version: string }; describeReleases(options: object): string };
    let script: Script;
    let env: Record<string, string>;
    const runtimeConfig = () => JSON.parse(fs.readFileSync(env.RUNTIME_CONFIG_FILE, 'utf8'));

    function built(marker: string): string {
      const folder = path.join(t.ctx.config.dataDir, `build-${marker}-${Math.random()}`);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(
        path.join(folder, 'mf-manifest.json'),
        JSON.stringify({ marker, shared: [{ name: '@finishline/shared/runtime', version: '1.4.0', requiredVersion: '^1.4.0' }] }),
      );
      return folder;
    }

    beforeAll(async () => {
      script = (await import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'releases.mjs')).href)) as Script;
      env = { RELEASES_DIR: t.ctx.config.releases.releasesDir, RUNTIME_CONFIG_FILE: t.ctx.config.releases.runtimeConfigFile };
    });
    beforeEach(() => {
      fs.rmSync(env.RELEASES_DIR, { recursive: true, force: true });
      fs.writeFileSync(env.RUNTIME_CONFIG_FILE, JSON.stringify({ apiBaseUrl: t.url, remotes: { storefront: 'http://localhost:3001/mf-manifest.json' } }));
      script.release('storefront', { from: built('one'), env });
      script.release('storefront', { from: built('two'), env, canary: { share: 50, maxErrorRate: 10, minViews: 10 } });
    });

    it('leaves a canary alone below its minimum of views, or while its error rate is near the current one', async () => {
      await post([report({ version: 'v2', count: 9 }), report({ kind: 'render', version: 'v2', count: 9 })]);
      expect((await watchCanaries(t.ctx))[0]).toMatchObject({
        remote: 'storefront',
        canary: 'v2',
        rolledBack: false,
        rates: { canary: { views: 9, errors: 9 } },
      });
      await post([report({ version: 'v2', count: 91 }), report({ version: 'v1', count: 100 }), report({ kind: 'render', version: 'v1', count: 1 })]);
      // 9 errors per 100 views against 1: past by 8, under the threshold of 10.
      expect((await watchCanaries(t.ctx))[0]).toMatchObject({
        rolledBack: false,
        rates: { canary: { views: 100, errors: 9 }, current: { views: 100, errors: 1 } },
      });
      expect(runtimeConfig().releases.storefront.canary).toMatchObject({ version: 'v2', share: 50 });
    });

    it('rolls a canary past its threshold back by itself: runtime config rewritten, the team mailed, a line in pnpm releases', async () => {
      await post([report({ version: 'v2', count: 20 }), report({ kind: 'render', version: 'v2', count: 12 }), report({ version: 'v1', count: 40 })]);
      // The batch with errors may have started the watch already (it runs right after one); either way it has run once this ends.
      await watchCanaries(t.ctx);
      expect(runtimeConfig().releases.storefront).toEqual({ version: 'v1' });
      expect(runtimeConfig().remotes.storefront).toBe('http://localhost:3001/releases/v1/mf-manifest.json');
      const listed = script.describeReleases({ env });
      expect(listed).toContain('canary v2 rolled back: by itself: 60.0 errors per 100 page views (12 in 20) against 0.0 for v1 (0 in 40)');
      expect(listed).toMatch(/\* v1 .*0 errors in 40 page views \(0\.0 per 100\) in the last 60 min/);
      const mails = (await readOutbox(t.ctx.mailer.outboxDir!)).filter((mail) => mail.tag === 'canary_rollback');
      expect(mails).toHaveLength(1);
      expect(mails[0].to).toBe(t.ctx.config.releases.alertAddress);
      expect(mails[0].subject).toBe('Finishline: the storefront canary v2 rolled itself back');
      // Judged again: nothing more to roll back, no second mail.
      expect(await watchCanaries(t.ctx)).toEqual([]);
      expect((await readOutbox(t.ctx.mailer.outboxDir!)).filter((mail) => mail.tag === 'canary_rollback')).toHaveLength(1);
    });
  });
});
