/**
 * Memory of the whole demo system (every process `pnpm start` runs), idle after a busy spell.
 *
 * Starts the system as `pnpm start` does (scripts/start.mjs) on its own ports (BENCH_PORT_OFFSET,
 * default 500) and a fresh data folder, so the spell is a first start's: the demo is made (803
 * photos) and its photos are face-indexed in the background at the configured pace, while visitors
 * search: a BIB search every second, a selfie search (the server path: a demo photo sent as the
 * selfie) every 15 s, and the shop's page and the storefront's manifest every 5 s. The visitors stop
 * when the face index is complete, or after BENCH_BUSY_MINUTES (default 75); the system's own
 * background work (the rest of the face index) is then let finish, for at most BENCH_MAX_MINUTES
 * from the start (default 150). Then nothing happens for BENCH_IDLE_SECONDS (default 360: past the
 * model processes' idle times, BIB reader 60 s and face detector 300 s), and the resident memory of
 * every process of the system is printed, as
 * RSS (what `ps` shows; libraries shared between processes are counted in each) and PSS (shared
 * pages split between the processes that map them), beside the highest total seen during the spell.
 *
 *   pnpm bench:memory
 *   BENCH_BUSY_MINUTES=10 BENCH_IDLE_SECONDS=400 FACE_INDEX_PAUSE=0 pnpm bench:memory
 *
 * Goal (issue: faster than a monolith): the whole system at most 1.0 GiB RSS, idle after a busy hour.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_ROUTES, FACE_CONSENT_VERSION } from '@finishline/shared/pure';
import { portsFor } from '../../build/ports.mjs';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 500);
const BUSY_MS = Number(process.env.BENCH_BUSY_MINUTES ?? 75) * 60_000;
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 360) * 1000;
const MAX_MS = Number(process.env.BENCH_MAX_MINUTES ?? 150) * 60_000;
const GOAL_BYTES = 1024 ** 3;
const ports = portsFor(OFFSET);
const API = `http://localhost:${ports.api}`;
const SHELL = `http://localhost:${ports.shell}`;
const EVENT = 'Mumbai Coastal Marathon 2026';
const MiB = 1024 * 1024;

interface ProcessMemory {
  pid: number;
  label: string;
  rss: number;
  pss: number;
}

/** The pids under root (root included), from /proc's parent links. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: the fields after the last ')' are plain.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // ended meanwhile
    }
  }
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, ppid] of parents) if (ppid === found[i]) found.push(pid);
  return found;
}

/** What a process of the system is, from its command line. */
function labelOf(pid: number): string {
  const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const joined = argv.join(' ');
  const named = argv.indexOf('--name');
  if (named >= 0) return `static server: ${argv[named + 1]}`;
  if (joined.includes('faceWorker')) return 'face detector';
  if (joined.includes('bibWorker')) return 'BIB reader';
  if (joined.includes('payment-sandbox')) return 'payment sandbox';
  if (joined.includes('src/main.ts')) return 'API';
  if (joined.includes('scripts/start.mjs')) return 'start script (and the deployments it serves)';
  if (joined.includes('scripts/build.mjs')) return 'build';
  return path.basename(argv[0] ?? `pid ${pid}`) + (argv[1] ? ` ${path.basename(argv[1])}` : '');
}

function kib(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) * 1024 : 0;
}

