// The faces feature's public entry: what other features and the pipeline may use of face data.
export { deleteEventFaceData } from './eventFaceData';
export { faceIndexStatus, onFacesQueued, queuePhotosForFaces, sweepNewPhotos } from './faceJobs';
export { photosLinkedByFace } from './bibFaceLinks';
// The pipeline's face indexer stores what the detector found through the feature's own store.
export { saveFacesOfPhoto } from './embeddingStore';
