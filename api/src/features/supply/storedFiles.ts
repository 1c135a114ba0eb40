import type { AppContext } from '../../context';

export interface StoredPhotoKeys {
  [column: string]: unknown;
  original_key: string;
  preview_key: string;
  thumb_key: string;
}

/**
 * Deletes a removed photo's original and renditions from object storage. The photo's rows are gone
 * already, so a file that cannot be deleted now is only logged (it is unreachable: no row names it).
 */
export async function deleteStoredPhoto(ctx: AppContext, keys: StoredPhotoKeys, warn: (message: string) => void): Promise<void> {
  const results = await Promise.allSettled([keys.original_key, keys.preview_key, keys.thumb_key].map((key) => ctx.storage.delete(key)));
  for (const result of results) {
    if (result.status === 'rejected')
      warn(`supply: a removed photo's file was not deleted: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`);
  }
}
