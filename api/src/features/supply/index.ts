// The supply feature's public entry: the worker that processes uploaded photos (started by main).
export { startSupplyWorker, processPhoto, PHOTO_QUEUE, type SupplyWorker } from './pipeline';
export { acceptPhotoFile } from './uploads';
export { definePhotoQueue, PHOTO_HEARTBEAT_SECONDS } from './pipeline';
export { cleanStoredOriginals, ensureOriginalsClean, type CleaningReport } from './originalsCleaning';
export { startVideoWorker, VIDEO_QUEUE, type VideoWorker } from './videoClips';
// The demo seed films its finish line and sends it through the same acceptance, clock and cutter.
export { cutClips, planClips, type ClipPiece, type VideoRow } from './videoClips';
export { acceptVideoFile, finishersOf } from './videoFiles';
