/**
 * BIB search under load: `pnpm bench:search` (root or api).
 *
 * Two targets (BENCH_TARGETS, default `postgres,pglite`):
 * - postgres: a database of its own on a PostgreSQL server (BENCH_DATABASE_URL, default
 *   postgres://postgres@127.0.0.1:5432/test, dropped afterwards) with 1,000,000 photos
 *   (BENCH_PHOTOS) in 10 events of 4,000 BIBs each, generated in SQL;
 * - pglite: the embedded database at the demo seed's size (about 800 photos, 56 BIBs).
 *
 * The real API (src/main.ts) runs in a process of its own with the production defaults (log level,
 * pool size), no seed and no background workers; this process loads it with autocannon: 50
 * connections (BENCH_CONNECTIONS) posting BIB searches of random BIBs for BENCH_SECONDS (default
 * 10), BENCH_RUNS times (default 3; medians printed); BENCH_LOG_LEVEL sets the API's log level.
 * autocannon because its HTTP client is cheap on CPU: on two cores the load generator must leave as
 * much as it can to the API and the database.
 *
 * The raw SQL of the same work: the statements one search runs are recorded (one search through the
 * API in this process on a recording database), then run with random BIBs by pgbench on the server
 * (same 50 connections, prepared statements) or, on PGlite, one search after another in this
 * process (PGlite serves one connection). Printed: req/s, p50, p99 and the ratio API / raw SQL.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { API_ROUTES } from '@finishline/shared/pure';
import { loadConfig } from '../src/config/config';
import { createContextWith } from '../src/createContext';
import { openDb, recordingDb, type Db, type RecordedStatement } from '../src/db/db';
import { buildApp } from '../src/app';
import { load, median, percentile, runBench, startApi, withBenchDatabase } from './benchSupport';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TARGETS = (process.env.BENCH_TARGETS ?? 'postgres,pglite').split(',').map((t) => t.trim());
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FIRST_BIB = 100_000;

interface Shape {
  events: number;
  photos: number;
  bibsPerEvent: number;
}
const SERVER_PHOTOS = Number(process.env.BENCH_PHOTOS ?? 1_000_000);
// About 25 photos per BIB, as at a marathon: 4,000 BIBs per event at 1,000,000 photos.
const SERVER_SHAPE: Shape = { events: 10, photos: SERVER_PHOTOS, bibsPerEvent: Math.max(1, Math.floor(SERVER_PHOTOS / 10 / 25)) };
// The demo seed: 803 photos and videos, 55 BIBs with photos.
const PGLITE_SHAPE: Shape = { events: 4, photos: 800, bibsPerEvent: 14 };

/**
 * Events with photos, their BIBs (every photo tagged with one BIB, one in ten with a second), the
 * participants with email and finish time, an active sponsor offer per event and three print
 * products: what a BIB search reads. BIB n of the whole set is FIRST_BIB + n in event n / bibsPerEvent.
 */
async function generate(db: Db, shape: Shape): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    const perEvent = Math.floor(shape.photos / shape.events);
    const eventIds: number[] = [];
    for (let e = 0; e < shape.events; e++) {
      const id = (
        await tx.query<{ id: number }>(
          `insert into events (name, from_date, to_date, location, issearchable) values ($1, date '2026-01-18' + $2::int, date '2026-01-18' + $2::int, 'Mumbai', true) returning id`,
          [`Benchmark Marathon ${e + 1}`, e],
        )
      )[0]!.id;
      eventIds.push(id);
      const firstBib = FIRST_BIB + e * shape.bibsPerEvent;
      await tx.query(
        `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, seq)
         select e, 'B' || e || '-' || g, case when g % 50 = 0 then 'video' else 'image' end, 'o/' || e || '/' || g, 'p/' || e || '/' || g, 't/' || e || '/' || g, 1600, 1067, g
           from generate_series(1, $2::int) g, (select $1::int as e) x`,
        [id, perEvent],
      );
      await tx.query(
        `insert into photo_bibs (photo_id, event_id, bib_number, source)
         select p.id, p.event_id, ($2::int + p.seq % $3::int)::text, 'seed' from photos p where p.event_id = $1
         union all
         select p.id, p.event_id, ($2::int + (p.seq + 1) % $3::int)::text, 'seed' from photos p where p.event_id = $1 and p.seq % 10 = 0`,
        [id, firstBib, shape.bibsPerEvent],
      );
      await tx.query(
        `insert into participants (event_id, bib_number, name, email, finish_time)
         select $1, ($2::int + g)::text, 'Runner ' || g, 'runner' || g || '@bench.example', make_interval(secs => 3 * 3600 + g)
           from generate_series(0, $3::int - 1) g`,
        [id, firstBib, shape.bibsPerEvent],
      );
      await tx.query(
        `insert into sponsor_offers (event_id, coupon_name, sponsor_name, discount_type, discount_amount, max_orders_allowed) values ($1, 'BENCH20', 'Bench Club', 'percent', 20, 3)`,
        [id],
      );
    }
    await tx.query(
      `insert into print_products (name, image_key, price) select 'Bench print ' || g, 'public/print' || g || '.png', 500 + g from generate_series(1, 3) g on conflict do nothing`,
    );
    return eventIds;
  });
}

