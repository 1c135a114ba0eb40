import { API_ROUTES } from './routes';
import { get, getRuntimeConfig, post } from '@finishline/shared/runtime';
import { STORAGE_KEYS } from '../storageKeys';
import { localStore } from '../storage/localStore';
import type { PhotoIdRequest, SetPhotoBibsRequest, SupplyEvent, SupplyEventRequest, SupplyPhoto, SupplyPhotosResult, UploadReceipt } from '../types/supply';

/** Typed calls of the photographer's upload and review screens (the files themselves go over tus to API_ROUTES.partnerUploads). */
export const supplyApi = {
  events: () => get<SupplyEvent[]>(API_ROUTES.partnerSupplyEvents),
  photos: (body: SupplyEventRequest) => post<SupplyPhotosResult>(API_ROUTES.partnerPhotos, body),
  setBibs: (body: SetPhotoBibsRequest) => post<SupplyPhoto>(API_ROUTES.partnerPhotoBibs, body),
  removePhoto: (body: PhotoIdRequest) => post<{ removed: number }>(API_ROUTES.partnerRemovePhoto, body),
};

/** Where the browser's tus client sends files, and the session header it sends with every request. */
export function supplyUploadTarget(): { endpoint: string; headers: Record<string, string> } {
  const token = localStore.get(STORAGE_KEYS.sessionToken);
  return { endpoint: `${getRuntimeConfig().apiBaseUrl}${API_ROUTES.partnerUploads}`, headers: token ? { Authorization: `Bearer ${token}` } : {} };
}

/** The UploadReceipt the last chunk's answer carries (base64 JSON in the Upload-Receipt header). */
export function readUploadReceipt(header: string | null | undefined): UploadReceipt | null {
  if (!header) return null;
  try {
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(header), (c) => c.charCodeAt(0)))) as UploadReceipt;
  } catch {
    return null;
  }
}
