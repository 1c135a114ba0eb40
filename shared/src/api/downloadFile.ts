import type { AxiosRequestConfig } from 'axios';
import { ApiError, http } from '@finishline/shared/runtime';

/**
 * A file the server sends as bytes (a print file, a batch zip, a CSV), fetched with the session's
 * token. An error answer arrives as JSON inside the blob: its Message becomes the ApiError, so the
 * screen shows the server's words ("The print-ready file of this line is not made yet...") rather
 * than a bare HTTP status.
 */
export async function downloadFile(config: AxiosRequestConfig): Promise<Blob> {
  return (await downloadNamedFile(config)).blob;
}

/** As downloadFile, with the file name the server gave (Content-Disposition), when it gave one. */
export async function downloadNamedFile(config: AxiosRequestConfig): Promise<{ blob: Blob; fileName: string | null }> {
  let response;
  try {
    response = await http.request<Blob>({ ...config, responseType: 'blob', validateStatus: () => true });
  } catch (error) {
    throw new ApiError(error instanceof Error ? error.message : 'Network error', 0, 'network');
  }
  if (response.status < 400) {
    const disposition = String(response.headers['content-disposition'] ?? '');
    return { blob: response.data, fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null };
  }
  let message = `The download failed (HTTP ${response.status}). Please try again.`;
  try {
    const body = JSON.parse(await response.data.text()) as { Message?: unknown };
    if (typeof body.Message === 'string' && body.Message) message = body.Message;
  } catch {
    // Not the API's envelope (a proxy's error page): keep the general message.
  }
  throw new ApiError(message, response.status, 'http');
}