const searchBody = (shape: Shape, eventIds: number[], n: number) =>
  JSON.stringify({ eventID: eventIds[Math.floor(n / shape.bibsPerEvent)], bibNumber: String(FIRST_BIB + n) });

/** The statements one BIB search runs (one anonymous search through the API, in this process). */
async function searchStatements(db: Db, tmp: string, shape: Shape, eventIds: number[]): Promise<RecordedStatement[]> {
  const seen: RecordedStatement[] = [];
  const config = loadConfig({ dataDir: tmp, storage: { kind: 'local', dir: path.join(tmp, 'objects') }, seedOnStart: false, logLevel: 'warn' });
  const ctx = await createContextWith(config, recordingDb(db, seen));
  const app = await buildApp(ctx, { logger: false });
  // Warm up whatever the API caches, then record one search as it runs under steady load.
  const call = (n: number) =>
    app.inject({ method: 'POST', url: API_ROUTES.searchByBib, headers: { 'content-type': 'application/json' }, payload: searchBody(shape, eventIds, n) });
  await call(1);
  seen.length = 0;
  const answer = await call(shape.bibsPerEvent + 2);
  if (answer.statusCode !== 200) throw new Error(`the search answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
  await app.close();
  return seen.splice(0);
}

/**
 * One statement with its parameters as pgbench variables: the event is :ev, the BIB :bib, anything
 * else a literal. The BIB recorded was FIRST_BIB + bibsPerEvent + 2, in the second event.
 */
function pgbenchStatement(statement: { sql: string; params: unknown[] }, eventId: number, bib: string): string {
  const sql = statement.sql.replace(/\$(\d+)/g, (_m, index: string) => {
    const value = statement.params[Number(index) - 1];
    if (value === eventId) return '(:ev)::int';
    if (value === bib) return '(:bib)::text';
    if (value === null || value === undefined) return 'null';
    if (Array.isArray(value)) {
      if (value.length === 1 && value[0] === bib) return 'array[(:bib)::text]';
      return `'{${value.map((v) => `"${String(v)}"`).join(',')}}'`;
    }
    if (typeof value === 'number') return String(value);
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    return `'${String(typeof value === 'object' ? JSON.stringify(value) : value).replace(/'/g, "''")}'`;
  });
  return `${sql.replace(/\s+/g, ' ').trim()};`;
}

interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
}

async function loadApi(url: string, shape: Shape, eventIds: number[], seconds: number): Promise<LoadFigures> {
  const total = shape.events * shape.bibsPerEvent;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: API_ROUTES.searchByBib,
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: searchBody(shape, eventIds, crypto.randomInt(total)) }),
      },
    ],
  });
  if (result.non2xx > 0) throw new Error(`${result.non2xx} answers were not 200`);
  // Timeouts (no answer within 10 s) are counted, not fatal: on an overloaded machine they are the figure.
  if (result.errors > 0) console.log(`  (${result.errors} requests got no answer within 10 s, ${result.timeouts} of them timeouts)`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

function printRuns(label: string, runs: LoadFigures[]): LoadFigures {
  for (const [i, r] of runs.entries())
    console.log(`  ${label} run ${i + 1}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`);
  const m = { rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)) };
  console.log(`  ${label} median: ${m.rps.toFixed(0)} req/s, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`);
  return m;
}

