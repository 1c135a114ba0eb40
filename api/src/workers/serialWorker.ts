import { Worker, type Transferable } from 'node:worker_threads';

/**
 * A worker thread that serves one request at a time, for model work that must not run on the API's
 * thread (the face detector, the BIB reader): one set of model memory, and the event loop stays free.
 *
 * The worker script answers `{ ready: true }` (or `{ ready: false, error }`) once its models are
 * loaded, then one reply per request: `{ id, ...result }` or `{ id, error }`. Requests wait in
 * lanes, the first lane first (a selfie before the next photo to index). An idle worker is unref'd,
 * so a script or a test ends without closing it.
 */
export type WorkerReply<Result> = ({ id: number } & Result) | { id: number; error: string };

interface Pending<Result> {
  id: number;
  message: Record<string, unknown>;
  transfer: Transferable[];
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

export class SerialWorker<Result extends object, Lane extends string = 'default'> {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly queues: Record<string, Array<Pending<Result>>>;
  private inFlight: Pending<Result> | null = null;
  private nextId = 1;

  /**
   * @param script the worker's bootstrap file
   * @param name what the errors call it ("face detector", "BIB reader")
   * @param lanes the request lanes, most urgent first
   */
  constructor(
    private readonly script: URL,
    private readonly name: string,
    private readonly lanes: readonly Lane[] = ['default' as Lane],
  ) {
    this.queues = Object.fromEntries(lanes.map((lane) => [lane, []]));
  }

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(this.script);
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.once('message', (message: { ready?: boolean; error?: string }) => {
        if (message.ready === true) resolve();
        else reject(new Error(`${this.name}: models failed to load: ${message.error ?? 'unknown error'}`));
      });
      worker.once('error', reject);
    });
    worker.on('message', (message: WorkerReply<Result> | { ready: boolean }) => {
      if ('ready' in message) return;
      const current = this.inFlight;
      if (!current || current.id !== message.id) return;
      this.inFlight = null;
      if ('error' in message && typeof message.error === 'string') current.reject(new Error(message.error));
      else current.resolve(message as Result);
      this.pump();
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => {
      this.worker = null;
      this.ready = null;
      if (code !== 0) this.failAll(new Error(`${this.name}: worker exited with code ${code}`));
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private failAll(error: Error): void {
    const waiting = [...(this.inFlight ? [this.inFlight] : []), ...this.lanes.flatMap((lane) => this.queues[lane]!.splice(0))];
    this.inFlight = null;
    for (const pending of waiting) pending.reject(error);
  }

  private pump(): void {
    if (this.inFlight || !this.worker) return;
    let next: Pending<Result> | undefined;
    for (const lane of this.lanes) {
      next = this.queues[lane]!.shift();
      if (next) break;
    }
    if (!next) {
      this.worker.unref();
      return;
    }
    this.worker.ref();
    this.inFlight = next;
    this.worker.postMessage({ id: next.id, ...next.message }, next.transfer);
  }

  /** Loads the models now rather than on the first request; rejects when they cannot load. */
  async warmUp(): Promise<void> {
    await this.start();
    this.pump();
  }

  /** Queues a request; `transfer` lists buffers handed to the worker rather than copied. */
  async run(message: Record<string, unknown>, lane: Lane = this.lanes[0]!, transfer: Transferable[] = []): Promise<Result> {
    const result = new Promise<Result>((resolve, reject) => {
      this.queues[lane]!.push({ id: this.nextId++, message, transfer, resolve, reject });
    });
    try {
      await this.start();
    } catch (error) {
      this.failAll(error instanceof Error ? error : new Error(String(error)));
    }
    this.pump();
    return result;
  }

  /** Requests waiting or running (for progress reports). */
  get backlog(): number {
    return this.lanes.reduce((sum, lane) => sum + this.queues[lane]!.length, this.inFlight ? 1 : 0);
  }

  /** Fails what waits and stops the thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.failAll(new Error(`${this.name} closed`));
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }
}
