// The search feature's public entry: what a search result of an event carries beside its photos
// (the selfie search answers in the same shape).
export { eventShopInfo, visiblePhotosOfBib, type EventShopInfo } from './bibSearch';
