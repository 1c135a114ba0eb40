/**
 * Order zip throughput benchmark (a script that prints figures, not a timed test):
 *
 *   pnpm bench:zip          (BENCH_ORDER_SIZES=30,360  BENCH_RUNS=3  BENCH_SCENES=6)
 *
 * Renders a few camera-like JPEG originals (3-4 MB each) and writes as many distinct files as the
 * largest order needs (each scene with its own comment segment, so no two files are alike) into a
 * fresh data folder with one paid order per order size. Then it starts the real API (api/src/main.ts)
 * in its own process on that folder, so that its memory is the API's alone, and for each order:
 * - reads the order's files from disk one after another, as the zip route does (1 MiB reads), in MiB/s;
 * - downloads the order's zip through the API (the real link a buyer gets) and checks that the
 *   bytes received equal the Content-Length, in MiB/s;
 * - samples the API's resident memory (VmRSS in /proc) every 20 ms during the download.
 * Both are measured with the files in the page cache and, where `dd` can evict them (Linux, GNU
 * coreutils), from the disk itself. The goal: zip >= 0.8x the raw reads, memory flat whatever the size.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { API_ROUTES } from '@finishline/shared/pure';
import { loadConfig, REPO_ROOT } from '../src/config/config';
import { createContextWith } from '../src/createContext';
import { openDb } from '../src/db/db';
import { signPreauth } from '../src/features/orders/preauth';
import { cameraPhoto } from '../src/seed/cameraPhoto';
import { runBench, withComment } from './benchSupport';

const ORDER_SIZES = (process.env.BENCH_ORDER_SIZES ?? '30,360').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SCENES = Number(process.env.BENCH_SCENES ?? 6);
const MiB = 1024 * 1024;
const mib = (bytes: number) => (bytes / MiB).toFixed(1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Resident and peak resident memory of a process, from /proc (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Drops the files from the page cache (clean pages only: sync first), so the next read is the disk's. */
const canEvict = spawnSync('dd', ['--version'], { stdio: 'ignore' }).status === 0 && os.platform() === 'linux';
function evict(files: string[]): void {
  spawnSync('sync');
  for (const file of files) spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
}

async function readAll(files: string[]): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  let bytes = 0;
  for (const file of files) {
    for await (const chunk of fs.createReadStream(file, { highWaterMark: MiB })) bytes += (chunk as Buffer).length;
  }
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

/**
 * The browser's part is played by curl where it is installed: it costs the least CPU beside the
 * server on a small machine (a Node client takes about as much as the server does).
 */
const hasCurl = spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;
interface Received {
  status: number;
  promised: number;
  bytes: number;
}

function viaCurl(url: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    const curl = spawn('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %header{content-length}', url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    curl.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    curl.on('error', reject);
    curl.on('exit', () => {
      const [status, bytes, promised] = out.trim().split(' ').map(Number);
      resolve({ status: status!, bytes: bytes!, promised: promised! });
    });
  });
}

