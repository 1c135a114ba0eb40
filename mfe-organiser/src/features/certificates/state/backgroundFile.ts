import { CERTIFICATE_BACKGROUND_MAX_BYTES, CERTIFICATE_SETTINGS_MESSAGES } from '@finishline/shared';

export const BACKGROUND_MAX_MB = CERTIFICATE_BACKGROUND_MAX_BYTES / 1024 / 1024;

/** Why a chosen background file cannot be sent (the server checks the same again), or null. */
export function backgroundFileProblem(file: File): string | null {
  if (!['image/jpeg', 'image/png'].includes(file.type)) return CERTIFICATE_SETTINGS_MESSAGES.background;
  if (file.size > CERTIFICATE_BACKGROUND_MAX_BYTES) return CERTIFICATE_SETTINGS_MESSAGES.backgroundSize;
  return null;
}

/** The file as a data: URL, the form the background routes take. */
export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
