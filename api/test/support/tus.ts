import http from 'node:http';
import type { UploadReceipt } from '@finishline/shared/pure';

/** A tus 1.0 client spoken by hand, so tests can cut an upload where they like. */
export interface TusAnswer {
  status: number;
  headers: Headers;
  text: string;
}

const TUS = { 'tus-resumable': '1.0.0' };
const auth = (token: string | null): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

export function tusMetadata(meta: Record<string, string>): string {
  return Object.entries(meta)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

export async function tusCreate(
  endpoint: string,
  token: string | null,
  size: number,
  meta: Record<string, string>,
): Promise<TusAnswer & { location: string | null }> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { ...TUS, ...auth(token), 'upload-length': String(size), 'upload-metadata': tusMetadata(meta) },
  });
  const location = res.headers.get('location');
  return { status: res.status, headers: res.headers, text: await res.text(), location: location ? new URL(location, endpoint).href : null };
}

export async function tusPatch(url: string, token: string | null, offset: number, chunk: Buffer): Promise<TusAnswer> {
  const res = await fetch(url, {
    method: 'PATCH',
    headers: { ...TUS, ...auth(token), 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(chunk),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export async function tusOffset(url: string, token: string | null): Promise<{ status: number; offset: number }> {
  const res = await fetch(url, { method: 'HEAD', headers: { ...TUS, ...auth(token) } });
  return { status: res.status, offset: Number(res.headers.get('upload-offset') ?? -1) };
}

/**
 * Sends `chunk` as a PATCH but drops the connection after `cutAfter` bytes, as a train tunnel or a
 * closed laptop lid does. Resolves once the socket is gone.
 */
export function tusPatchCut(url: string, token: string, offset: number, chunk: Buffer, cutAfter: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'PATCH',
      headers: {
        ...TUS,
        ...auth(token),
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(chunk.length),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(chunk.subarray(0, cutAfter), () => setTimeout(() => req.destroy(), 300));
  });
}

export function receiptOf(answer: TusAnswer): UploadReceipt {
  const header = answer.headers.get('upload-receipt');
  if (!header) throw new Error(`no receipt: ${answer.status} ${answer.text}`);
  return JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as UploadReceipt;
}

/** Uploads a whole file in one PATCH; returns the last answer (with the receipt, or the refusal). */
export async function tusUpload(endpoint: string, token: string, file: Buffer, meta: Record<string, string>): Promise<TusAnswer> {
  const created = await tusCreate(endpoint, token, file.length, meta);
  if (created.status !== 201 || !created.location) return created;
  return tusPatch(created.location, token, 0, file);
}
