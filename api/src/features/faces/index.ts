// The faces feature's public entry: what other features may use of face data.
export { deleteEventFaceData } from './eventFaceData';
export { queuePhotosForFaces } from './indexer';
export { photosLinkedByFace } from './bibFaceLinks';