function sample(root: number): ProcessMemory[] {
  const rows: ProcessMemory[] = [];
  for (const pid of descendants(root)) {
    try {
      const rss = kib(fs.readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
      const pss = kib(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss');
      rows.push({ pid, label: labelOf(pid), rss, pss });
    } catch {
      // ended meanwhile
    }
  }
  return rows;
}

const total = (rows: ProcessMemory[], key: 'rss' | 'pss') => rows.reduce((sum, row) => sum + row[key], 0);
const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;

function printTable(title: string, rows: ProcessMemory[]): void {
  console.log(`\n${title}`);
  console.log('| process | pid | RSS | PSS |\n|---|---|---|---|');
  for (const row of [...rows].sort((a, b) => b.rss - a.rss)) console.log(`| ${row.label} | ${row.pid} | ${mib(row.rss)} | ${mib(row.pss)} |`);
  console.log(`| **all ${rows.length} processes** | | **${mib(total(rows, 'rss'))}** | **${mib(total(rows, 'pss'))}** |`);
}

async function getJson<T>(url: string, init?: RequestInit): Promise<{ status: number; body: T | null }> {
  try {
    const response = await fetch(url, init);
    return { status: response.status, body: (await response.json().catch(() => null)) as T | null };
  } catch {
    return { status: 0, body: null };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  // The system's log beside its data folder (FRESH=1 empties the data folder as it starts).
  const benchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-memory-'));
  const dataDir = path.join(benchDir, 'data');
  const logFile = path.join(benchDir, 'start.log');
  const log = fs.createWriteStream(logFile);
  const system = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start.mjs')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT_OFFSET: String(OFFSET),
      DATA_DIR: dataDir,
      FRESH: '1',
      // The visitors below all come from this machine: the per-address limits would stop them.
      RATE_LIMIT_SEARCH_PER_IP: '1000000',
      RATE_LIMIT_SELFIE_PER_IP: '1000000',
      RATE_LIMIT_SELFIE_PER_SESSION: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  system.stdout.pipe(log);
  system.stderr.pipe(log);
  const stop = () => {
    if (system.exitCode === null) system.kill('SIGTERM');
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stop();
      process.exit(130);
    });
  }
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(0);
  console.log(`Starting the system on offset ${OFFSET} with a fresh data folder (${dataDir})...`);

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the system was not ready in 15 minutes')), 900_000);
      system.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('[start] ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      system.once('exit', (code) => reject(new Error(`the system stopped (exit ${code}); see ${logFile}`)));
    });
    const atReady = sample(system.pid!);
    console.log(`ready at ${seconds()} s: ${mib(total(atReady, 'rss'))} RSS in ${atReady.length} processes`);

    // The demo's event and some of its photos (their BIBs to search, one photo to send as a selfie).
    const events = await getJson<{ result: { events: Array<{ event_id: number; event_name: string }> } }>(`${API}/api/events/names`);
    const eventID = events.body?.result.events.find((event) => event.event_name === EVENT)?.event_id;
    if (!eventID) throw new Error(`${EVENT} is not in the demo data`);
    const bibs = Array.from({ length: 60 }, (_, i) => `TT${20600 + i}`);
    const search = (bibNumber: string) =>
      getJson<{ result: { photo: Array<{ s3?: string }> } | null }>(`${API}${API_ROUTES.searchByBib}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ eventName: EVENT, eventID, bibNumber }),
      });
    const firstFound = (await search('TT20609')).body?.result?.photo[0]?.s3;
    const selfie = firstFound ? Buffer.from(await (await fetch(firstFound)).arrayBuffer()).toString('base64') : null;

    const counts = { bib: 0, selfie: 0, page: 0, failed: 0 };
    const statuses = new Map<number, number>();
    let busy = true;
    const visitors = [
      (async () => {
        for (let i = 0; busy; i++) {
          const result = await search(bibs[i % bibs.length]!);
          counts.bib += 1;
          statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
          await sleep(1000);
        }
      })(),
      (async () => {
        while (busy && selfie) {
          const result = await getJson(`${API}${API_ROUTES.searchBySelfie}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ eventID, selfieimg: selfie, consentVersion: FACE_CONSENT_VERSION }),
          });
          counts.selfie += 1;
          if (result.status === 0 || result.status >= 500) counts.failed += 1;
          await sleep(15_000);
        }
      })(),
      (async () => {
        while (busy) {
          for (const url of [`${SHELL}/`, `http://localhost:${ports.storefront}/mf-manifest.json`]) {
            const response = await fetch(url).catch(() => null);
            await response?.arrayBuffer();
            counts.page += 1;
            if (!response?.ok) counts.failed += 1;
          }
          await sleep(5000);
        }
      })(),
    ];

    // The spell: until the demo's photos are all face-indexed (or the time is up), sampled every 5 s.
    let peak = atReady;
    const busyUntil = Date.now() + BUSY_MS;
    let lastReport = 0;
    while (Date.now() < busyUntil) {
      const rows = sample(system.pid!);
      if (total(rows, 'rss') > total(peak, 'rss')) peak = rows;
      const status = await getJson<{ result: { total: number; pending: number; running?: number; percent: number } }>(`${API}${API_ROUTES.faceIndexStatus}`);
      const index = status.body?.result;
      if (Date.now() - lastReport > 60_000) {
        lastReport = Date.now();
        console.log(
          `${seconds()} s: ${mib(total(rows, 'rss'))} RSS; face index ${index?.percent ?? '?'}%; searches ${counts.bib} BIB, ${counts.selfie} selfie; ${counts.page} page loads`,
        );
      }
      if (index && index.total > 0 && index.percent >= 100) break;
      await sleep(5000);
    }
    busy = false;
    await Promise.all(visitors);
    const atBusyEnd = sample(system.pid!);
    const busyMinutes = ((Date.now() - started) / 60_000).toFixed(1);
    console.log(
      `\nThe busy spell ended at ${seconds()} s (${busyMinutes} min after the start): ${counts.bib} BIB searches (status ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}), ${counts.selfie} selfie searches, ${counts.page} page loads, ${counts.failed} failed.`,
    );
    // The background work the spell started (the demo's face index) runs to its end before the idle time.
    const faceIndex = async () => (await getJson<{ result: { total: number; percent: number } }>(`${API}${API_ROUTES.faceIndexStatus}`)).body?.result;
    for (let index = await faceIndex(); index && index.percent < 100 && Date.now() - started < MAX_MS; index = await faceIndex()) {
      const rows = sample(system.pid!);
      if (total(rows, 'rss') > total(peak, 'rss')) peak = rows;
      if (Date.now() - lastReport > 60_000) {
        lastReport = Date.now();
        console.log(`${seconds()} s: no visitors; the face index at ${index.percent}%; ${mib(total(rows, 'rss'))} RSS`);
      }
      await sleep(5000);
    }
    const finalIndex = await faceIndex();
    console.log(
      finalIndex && finalIndex.percent >= 100
        ? `The face index was complete at ${seconds()} s.`
        : `The face index was still at ${finalIndex?.percent ?? '?'}% at ${seconds()} s (BENCH_MAX_MINUTES): the idle figure below includes its work.`,
    );
    console.log(`Idle for ${IDLE_MS / 1000} s...`);
    const workMinutes = ((Date.now() - started) / 60_000).toFixed(1);
    await sleep(IDLE_MS);
    const idle = sample(system.pid!);

    printTable(`At ready (${mib(total(atReady, 'rss'))} RSS)`, atReady);
    printTable('The highest total during the busy spell', peak);
    printTable('At the end of the busy spell', atBusyEnd);
    printTable(`Idle ${IDLE_MS / 1000} s after the busy spell`, idle);
    const idleRss = total(idle, 'rss');
    console.log(
      `\nWhole system idle after ${workMinutes} busy minutes (visitors for the first ${busyMinutes}): ${(idleRss / 1024 ** 3).toFixed(2)} GiB RSS (${(total(idle, 'pss') / 1024 ** 3).toFixed(2)} GiB PSS); goal <= 1.0 GiB RSS: ${idleRss <= GOAL_BYTES ? 'met' : 'not met'}.`,
    );
  } finally {
    stop();
    await new Promise((resolve) => (system.exitCode !== null ? resolve(null) : system.once('exit', resolve)));
    if (!process.env.BENCH_KEEP_DATA) fs.rmSync(benchDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
