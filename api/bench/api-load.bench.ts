/**
 * Home, event list and cart bill under load: `pnpm bench:api` (root or api).
 *
 * Two targets (BENCH_TARGETS, default `postgres,pglite`), both holding the demo seed (the events,
 * home images, achievements, print catalogue and sponsor offer the demo ships; BENCH_SEED=full
 * renders all its photos too, `small` by default: the three routes read the catalogue, not the
 * photo count):
 * - postgres: a database of its own on a PostgreSQL server (BENCH_DATABASE_URL, default
 *   postgres://postgres@127.0.0.1:5432/test, dropped afterwards);
 * - pglite: the embedded database in a temporary folder.
 *
 * The real API (src/main.ts) runs in a process of its own with the production defaults, no seed on
 * start and no background workers; this process loads it with autocannon, 50 connections
 * (BENCH_CONNECTIONS) for BENCH_SECONDS (10) per run, BENCH_RUNS (3) runs per route after a 3 s
 * warm-up, one route at a time: GET /api/home, GET /api/events/names (the event list every search
 * box loads) and POST /api/cart/details with a cart of four photos, a print and the sponsor offer.
 * Before loading, one request of each goes through the API in this process on a recording
 * database: the statements it runs are counted and printed. Printed per route: statements, req/s,
 * p50 and p95 (from every response's latency), medians of the runs, and the machine's load average.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { API_ROUTES, type CartRequest } from '@finishline/shared/pure';
import { loadConfig } from '../src/config/config';
import { createContextWith } from '../src/createContext';
import { openDb, recordingDb, type Db, type RecordedStatement } from '../src/db/db';
import { buildApp } from '../src/app';
import { seedDemo } from '../src/seed/seedDemo';
import { load, median, percentile, runBench, startApi, withBenchDatabase } from './benchSupport';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TARGETS = (process.env.BENCH_TARGETS ?? 'postgres,pglite').split(',').map((t) => t.trim());
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SEED = process.env.BENCH_SEED === 'full' ? 'full' : 'small';

interface Route {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

interface LoadFigures {
  rps: number;
  p50: number;
  p95: number;
}

/** The demo's cart: four photos of the BIB with most photos in an event with a sponsor offer, a print of one, the offer. */
async function demoCart(db: Db): Promise<CartRequest> {
  const [found] = await db.query<{ event_id: number; offer_id: number; bib: string; photo_ids: number[]; print_id: number }>(
    `select e.id as event_id, s.id as offer_id, b.bib_number as bib,
            (array_agg(p.id order by p.seq, p.id))[1:4] as photo_ids,
            (select min(id) from print_products) as print_id
       from events e
       join sponsor_offers s on s.event_id = e.id and s.active
       join photo_bibs b on b.event_id = e.id
       join photos p on p.id = b.photo_id and p.kind = 'image'
      where e.published and not e.privacy_check
      group by e.id, s.id, b.bib_number
      order by count(*) desc, b.bib_number
      limit 1`,
  );
  if (!found || found.photo_ids.length < 4) throw new Error('the demo seed has no event with a sponsor offer and a BIB of four photos');
  const [first] = found.photo_ids;
  return {
    eventId: found.event_id,
    bibNumber: found.bib,
    searchKind: 'bib',
    packageKind: null,
    lines: [
      ...found.photo_ids.map((id) => ({ type: 'download' as const, category: 'image' as const, id })),
      { type: 'print', category: 'image', id: first!, printProductId: found.print_id },
    ],
    sponsorofferID: found.offer_id,
    discountedPhotoIds: found.photo_ids.slice(0, 2),
  };
}

function routesOf(cart: CartRequest): Route[] {
  return [
    { label: 'home', method: 'GET', path: API_ROUTES.homePage },
    { label: 'event list', method: 'GET', path: API_ROUTES.eventNames },
    { label: 'cart bill', method: 'POST', path: API_ROUTES.cartDetails, body: JSON.stringify(cart) },
  ];
}

