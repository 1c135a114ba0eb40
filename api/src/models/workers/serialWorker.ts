import { fork, type ChildProcess } from 'node:child_process';
import { modelSettings } from '../../config/config';

/**
 * A child process that serves one request at a time, for model work that must not run in the API's
 * process (the face detector, the BIB reader): the models' sessions and their activations (a BIB
 * detection holds 350-420 MB for a moment) count in the child's resident size, not the API's, the
 * event loop stays free, and a child whose memory crept up is replaced between requests.
 *
 * Why a child process and not a worker thread or a pool library: a thread shares the process, so its
 * memory is the API's; the pool libraries (piscina, workerpool, tinypool) add queues, idle timeouts
 * and their own restart policies around what is here one child, one request at a time, with lanes.
 *
 * The child script (see childServer.ts) answers `{ ready: true }` (or `{ ready: false, error }`)
 * once its models are loaded, then one reply per request: `{ id, ...result, memory }` or
 * `{ id, error, memory }`. Messages use the 'advanced' serialization: Buffers and typed arrays go
 * as bytes (no base64), the rules' RegExp and Set as they are. Requests wait in lanes, the first lane
 * first (a selfie before the next photo to index). An idle child is unref'd, so a script or a test
 * ends without closing it; the child ends itself when its parent is gone (the IPC channel closes).
 */
export type WorkerReply<Result> = ({ id: number } & Result) | { id: number; error: string };

/** What the child reports with each reply: its resident size now and its high-water mark, in bytes. */
export interface ChildMemory {
  rss: number;
  peakRss: number;
}

interface Pending<Result> {
  id: number;
  message: Record<string, unknown>;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

export interface SerialWorkerOptions {
  /**
   * Replace the child between requests once its resident size is above this (bytes); 0: never.
   * Default: MODEL_PROCESS_MAX_RSS_MB (see docs/configuration.md).
   */
  maxRss?: number;
  /**
   * Stop the child once it has had nothing to do for this long (ms); the next request starts a new one
   * (its models load again). 0 (the default): keep it. For a process that holds much memory between
   * requests (the BIB reader's arena) and whose requests are background work that can wait a load.
   */
  idleMs?: number;
}

/** A model process's figures, for benchmarks and logs. */
export interface ModelProcessStats {
  name: string;
  pid: number | null;
  /** Resident size after the last request, and the highest high-water mark of any of its processes. */
  rss: number;
  peakRss: number;
  /** Children started after the first one (one died, was replaced for its memory, or was let go when idle). */
  restarts: number;
}

const CHILD_BOOTSTRAP = new URL('./childBootstrap.mjs', import.meta.url);
const live = new Set<ChildProcess>();
const handles = new Set<SerialWorker<object, string>>();
// A parent that exits without closing (a script's last line, a failed test run) takes its children along.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Every model process handle of this process, with its figures. */
export function modelProcessStats(): ModelProcessStats[] {
  return [...handles].map((handle) => handle.stats());
}

function defaultMaxRss(): number {
  return modelSettings().modelProcessMaxRssBytes;
}

export class SerialWorker<Result extends object, Lane extends string = 'default'> {
  private child: ChildProcess | null = null;
  /** The child once its models are loaded: only then are requests sent to it. */
  private readyChild: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private readonly queues: Record<string, Array<Pending<Result>>>;
  private inFlight: Pending<Result> | null = null;
  private nextId = 1;
  private readonly maxRss: number;
  private started = 0;
  private lastRss = 0;
  private peakRss = 0;
  private readonly idleMs: number;
  private idleTimer: NodeJS.Timeout | null = null;

