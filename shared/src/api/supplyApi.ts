import { API_ROUTES } from './routes';
import { get, post } from '@finishline/shared/runtime';
import type { PhotoIdRequest, SetPhotoBibsRequest, SupplyEvent, SupplyEventRequest, SupplyPhoto, SupplyPhotosResult } from '../types/supply';

/** Typed calls of the photographer's upload and review screens (the files themselves go over tus to API_ROUTES.partnerUploads). */
export const supplyApi = {
  events: () => get<SupplyEvent[]>(API_ROUTES.partnerSupplyEvents),
  photos: (body: SupplyEventRequest) => post<SupplyPhotosResult>(API_ROUTES.partnerPhotos, body),
  setBibs: (body: SetPhotoBibsRequest) => post<SupplyPhoto>(API_ROUTES.partnerPhotoBibs, body),
  removePhoto: (body: PhotoIdRequest) => post<{ removed: number }>(API_ROUTES.partnerRemovePhoto, body),
};
