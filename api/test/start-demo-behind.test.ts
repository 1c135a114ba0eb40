import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, type ApiEnvelope, type HealthResult, type HomePageResult } from '@finishline/shared/pure';
import { freePort } from './support/motoServer';
import { startApiInstance, type ApiInstance } from './support/cluster';

/**
 * A first start answers before its demo is made: the API listens at once, says demo 'seeding' on
 * /health while the demo is rendered behind it, and 'ready' once it is done (what `pnpm start` waits
 * for before its ready line). A second start never says 'seeding' (pnpm start would announce a demo
 * on its way). `pnpm start` opens the seed's gate when the builds are done; here the
 * test opens it. The embedded database of a fresh data folder, so it runs in the PGlite pass only.
 */
const onServer = process.env.FINISHLINE_TEST_DB === 'postgres';
const describeEmbedded = onServer ? describe.skip : describe;
if (onServer) process.stdout.write('start-demo-behind: skipped in the PostgreSQL pass: it starts the API on a fresh embedded database.\n');

describeEmbedded('a first start: the API answers first, the demo fills in behind it', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-demo-behind-'));
  const gate = path.join(tmp, 'seed-gate');
  let api: ApiInstance | undefined;

  afterAll(async () => {
    api?.kill();
    await api?.exited;
    fs.rmSync(tmp, { recursive: true, force: true });
  }, 30_000);

  /** The API as `pnpm start` runs it on the test's embedded data folder, seeding behind the gate. */
  const startDemoApi = async (name: string): Promise<ApiInstance> =>
    startApiInstance(name, await freePort(), {
      DATABASE_URL: '',
      DATA_DIR: path.join(tmp, 'data'),
      SEED_ON_START: 'true',
      SEED_PHOTOS: 'small',
      SEED_GATE_FILE: gate,
      // The job work (models) is not what this test is about.
      API_WORKS: 'false',
      LOG_LEVEL: 'warn',
    });
  const get = async <T>(route: string): Promise<T> => ((await (await fetch(`${api!.url}${route}`)).json()) as ApiEnvelope<T>).result;

  it('answers with demo seeding while the gate is closed, then seeds and says ready', async () => {
    api = await startDemoApi('demo-behind');
    expect(await get<HealthResult>(API_ROUTES.health)).toMatchObject({ status: 'ok', database: 'pglite', demo: 'seeding' });
    // Nothing is seeded while the gate stays closed: the shop answers, with no events yet.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await get<HealthResult>(API_ROUTES.health)).demo).toBe('seeding');
    expect((await get<HomePageResult>(API_ROUTES.homePage)).upcoming_event).toEqual([]);

    fs.writeFileSync(gate, 'builds done\n');
    const deadline = Date.now() + 240_000;
    while ((await get<HealthResult>(API_ROUTES.health)).demo === 'seeding') {
      if (Date.now() > deadline) throw new Error(`the demo was not seeded within 240 s:\n${api.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect((await get<HealthResult>(API_ROUTES.health)).demo).toBe('ready');
    const home = await get<HomePageResult>(API_ROUTES.homePage);
    expect(home.upcoming_event.length + Object.keys(home.past_event).length).toBeGreaterThan(0);
  }, 300_000);

  it('a second start on the same data folder never says seeding: its demo is there already', async () => {
    // Stopped as Ctrl-C stops it (the embedded database closed cleanly), then started again.
    process.kill(api!.pid, 'SIGTERM');
    await api!.exited;
    api = await startDemoApi('demo-again');
    const deadline = Date.now() + 60_000;
    let demo = (await get<HealthResult>(API_ROUTES.health)).demo;
    while (demo !== 'ready') {
      expect(demo).toBe('off');
      if (Date.now() > deadline) throw new Error(`the second start did not say ready within 60 s:\n${api.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      demo = (await get<HealthResult>(API_ROUTES.health)).demo;
    }
  }, 120_000);
});
