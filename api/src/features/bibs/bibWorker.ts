import { parentPort } from 'node:worker_threads';
import type { BibReading, BibRules } from './index';
import { createModelBibReader } from './modelReader';
import type { WorkerReply } from '../../workers/serialWorker';

/**
 * Worker thread that owns the PP-OCR models. onnxruntime-node runs a model on the calling thread
 * (about 1 s of CPU a photo): reading here keeps the API's event loop free to answer requests.
 * Photo in, readings out: both are small, plain messages (the rules' RegExp and Set clone as they are).
 */
export interface ReadRequest {
  id: number;
  image: Uint8Array;
  rules: BibRules;
}
export type ReadReply = WorkerReply<{ readings: BibReading[] }>;

const port = parentPort;
if (!port) throw new Error('bibWorker must run in a worker thread');

const readerReady = createModelBibReader();
// Report a load failure once, so the parent fails fast instead of waiting for a reply.
readerReady.then(
  () => port.postMessage({ ready: true }),
  (error: unknown) => port.postMessage({ ready: false, error: error instanceof Error ? error.message : String(error) }),
);

port.on('message', (request: ReadRequest) => {
  void (async () => {
    try {
      const reader = await readerReady;
      const readings = await reader.read(Buffer.from(request.image.buffer, request.image.byteOffset, request.image.byteLength), request.rules);
      port.postMessage({ id: request.id, readings } satisfies ReadReply);
    } catch (error) {
      port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies ReadReply);
    }
  })();
});
