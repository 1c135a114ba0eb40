/** Small pieces the benchmark scripts share. */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_ROUTES } from '@finishline/shared/pure';
// The tests' helpers for a database of one's own on the server.
import { databaseOn, onPgServer as onServer } from '../test/support/pgServer';

/** The same JPEG with a comment segment after SOI: other bytes, same picture (so a different SHA-256). */
export function withComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, body, jpeg.subarray(2)]);
}

/** Runs a benchmark's main and exits: 0 when it finished, 1 with the error printed when it threw. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * Runs fn with a fresh database of its own on the server and a temporary folder; drops both
 * afterwards, whatever happened. fn closes its own connections before it returns.
 */
export async function withBenchDatabase(serverUrl: string, fn: (bench: { url: string; name: string; tmp: string }) => Promise<void>): Promise<void> {
  const name = `finishline_bench_${crypto.randomBytes(5).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-bench-'));
  try {
    await fn({ url: databaseOn(serverUrl, name), name, tmp });
  } finally {
    // A connection still closing gets a moment before the database goes.
    await onServer(serverUrl, `drop database if exists ${name}`).catch(async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await onServer(serverUrl, `drop database if exists ${name} with (force)`);
    });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
/** The p-th percentile of values sorted ascending (nearest rank). */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
/** The machine's load average (1, 5, 15 minutes): the figures mean little without it on a shared machine. */
export const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** The API as deployed (src/main.ts), in its own process: no seed, no background workers of the supply line. */
export async function startApi(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  // BENCH_CPU_PROF=<dir>: the API writes a V8 CPU profile there when it stops (open in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/main.ts'], {
    cwd: API_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      SEED_ON_START: 'false',
      FACE_INDEXING: 'false',
      SUPPLY_WORKER: 'false',
      // One client address does all the searches here.
      RATE_LIMIT_SEARCH_PER_IP: '100000000',
      // The production default (info: two lines per request) unless BENCH_LOG_LEVEL says otherwise.
      ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The API's log goes where a deployment sends it: a pipe someone reads.
  let stderr = '';
  child.stdout!.on('data', () => undefined);
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}): ${stderr}`);
    if (Date.now() - started > 120_000) throw new Error(`the API did not listen within 2 minutes: ${stderr}`);
    try {
      await fetch(`${url}${API_ROUTES.homePage}`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  return { url, child, stop };
}

/**
 * A process's resident size, its high-water mark (bytes) and CPU seconds, from /proc (Linux);
 * reapedChildrenCpu is the CPU of its children that ended and were waited for (cutime + cstime).
 */
export function procFigures(pid: number): { rss: number; hwm: number; cpu: number; reapedChildrenCpu: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime and cstime are fields 14 to 17 of stat, counted after the command's closing parenthesis.
    return {
      rss: kb('VmRSS'),
      hwm: kb('VmHWM'),
      cpu: (Number(stat[11]) + Number(stat[12])) / 100,
      reapedChildrenCpu: (Number(stat[13]) + Number(stat[14])) / 100,
    };
  } catch {
    return null; // ended meanwhile
  }
}