async function explain(db: Db, statements: RecordedStatement[]): Promise<void> {
  for (const [i, q] of statements.entries()) {
    const first = q.sql.replace(/\s+/g, ' ').trim().slice(0, 100);
    console.log(`  ${i + 1}. ${first}${q.sql.length > 100 ? '...' : ''}`);
    if (!/^\s*(select|with)/i.test(q.sql)) continue;
    const plan = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${q.sql}`, q.params);
    const lines = plan.map((r) => r['QUERY PLAN']);
    const indexes = [
      ...new Set(lines.flatMap((l) => [...l.matchAll(/(Index Only Scan|Index Scan|Bitmap Index Scan) (?:Backward )?(?:using|on) (\w+)/g)].map((m) => m[2]))),
    ];
    const seqScans = [...new Set(lines.flatMap((l) => [...l.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1])))];
    console.log(
      `     indexes: ${indexes.join(', ') || 'none'}${seqScans.length ? `; sequential scans: ${seqScans.join(', ')}` : ''}; ${lines.find((l) => l.startsWith('Execution Time')) ?? ''}`,
    );
    if (process.env.BENCH_PLANS === '1') for (const l of lines) console.log(`       ${l}`);
  }
}

/** pgbench running the search's statements as one transaction per search; p50 and p99 from its per-transaction log. */
function runPgbench(url: string, script: string, dir: string, seconds: number): LoadFigures {
  for (const f of fs.readdirSync(dir)) if (f.startsWith('pgbench_log')) fs.rmSync(path.join(dir, f));
  const out = execFileSync(
    'pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(CONNECTIONS),
      '-j',
      '2',
      '-T',
      String(seconds),
      '-f',
      script,
      '-l',
      '--log-prefix',
      path.join(dir, 'pgbench_log'),
      url,
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const latencies: number[] = [];
  for (const f of fs.readdirSync(dir).filter((name) => name.startsWith('pgbench_log'))) {
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      const micros = Number(line.split(' ')[2]);
      if (line && Number.isFinite(micros)) latencies.push(micros / 1000);
    }
  }
  latencies.sort((a, b) => a - b);
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  return { rps: tps, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function benchServer(): Promise<void> {
  await withBenchDatabase(SERVER, benchServerDatabase);
}

async function benchServerDatabase({ url: databaseUrl, name, tmp }: { url: string; name: string; tmp: string }): Promise<void> {
  const shape = SERVER_SHAPE;
  const url = new URL(databaseUrl);
  let db: Db | null = null;
  let api: Awaited<ReturnType<typeof startApi>> | null = null;
  try {
    db = await openDb({ url: url.toString(), dataDir: null });
    await createContextWith(loadConfig({ dataDir: tmp, seedOnStart: false }), db);
    console.log(
      `\n== PostgreSQL server ${(await db.query<{ v: string }>('select current_setting($$server_version$$) as v'))[0]!.v} (database ${name}, dropped afterwards)`,
    );
    const started = Date.now();
    const eventIds = await generate(db, shape);
    await db.exec('vacuum analyze');
    const photos = (await db.query<{ n: number }>('select count(*)::int as n from photos'))[0]!.n;
    console.log(
      `generated ${photos.toLocaleString('en')} photos in ${shape.events} events, ${shape.bibsPerEvent} BIBs each, in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );

    const statements = await searchStatements(db, tmp, shape, eventIds);
    console.log(`one BIB search runs ${statements.length} statements:`);
    await explain(db, statements);
    const recordedBib = String(FIRST_BIB + shape.bibsPerEvent + 2);
    const script = path.join(tmp, 'search.sql');
    fs.writeFileSync(
      script,
      [
        `\\set n random(0, ${shape.events * shape.bibsPerEvent - 1})`,
        `\\set ev ${eventIds[0]} + :n / ${shape.bibsPerEvent}`,
        `\\set bib ${FIRST_BIB} + :n`,
        ...statements.map((s) => pgbenchStatement(s, eventIds[1]!, recordedBib)),
      ].join('\n') + '\n',
    );
    if (process.env.BENCH_SCRIPT === '1') console.log(fs.readFileSync(script, 'utf8'));
    await db.close();
    db = null;

    api = await startApi({ DATABASE_URL: url.toString(), DATA_DIR: tmp });
    await loadApi(api.url, shape, eventIds, 3); // warm-up
    console.log(`load: ${CONNECTIONS} connections, ${SECONDS} s per run, ${RUNS} runs; machine ${os.cpus().length} cores, load ${load()}`);
    const apiRuns: LoadFigures[] = [];
    const sqlRuns: LoadFigures[] = [];
    for (let i = 0; i < RUNS; i++) {
      apiRuns.push(await loadApi(api.url, shape, eventIds, SECONDS));
      sqlRuns.push(runPgbench(url.toString(), script, tmp, SECONDS));
    }
    const a = printRuns('API (BIB search over HTTP)', apiRuns);
    const s = printRuns('raw SQL (pgbench, same statements)', sqlRuns);
    console.log(`  ratio p50 API / p50 SQL: ${(a.p50 / s.p50).toFixed(1)} (goal <= 3); API ${a.rps.toFixed(0)} req/s (goal >= 2,000)`);
  } finally {
    await api?.stop();
    await db?.close();
  }
}

