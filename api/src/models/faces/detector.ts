import { modelSettings } from '../../config/config';
import { SerialWorker, type ModelProcessStats } from '../workers/serialWorker';
import type { DetectedFace, ImageFaces } from './engine';

/**
 * The API's handle on the face detector's child process (faceWorker.ts). Requests queue by priority: a waiting
 * selfie (a person on the page) goes before the next photo of the background indexing job. One
 * request runs at a time because the child has one WASM engine; the machine's other core keeps
 * serving HTTP.
 */
export type DetectPriority = 'selfie' | 'index';

export class FaceDetector {
  private readonly worker: SerialWorker<ImageFaces, DetectPriority>;

  /**
   * @param idleMs its process, with nothing to do for this long, is let go (FACE_MODEL_IDLE_SECONDS,
   *   default 300; 0 keeps it): its models hold about half a GB, needed while photos are indexed or
   *   selfies come in, not on a quiet day. The next request loads them again (about 2 s).
   */
  constructor(idleMs = modelSettings().faceModelIdleMs) {
    this.worker = new SerialWorker<ImageFaces, DetectPriority>(new URL('./faceWorker', import.meta.url), 'face detector', ['selfie', 'index'], { idleMs });
  }

  /** Loads the models now rather than on the first request. */
  async warmUp(): Promise<void> {
    await this.worker.warmUp();
  }

  /** Faces in an encoded image (JPEG, PNG...), each with its descriptor and quality. */
  async detect(image: Buffer, priority: DetectPriority): Promise<DetectedFace[]> {
    return (await this.analyse(image, priority)).faces;
  }

  /** Faces and the size of the analysed image their boxes refer to. */
  async analyse(image: Buffer, priority: DetectPriority): Promise<ImageFaces> {
    // A selfie is analysed as one; a photo to index also in tiles, and only indexable faces come back.
    const { faces, width, height, hint } = await this.worker.run({ image, mode: priority }, priority);
    return { faces, width, height, hint };
  }

  /** Its process's figures (a pid of null: not started, let go when idle, or closed). */
  stats(): ModelProcessStats {
    return this.worker.stats();
  }

  /** Requests waiting or running (for progress reports). */
  get backlog(): number {
    return this.worker.backlog;
  }

  async close(): Promise<void> {
    await this.worker.close();
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
