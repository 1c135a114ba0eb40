import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config/config';
import { spawnEntryPoint, TSX_LOADER } from './cluster';
import { tusCreate, tusPatch, type TusAnswer } from './tus';

/**
 * The race-day deployment's pieces as processes, for the worker-role test and the race-day
 * benchmark (api/bench/race-day.bench.ts): worker processes from the real entry point
 * (api/src/worker.ts), the process tree read from /proc, camera photos made by the repository's own
 * CLI (api/src/cli/cameraPhotos.ts) and a chunked tus upload. Everything here talks to the product
 * through processes, HTTP and files, so it does not depend on where the API's modules live.
 */

const API_DIR = path.join(REPO_ROOT, 'api');

export interface WorkerProcess {
  pid: number;
  /** Resolves with the exit code (null when a signal ended it) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether the process has exited. */
  alive(): boolean;
  /** What it wrote to stdout and stderr (the last 40,000 characters). */
  output(): string;
  /** Sends a signal to the worker process itself (SIGTERM: its own shutdown; SIGKILL: it dies at once). */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL to its whole process group (the worker and its model processes): cleanup after a test. */
  killGroup(): void;
}

/**
 * Starts api/src/worker.ts (tsx's loader in the worker's own process, so a signal reaches the worker
 * itself; its own process group, so killGroup() reaches its model processes too) with env on top of
 * this process's environment; resolves once it printed that it works.
 */
export async function startWorkerProcess(env: Record<string, string>, timeoutMs = 180_000): Promise<WorkerProcess> {
  const started = spawnEntryPoint('src/worker.ts', env, 40_000);
  const { child } = started;
  let running = true;
  const exited = started.exited.then((exit) => {
    running = false;
    return exit;
  });
  const pid = child.pid!;
  const worker: WorkerProcess = {
    pid,
    exited,
    alive: () => running,
    output: started.output,
    signal: (signal) => {
      if (running) child.kill(signal);
    },
    killGroup: started.killGroup,
  };
  const ready = new RegExp(`worker ${pid}: working`);
  const deadline = Date.now() + timeoutMs;
  while (!ready.test(started.output())) {
    if (!running) throw new Error(`the worker exited while starting:\n${started.output()}`);
    if (Date.now() > deadline) {
      worker.killGroup();
      throw new Error(`the worker did not start working within ${timeoutMs} ms:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return worker;
}

/** The pids of every process below pid (children, their children...), read from /proc (Linux). */
export function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent's pid is the second field after the command's closing parenthesis.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended meanwhile
    }
  }
  const found: number[] = [];
  let generation = [pid];
  while (generation.length > 0) {
    const next = [...parentOf].filter(([, parent]) => generation.includes(parent)).map(([child]) => child);
    found.push(...next);
    generation = next;
  }
  return found;
}

/** A process's command line (empty when it ended). */
export function commandLineOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/**
 * Camera-like race photos (one runner, the BIB on the card; 3-4 MB at the default width of 3200),
 * written into folder by the repository's CLI (api/src/cli/cameraPhotos.ts) in a process of its own;
 * returns the files in the order of bibs.
 */
export function renderCameraPhotos(folder: string, bibs: string[], options: { width?: number; eventCode?: string; eventName?: string } = {}): string[] {
  const args = [
    '--import',
    TSX_LOADER,
    'src/cli/cameraPhotos.ts',
    folder,
    ...bibs,
    ...(options.width ? [`--width=${options.width}`] : []),
    ...(options.eventCode ? [`--event=${options.eventCode}`] : []),
    ...(options.eventName ? [`--name=${options.eventName}`] : []),
  ];
  const run = spawnSync(process.execPath, args, {
    cwd: API_DIR,
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
    encoding: 'utf8',
    maxBuffer: 10 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`cameraPhotos failed (exit ${run.status}): ${run.stderr}`);
  const files = run.stdout.split('\n').filter(Boolean);
  if (files.length !== bibs.length) throw new Error(`cameraPhotos wrote ${files.length} files for ${bibs.length} BIBs: ${run.stdout}`);
  return files;
}

/**
 * A tus upload as the partner page sends it: created, then PATCHed in chunks of chunkBytes (1 MB, as
 * the page does) one after another. Returns the last chunk's answer (receiptOf reads its receipt);
 * throws with the refusal.
 */
export async function tusUploadInChunks(
  endpoint: string,
  token: string,
  file: Buffer,
  meta: Record<string, string>,
  chunkBytes = 1024 * 1024,
): Promise<TusAnswer> {
  const created = await tusCreate(endpoint, token, file.length, meta);
  if (created.status !== 201 || !created.location) throw new Error(`tus create: ${created.status} ${created.text}`);
  let offset = 0;
  for (;;) {
    const answer = await tusPatch(created.location, token, offset, file.subarray(offset, offset + chunkBytes));
    if (answer.status !== 204) throw new Error(`tus patch at ${offset}: ${answer.status} ${answer.text}`);
    offset = Number(answer.headers.get('upload-offset'));
    if (offset >= file.length) return answer;
  }
}