/** The statements one request of each route runs (through the API in this process, after a warm-up request). */
async function countStatements(db: Db, tmp: string, routes: Route[]): Promise<Map<string, RecordedStatement[]>> {
  const seen: RecordedStatement[] = [];
  const config = loadConfig({ dataDir: tmp, storage: { kind: 'local', dir: path.join(tmp, 'objects') }, seedOnStart: false, logLevel: 'warn' });
  const ctx = await createContextWith(config, recordingDb(db, seen));
  const app = await buildApp(ctx, { logger: false });
  const counted = new Map<string, RecordedStatement[]>();
  try {
    for (const route of routes) {
      const call = () =>
        app.inject({ method: route.method, url: route.path, headers: { 'content-type': 'application/json' }, ...(route.body ? { payload: route.body } : {}) });
      await call();
      seen.length = 0;
      const answer = await call();
      if (answer.statusCode !== 200) throw new Error(`${route.label} answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
      counted.set(route.label, seen.splice(0));
    }
  } finally {
    await app.close();
  }
  return counted;
}

async function loadRoute(url: string, route: Route, seconds: number): Promise<LoadFigures> {
  const latencies: number[] = [];
  const options = {
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: route.method, path: route.path, ...(route.body ? { headers: { 'content-type': 'application/json' }, body: route.body } : {}) }],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    // autocannon's summary has no p95: every response's latency is kept instead.
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  if (result.non2xx > 0) throw new Error(`${route.label}: ${result.non2xx} answers were not 200`);
  if (result.errors > 0) console.log(`  (${route.label}: ${result.errors} requests got no answer within 10 s, ${result.timeouts} of them timeouts)`);
  latencies.sort((a, b) => a - b);
  return { rps: result.requests.average, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

async function loadApi(url: string, routes: Route[], counted: Map<string, RecordedStatement[]>): Promise<void> {
  console.log(`load: ${CONNECTIONS} connections, ${SECONDS} s per run, ${RUNS} runs per route; ${os.cpus().length} cores, load ${load()}`);
  for (const route of routes) {
    await loadRoute(url, route, 3); // warm-up
    const runs: LoadFigures[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await loadRoute(url, route, SECONDS));
    const runList = runs.map((r) => r.rps.toFixed(0)).join(', ');
    const m = { rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p95: median(runs.map((r) => r.p95)) };
    console.log(
      `  ${route.label.padEnd(10)} ${String(counted.get(route.label)!.length).padStart(2)} statements: ${m.rps.toFixed(0)} req/s (runs ${runList}), p50 ${m.p50.toFixed(1)} ms, p95 ${m.p95.toFixed(1)} ms; load ${load()}`,
    );
  }
}

/** Seeds the demo, counts each route's statements and closes the database (the API opens its own). */
async function prepare(db: Db, tmp: string): Promise<{ routes: Route[]; counted: Map<string, RecordedStatement[]> }> {
  const config = loadConfig({ dataDir: tmp, storage: { kind: 'local', dir: path.join(tmp, 'objects') }, seedOnStart: false, logLevel: 'warn' });
  const ctx = await createContextWith(config, db);
  const started = Date.now();
  await seedDemo(ctx, { photos: SEED });
  await db.exec('vacuum analyze');
  const events = (await db.query<{ n: number }>('select count(*)::int as n from events'))[0]!.n;
  const photos = (await db.query<{ n: number }>('select count(*)::int as n from photos'))[0]!.n;
  console.log(`demo seed (${SEED}): ${events} events, ${photos} photos and videos, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const routes = routesOf(await demoCart(db));
  const counted = await countStatements(db, tmp, routes);
  for (const route of routes) {
    const statements = counted.get(route.label)!;
    console.log(`  ${route.label}: ${statements.length} statements`);
    if (process.env.BENCH_STATEMENTS === '1') for (const s of statements) console.log(`    ${s.sql.replace(/\s+/g, ' ').trim().slice(0, 140)}`);
  }
  return { routes, counted };
}

async function benchServer(): Promise<void> {
  await withBenchDatabase(SERVER, async ({ url, name, tmp }) => {
    let db: Db | null = await openDb({ url, dataDir: null });
    let api: Awaited<ReturnType<typeof startApi>> | null = null;
    try {
      console.log(
        `\n== PostgreSQL server ${(await db.query<{ v: string }>('select current_setting($$server_version$$) as v'))[0]!.v} (database ${name}, dropped afterwards)`,
      );
      const { routes, counted } = await prepare(db, tmp);
      await db.close();
      db = null;
      api = await startApi({ DATABASE_URL: url, DATA_DIR: tmp });
      await loadApi(api.url, routes, counted);
    } finally {
      await api?.stop();
      await db?.close();
    }
  });
}

async function benchPglite(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-bench-'));
  let api: Awaited<ReturnType<typeof startApi>> | null = null;
  try {
    console.log('\n== embedded PGlite');
    const db = await openDb({ url: null, dataDir: tmp });
    const { routes, counted } = await prepare(db, tmp);
    await db.close();
    api = await startApi({ DATA_DIR: tmp });
    await loadApi(api.url, routes, counted);
  } finally {
    await api?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

runBench(async () => {
  console.log(
    `API benchmark (home, event list, cart bill), ${new Date().toISOString()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), load ${load()}`,
  );
  if (TARGETS.includes('postgres')) await benchServer();
  if (TARGETS.includes('pglite')) await benchPglite();
  console.log(`done, load ${load()}`);
});
