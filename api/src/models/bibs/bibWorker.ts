import type { BibReading, BibRules } from './index';
import { createModelBibReader } from './modelReader';
import { serveRequests } from '../workers/childServer';

/**
 * Child process that owns the PP-OCR models. onnxruntime-node runs a model on the calling thread
 * (about 0.65 s of CPU a photo) and a detection holds 350-420 MB (kept in ONNX Runtime's arena while photos come): reading here keeps the
 * API's event loop free and that memory out of the API's process.
 * Photo in, readings out (the rules' RegExp and Set go as they are with the 'advanced' serialization).
 */
export interface ReadRequest {
  id: number;
  image: Uint8Array;
  rules: BibRules;
}

serveRequests(createModelBibReader, async (reader, request: ReadRequest): Promise<{ readings: BibReading[] }> => ({
  readings: await reader.read(Buffer.from(request.image.buffer, request.image.byteOffset, request.image.byteLength), request.rules),
}));