async function benchPglite(): Promise<void> {
  const shape = PGLITE_SHAPE;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-bench-'));
  let api: Awaited<ReturnType<typeof startApi>> | null = null;
  try {
    const db = await openDb({ url: null, dataDir: tmp });
    await createContextWith(loadConfig({ dataDir: tmp, seedOnStart: false }), db);
    const eventIds = await generate(db, shape);
    await db.exec('vacuum analyze');
    console.log(`\n== embedded PGlite: ${shape.photos} photos in ${shape.events} events, ${shape.bibsPerEvent} BIBs each (the demo seed's size)`);
    const statements = await searchStatements(db, tmp, shape, eventIds);
    console.log(`one BIB search runs ${statements.length} statements:`);
    await explain(db, statements);
    // The raw SQL: the same statements with random BIBs, one search after another (one connection).
    const recordedBib = String(FIRST_BIB + shape.bibsPerEvent + 2);
    const sqlRuns: LoadFigures[] = [];
    const total = shape.events * shape.bibsPerEvent;
    for (let run = 0; run < RUNS; run++) {
      const times: number[] = [];
      const until = performance.now() + SECONDS * 1000;
      while (performance.now() < until) {
        const n = crypto.randomInt(total);
        const ev = eventIds[Math.floor(n / shape.bibsPerEvent)];
        const t0 = performance.now();
        for (const s of statements) {
          const params = s.params.map((p) =>
            p === eventIds[1] ? ev : p === recordedBib ? String(FIRST_BIB + n) : Array.isArray(p) && p[0] === recordedBib ? [String(FIRST_BIB + n)] : p,
          );
          await db.query(s.sql, params, s.name ? { name: s.name } : {});
        }
        times.push(performance.now() - t0);
      }
      times.sort((x, y) => x - y);
      sqlRuns.push({ rps: times.length / SECONDS, p50: percentile(times, 50), p99: percentile(times, 99) });
    }
    await db.close();

    api = await startApi({ DATA_DIR: tmp });
    await loadApi(api.url, shape, eventIds, 3);
    console.log(`load: ${CONNECTIONS} connections, ${SECONDS} s per run, ${RUNS} runs; machine ${os.cpus().length} cores, load ${load()}`);
    const apiRuns: LoadFigures[] = [];
    for (let i = 0; i < RUNS; i++) apiRuns.push(await loadApi(api.url, shape, eventIds, SECONDS));
    const a = printRuns('API (BIB search over HTTP)', apiRuns);
    const s = printRuns('raw SQL (same statements in-process, one search at a time)', sqlRuns);
    // One connection serves every search: the API's ceiling is the raw SQL's searches per second.
    console.log(`  ratio req/s API / raw SQL: ${(a.rps / s.rps).toFixed(2)}; API ${a.rps.toFixed(0)} req/s (goal >= 1,000)`);
  } finally {
    await api?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

runBench(async () => {
  console.log(`BIB search benchmark, ${new Date().toISOString()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), load ${load()}`);
  if (TARGETS.includes('postgres')) await benchServer();
  if (TARGETS.includes('pglite')) await benchPglite();
});