  /**
   * @param workerModule the child's module, without an extension (`new URL('./bibWorker', import.meta.url)`):
   *   childBootstrap.mjs loads it, compiled or from its TypeScript source
   * @param name what the errors call it ("face detector", "BIB reader")
   * @param lanes the request lanes, most urgent first
   */
  constructor(
    private readonly workerModule: URL,
    private readonly name: string,
    private readonly lanes: readonly Lane[] = ['default' as Lane],
    options: SerialWorkerOptions = {},
  ) {
    this.queues = Object.fromEntries(lanes.map((lane) => [lane, []]));
    this.maxRss = options.maxRss ?? defaultMaxRss();
    this.idleMs = Math.max(0, options.idleMs ?? 0);
  }

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    // No inherited flags (Jest's, tsx's): the bootstrap registers the TypeScript loader itself.
    const child = fork(CHILD_BOOTSTRAP, [this.workerModule.href], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.started += 1;
    this.child = child;
    handles.add(this as unknown as SerialWorker<object, string>);
    live.add(child);
    const ready = new Promise<void>((resolve, reject) => {
      child.once('message', (message: { ready?: boolean; error?: string }) => {
        if (message.ready === true) {
          this.readyChild = child;
          resolve();
        } else reject(new Error(`${this.name}: models failed to load: ${message.error ?? 'unknown error'}`));
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`${this.name}: its process ended (${signal ?? `code ${code}`}) before its models loaded`)));
    });
    this.ready = ready;
    child.on('message', (message: (WorkerReply<Result> & { memory?: ChildMemory }) | { ready: boolean }) => {
      if ('ready' in message) return;
      const current = this.inFlight;
      if (!current || current.id !== message.id) return;
      this.inFlight = null;
      const { id: _id, memory, ...rest } = message;
      if (memory) this.noteMemory(memory);
      if ('error' in rest && typeof rest.error === 'string') current.reject(new Error(rest.error));
      else current.resolve(rest as unknown as Result);
      // Between requests: a child whose resident size crept above the ceiling is replaced.
      if (memory && this.maxRss > 0 && memory.rss > this.maxRss) this.retire(child);
      this.pump();
    });
    child.on('error', (error) => {
      if (this.child === child) this.failInFlight(new Error(`${this.name}: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      live.delete(child);
      if (this.child !== child) return; // retired or closed: already replaced
      const wasReady = this.readyChild === child;
      this.child = null;
      this.readyChild = null;
      this.ready = null;
      // The request it was serving fails (the photo queue retries its job); the others wait for a new child.
      this.failInFlight(new Error(`${this.name}: its process ended (${signal ?? `code ${code}`}) during this request`));
      // One that died while loading has failed what waits (through its start); no restart loop.
      if (wasReady) this.pump();
    });
    ready.catch(() => undefined);
    return ready;
  }

  private noteMemory(memory: ChildMemory): void {
    this.lastRss = memory.rss;
    this.peakRss = Math.max(this.peakRss, memory.peakRss);
  }

  /** Stops a child between requests; the next request starts a new one. */
  private retire(child: ChildProcess): void {
    if (this.child === child) {
      this.child = null;
      this.readyChild = null;
      this.ready = null;
    }
    child.kill('SIGTERM');
  }

  private failInFlight(error: Error): void {
    const current = this.inFlight;
    this.inFlight = null;
    current?.reject(error);
  }

  private failAll(error: Error): void {
    const waiting = [...(this.inFlight ? [this.inFlight] : []), ...this.lanes.flatMap((lane) => this.queues[lane]!.splice(0))];
    this.inFlight = null;
    for (const pending of waiting) pending.reject(error);
  }

  private setRef(child: ChildProcess, on: boolean): void {
    if (on) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** With idleMs, a child that stays without work that long is stopped (its memory goes back to the system). */
  private startIdleTimer(child: ChildProcess): void {
    this.clearIdleTimer();
    if (this.idleMs <= 0) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.child === child && this.backlog === 0) this.retire(child);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private pump(): void {
    if (this.inFlight) return;
    if (!this.lanes.some((lane) => this.queues[lane]!.length > 0)) {
      if (this.child) {
        this.setRef(this.child, false);
        if (this.readyChild === this.child) this.startIdleTimer(this.child);
      }
      return;
    }
    this.clearIdleTimer();
    const child = this.readyChild;
    if (!child || !child.connected) {
      // No child yet, or its replacement is loading: send once it is ready.
      this.start().then(
        () => this.pump(),
        (error: unknown) => this.failAll(error instanceof Error ? error : new Error(String(error))),
      );
      return;
    }
    let next: Pending<Result> | undefined;
    for (const lane of this.lanes) {
      next = this.queues[lane]!.shift();
      if (next) break;
    }
    if (!next) return;
    this.setRef(child, true);
    this.inFlight = next;
    child.send({ id: next.id, ...next.message }, (error) => {
      if (error && this.inFlight === next) this.failInFlight(new Error(`${this.name}: could not send the request: ${error.message}`));
    });
  }

  /** Loads the models now rather than on the first request; rejects when they cannot load. */
  async warmUp(): Promise<void> {
    await this.start();
    this.pump();
  }

  /** Queues a request; its Buffers and typed arrays are copied to the child. */
  async run(message: Record<string, unknown>, lane: Lane = this.lanes[0]!): Promise<Result> {
    const result = new Promise<Result>((resolve, reject) => {
      this.queues[lane]!.push({ id: this.nextId++, message, resolve, reject });
    });
    this.pump();
    return result;
  }

  /** Requests waiting or running (for progress reports). */
  get backlog(): number {
    return this.lanes.reduce((sum, lane) => sum + this.queues[lane]!.length, this.inFlight ? 1 : 0);
  }

  stats(): ModelProcessStats {
    return { name: this.name, pid: this.child?.pid ?? null, rss: this.lastRss, peakRss: this.peakRss, restarts: Math.max(0, this.started - 1) };
  }

  /** Fails what waits and stops the child (waits for it to end). */
  async close(): Promise<void> {
    this.clearIdleTimer();
    const child = this.child;
    this.failAll(new Error(`${this.name} closed`));
    this.child = null;
    this.readyChild = null;
    this.ready = null;
    handles.delete(this as unknown as SerialWorker<object, string>);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