function viaNodeHttp(url: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => (received += chunk.length));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, promised: Number(response.headers['content-length']), bytes: received }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function downloadZip(url: string, apiPid: number): Promise<{ bytes: number; seconds: number; promised: number; peakRss: number; rssBefore: number }> {
  const rssBefore = memoryOf(apiPid)?.rss ?? NaN;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    const rss = memoryOf(apiPid)?.rss;
    if (rss !== undefined && rss > peakRss) peakRss = rss;
  }, 20);
  const started = performance.now();
  const { status, promised, bytes } = hasCurl ? await viaCurl(url) : await viaNodeHttp(url);
  const seconds = (performance.now() - started) / 1000;
  if (status !== 200) throw new Error(`zip: status ${status}`);
  clearInterval(sampler);
  if (bytes !== promised) throw new Error(`zip: received ${bytes} bytes, Content-Length said ${promised}`);
  return { bytes, seconds, promised, peakRss, rssBefore };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-zip-bench-'));
  const largest = Math.max(...ORDER_SIZES);
  const config = loadConfig({ dataDir: tmp, storage: { kind: 'local', dir: path.join(tmp, 'objects') }, logLevel: 'warn', seedOnStart: false });

  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ');
  console.log(`${os.cpus().length} cores; load average at the start ${load()} (figures from a busy machine vary from run to run)`);
  console.log(`Rendering ${SCENES} camera-like originals, written as ${largest} distinct files...`);
  const scenes: Buffer[] = [];
  for (let i = 0; i < SCENES; i++) scenes.push(await cameraPhoto({ bib: `ZB${100 + i}`, seed: `zip-bench/${i}`, width: 4000, grain: 14, quality: 92 }));

  // The data folder the API will open: its database (embedded PGlite) and its objects.
  const db = await openDb({ url: null, dataDir: tmp });
  const ctx = await createContextWith(config, db);
  const [event] = await db.query<{ id: number }>(
    `insert into events (name, from_date, to_date, issearchable) values ('Zip Bench Marathon 2026', '2026-10-04', '2026-10-04', true) returning id`,
  );
  const eventId = event!.id;
  const photoIds: number[] = [];
  const files: string[] = [];
  for (let i = 0; i < largest; i++) {
    const key = `originals/${eventId}/ZB-${String(i + 1).padStart(4, '0')}.jpg`;
    await ctx.storage.put(key, withComment(scenes[i % SCENES]!, `zip bench file ${i}`), 'image/jpeg');
    const [row] = await db.query<{ id: number }>(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, seq) values ($1, $2, 'image', $3, $3, $3, 4000, 2667, $4) returning id`,
      [eventId, `ZB-${String(i + 1).padStart(4, '0')}`, key, i],
    );
    photoIds.push(row!.id);
    files.push(path.join(tmp, 'objects', key));
  }
  const orders: Array<{ size: number; ref: string; files: string[]; bytes: number }> = [];
  for (const size of ORDER_SIZES) {
    const ref = `FLZIPBENCH${size}`;
    const [order] = await db.query<{ id: number }>(
      `insert into orders (order_ref, txnid, event_id, bib_number, name, email, phone, status, amount, amount_text, productinfo, paid_at)
       values ($1, $1, $2, 'ZB100', 'Bench Buyer', 'bench@example.com', '9876543210', 'Paid', 100, '100.00', 'photos', now()) returning id`,
      [ref, eventId],
    );
    await db.query(`insert into order_items (order_id, kind, label, photo_ids, amount, discount) values ($1, 'images', 'images', $2, 100, 0)`, [
      order!.id,
      photoIds.slice(0, size),
    ]);
    const orderFiles = files.slice(0, size);
    orders.push({ size, ref, files: orderFiles, bytes: orderFiles.reduce((sum, f) => sum + fs.statSync(f).size, 0) });
  }
  await db.close();

  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const api: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_API_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_API_PROFILE] : []),
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'api/src/main.ts'),
    ],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        DATA_DIR: tmp,
        DATABASE_URL: '',
        S3_BUCKET: '',
        API_PORT: String(port),
        API_HOST: '127.0.0.1',
        PUBLIC_API_URL: apiUrl,
        SEED_ON_START: 'false',
        FACE_INDEXING: 'false',
        SUPPLY_WORKER: 'false',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
      },
    },
  );
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const ok = await fetch(`${apiUrl}${API_ROUTES.health}`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline || api.exitCode !== null) throw new Error('the API did not start');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const apiPid = api.pid!;
    console.log(`Client: ${hasCurl ? 'curl' : 'node:http'}`);
    console.log(`API started (pid ${apiPid}); RSS at rest ${mib(memoryOf(apiPid)?.rss ?? NaN)} MiB\n`);

    const linkOf = async (ref: string, attempt = 1): Promise<string> => {
      const preauth = signPreauth(config.signingSecret, ref, 'bench@example.com', new Date(Date.now() + 86400_000));
      // fetch's kept-alive socket can be one the API has just closed after a long download
      // ("other side closed"): ask once more on a new one rather than lose the whole run.
      const answer = await fetch(`${apiUrl}${API_ROUTES.downloadOrder}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderID: ref, preauth }),
      }).catch((error: unknown) => {
        if (attempt < 2) return null;
        throw error;
      });
      if (answer === null) return linkOf(ref, attempt + 1);
      const body = (await answer.json()) as { result: string; Message: string };
      if (answer.status !== 200) throw new Error(`download link: ${answer.status} ${body.Message}`);
      return body.result;
    };

    const modes = canEvict ? (['page cache', 'disk'] as const) : (['page cache'] as const);
    if (!canEvict) console.log('dd cannot evict files from the page cache here: only the page-cache figures are measured.\n');
    const results: Array<{ size: number; mode: string; total: number; raw: number; zip: number; peakRss: number; rssBefore: number }> = [];
    for (const order of orders) {
      for (const mode of modes) {
        const raw: number[] = [];
        const zip: number[] = [];
        let peakRss = 0;
        let rssBefore = Infinity;
        for (let run = 0; run < RUNS; run++) {
          if (mode === 'disk') evict(order.files);
          else await readAll(order.files); // warm
          const r = await readAll(order.files);
          raw.push(r.bytes / MiB / r.seconds);
          if (mode === 'disk') evict(order.files);
          const z = await downloadZip(await linkOf(order.ref), apiPid);
          zip.push(z.bytes / MiB / z.seconds);
          peakRss = Math.max(peakRss, z.peakRss);
          rssBefore = Math.min(rssBefore, z.rssBefore);
          if (run === 0) console.log(`order of ${order.size} originals (${mib(order.bytes)} MiB): zip of ${mib(z.promised)} MiB, Content-Length exact`);
        }
        const row = { size: order.size, mode, total: order.bytes, raw: median(raw), zip: median(zip), peakRss, rssBefore };
        results.push(row);
        console.log(
          `  ${mode.padEnd(10)} raw reads ${row.raw.toFixed(0)} MiB/s, zip download ${row.zip.toFixed(0)} MiB/s, ratio ${(row.zip / row.raw).toFixed(2)} (median of ${RUNS}); API RSS ${mib(row.rssBefore)} MiB before, peak ${mib(row.peakRss)} MiB during`,
        );
      }
    }

    console.log('\nSummary (goal: zip >= 0.8x raw reads; API memory flat whatever the order size)');
    for (const mode of modes) {
      const rows = results.filter((r) => r.mode === mode);
      const ratios = rows.map((r) => r.zip / r.raw);
      const worst = Math.min(...ratios);
      console.log(
        `  ${mode}: ratio ${ratios.map((r) => r.toFixed(2)).join(' / ')} for ${rows.map((r) => r.size).join(' / ')} originals -> ${worst >= 0.8 ? 'goal met' : `goal NOT met (worst ${worst.toFixed(2)})`}`,
      );
    }
    // Flat: what a download adds to the API's memory does not grow with the order (GC noise aside).
    const growthOf = (size: number) => Math.max(...results.filter((r) => r.size === size).map((r) => r.peakRss - r.rssBefore));
    const growth = ORDER_SIZES.map(growthOf);
    const flat = growth.at(-1)! <= growth[0]! + 32 * MiB;
    console.log(
      `  API memory added during a download: ${growth.map(mib).join(' / ')} MiB for ${ORDER_SIZES.join(' / ')} originals (peak RSS ${mib(Math.max(...results.map((r) => r.peakRss)))} MiB) -> ${flat ? 'flat (the largest order adds no more than 32 MiB over the smallest)' : 'NOT flat'}`,
    );
    console.log(`  load average at the end: ${load()}`);
    console.log(`  API lifetime peak RSS (VmHWM): ${mib(memoryOf(apiPid)?.peak ?? NaN)} MiB`);
  } finally {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

runBench(main);
