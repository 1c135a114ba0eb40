import { Worker } from 'node:worker_threads';
import type { DetectedFace, ImageFaces } from './engine';
import type { DetectReply } from './faceWorker';

/**
 * The API's handle on the face worker thread. Requests queue by priority: a waiting selfie (a person
 * on the page) goes before the next photo of the background indexing job. One request runs at a time
 * because the worker has one WASM engine; the machine's other core keeps serving HTTP.
 */
export type DetectPriority = 'selfie' | 'index';

interface Pending {
  id: number;
  image: Uint8Array;
  priority: DetectPriority;
  resolve: (found: ImageFaces) => void;
  reject: (error: Error) => void;
}

export class FaceDetector {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly queues: Record<DetectPriority, Pending[]> = { selfie: [], index: [] };
  private inFlight: Pending | null = null;
  private nextId = 1;

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(new URL('./faceWorker.bootstrap.mjs', import.meta.url));
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const onFirst = (message: { ready?: boolean; error?: string }) => {
        if (message.ready === true) resolve();
        else reject(new Error(`face models failed to load: ${message.error ?? 'unknown error'}`));
      };
      worker.once('message', onFirst);
      worker.once('error', reject);
    });
    worker.on('message', (message: DetectReply | { ready: boolean }) => {
      if ('ready' in message) return;
      const current = this.inFlight;
      if (!current || current.id !== message.id) return;
      this.inFlight = null;
      if ('error' in message) current.reject(new Error(message.error));
      else current.resolve({ faces: message.faces, width: message.width, height: message.height, centre: message.centre });
      this.pump();
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => {
      this.worker = null;
      this.ready = null;
      if (code !== 0) this.failAll(new Error(`face worker exited with code ${code}`));
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private failAll(error: Error): void {
    const waiting = [...(this.inFlight ? [this.inFlight] : []), ...this.queues.selfie.splice(0), ...this.queues.index.splice(0)];
    this.inFlight = null;
    for (const p of waiting) p.reject(error);
  }

  private pump(): void {
    if (this.inFlight || !this.worker) return;
    const next = this.queues.selfie.shift() ?? this.queues.index.shift();
    if (!next) {
      // Idle: let a script or test end without closing the detector.
      this.worker.unref();
      return;
    }
    this.worker.ref();
    this.inFlight = next;
    // A selfie is analysed as one; a photo to index also in tiles, and only indexable faces come back.
    this.worker.postMessage({ id: next.id, image: next.image, mode: next.priority });
  }

  /** Loads the models now rather than on the first request. */
  async warmUp(): Promise<void> {
    await this.start();
    this.pump();
  }

  /** Faces in an encoded image (JPEG, PNG...), each with its descriptor and quality. */
  async detect(image: Buffer, priority: DetectPriority): Promise<DetectedFace[]> {
    return (await this.analyse(image, priority)).faces;
  }

  /** Faces and the size of the analysed image their boxes refer to. */
  async analyse(image: Buffer, priority: DetectPriority): Promise<ImageFaces> {
    const copy = new Uint8Array(image); // the worker gets its own copy
    const result = new Promise<ImageFaces>((resolve, reject) => {
      this.queues[priority].push({ id: this.nextId++, image: copy, priority, resolve, reject });
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
    return this.queues.selfie.length + this.queues.index.length + (this.inFlight ? 1 : 0);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.failAll(new Error('face detector closed'));
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }
}

let processDetector: FaceDetector | null = null;

/** The process-wide detector (one set of models per process). */
export function faceDetector(): FaceDetector {
  processDetector ??= new FaceDetector();
  return processDetector;
}

export async function closeFaceDetector(): Promise<void> {
  const detector = processDetector;
  processDetector = null;
  if (detector) await detector.close();
}
