import { parentPort } from 'node:worker_threads';
import { FaceEngine, type AnalysisMode, type ImageFaces } from './engine';
import type { WorkerReply } from '../../workers/serialWorker';

/**
 * Worker thread that owns the face models. Detection is CPU-bound WASM work (about 150 ms a photo);
 * running it here keeps the API's event loop free to answer requests while photos are indexed.
 */
export interface DetectRequest {
  id: number;
  image: Uint8Array;
  mode: AnalysisMode;
}
export type DetectReply = WorkerReply<ImageFaces>;

const port = parentPort;
if (!port) throw new Error('faceWorker must run in a worker thread');

const engineReady = FaceEngine.load();
// Report a load failure once, so the parent fails fast instead of waiting for a reply.
engineReady.then(
  () => port.postMessage({ ready: true }),
  (error: unknown) => port.postMessage({ ready: false, error: error instanceof Error ? error.message : String(error) }),
);

port.on('message', (request: DetectRequest) => {
  void (async () => {
    try {
      const engine = await engineReady;
      const found = await engine.analyse(Buffer.from(request.image.buffer, request.image.byteOffset, request.image.byteLength), request.mode);
      port.postMessage({ id: request.id, ...found } satisfies DetectReply);
    } catch (error) {
      port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies DetectReply);
    }
  })();
});
