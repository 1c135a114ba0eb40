// The discovery feature's public entry: one page of an event's photos of a BIB (or unlabeled), as the
// paginate call answers it, with the privacy and report rules applied.
export { paginatePhotos } from './queries';
