import { FaceEngine, type AnalysisMode, type ImageFaces } from './engine';
import { serveRequests } from '../workers/childServer';

/**
 * Child process that owns the face models. Detection is CPU-bound WASM work (about 150 ms a photo);
 * running it here keeps the API's event loop free and the models' memory out of the API's process.
 */
export interface DetectRequest {
  id: number;
  image: Uint8Array;
  mode: AnalysisMode;
}

serveRequests(
  () => FaceEngine.load(),
  (engine, request: DetectRequest): Promise<ImageFaces> =>
    engine.analyse(Buffer.from(request.image.buffer, request.image.byteOffset, request.image.byteLength), request.mode),
);
