// The supply feature's public entry: uploads, the clip plan of finish-line videos and what the
// pipeline (api/src/pipeline) needs of stored photos.
export { acceptPhotoFile } from './uploads';
export { cleanStoredOriginals, ensureOriginalsClean, type CleaningReport } from './originalsCleaning';
// The demo seed films its finish line and sends it through the same acceptance and clock.
export { planClips, type ClipPiece, type VideoRow } from './videoClips';
export { acceptVideoFile, finishersOf } from './videoFiles';
export { deleteStoredPhoto, type StoredPhotoKeys } from './storedFiles';
export { mailPreordersOfBibs } from './preorderNotice';
