import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  S3Client,
  GetObjectCommand,
  PutObjectCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
  CompleteMultipartUploadCommand,
  AbortMultipartUploadCommand,
  HeadObjectCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { AppConfig } from '../config/config';
import { API_ROUTES } from '@finishline/shared/pure';
import { mapFileError, mapS3Error, ObjectNotFoundError } from './errors';

export { ObjectNotFoundError, StorageError, StorageUnavailableError } from './errors';

/** An object's key and its size in bytes, as a listing gives it. */
export interface StoredObject {
  key: string;
  size: number;
}

/**
 * Object storage for photos, videos and assets. Keys are grouped by prefix:
 * originals/ (never served to a browser before purchase), previews/ (watermarked), thumbs/,
 * public/ (logos, hero and highlight images, certificate backgrounds, served without signature),
 * certificate-photos/ (the photos a certificate is made from, signed for its builder) and
 * certificates/ (the certificates runners made, signed for their session).
 *
 * Failures are told apart (storage/errors.ts): a missing object throws ObjectNotFoundError, a busy
 * or unreachable storage StorageUnavailableError (503), anything else StorageError.
 */
export interface ObjectStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Stores a file from the local disk without reading it into memory (a finish-line video of GBs). */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /**
   * Where FFmpeg in this process reads the object from without copying it whole: the file's path on
   * the local disk, or a URL signed for the bucket's own endpoint (FFmpeg seeks it by range requests).
   */
  readLocation(key: string, expiresAt: Date): Promise<string>;
  getStream(key: string): Promise<Readable>;
  getBuffer(key: string): Promise<Buffer>;
  /** The object's size, or null when there is no object at key (other failures throw). */
  stat(key: string): Promise<{ size: number } | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; removing one that is not there is no error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with prefix, in no promised order, read page by page. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** A browser URL for key, valid until expiresAt; a public/ key gets its stable public URL. */
  signedUrl(key: string, expiresAt: Date): Promise<string>;
  /** The stable URL of a public/ object (MEDIA_PUBLIC_URL, else the API's media route). */
  publicUrl(key: string): string;
}

export function isServableKey(key: string): boolean {
  return /^(previews|thumbs|public|certificate-photos|certificates)\/[A-Za-z0-9._\-/]+$/.test(key) && !key.includes('..');
}

export const isPublicKey = (key: string) => key.startsWith('public/');

export function signMediaKey(secret: string, key: string, exp: number): string {
  return crypto.createHmac('sha256', secret).update(`${key}\n${exp}`).digest('base64url');
}

export function verifyMediaSignature(secret: string, key: string, exp: number, sig: string): boolean {
  const expected = Buffer.from(signMediaKey(secret, key, exp));
  const given = Buffer.from(sig);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** Where browsers fetch public objects: MEDIA_PUBLIC_URL (a CDN) or the API's own media route. */
function mediaBase(config: AppConfig): string {
  return (config.mediaPublicUrl ?? `${config.publicApiUrl}${API_ROUTES.media}`).replace(/\/+$/, '');
}

/** In-progress files of put() end so; they are no objects. */
const TEMP_FILE = /\.\d+\.[0-9a-f]{8}\.tmp$/;

class LocalStorage implements ObjectStorage {
  constructor(
    private readonly dir: string,
    private readonly config: AppConfig,
  ) {}

  private file(key: string): string {
    const full = path.resolve(this.dir, key);
    if (!full.startsWith(path.resolve(this.dir) + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fs.promises.writeFile(tmp, body);
    await fs.promises.rename(tmp, file);
  }

  async readLocation(key: string): Promise<string> {
    const file = this.file(key);
    if (!fs.existsSync(file)) throw new ObjectNotFoundError(key);
    return file;
  }

  async putFile(key: string, source: string): Promise<void> {
    const file = this.file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fs.promises.copyFile(source, tmp);
    await fs.promises.rename(tmp, file);
  }

  async getStream(key: string): Promise<Readable> {
    const file = this.file(key);
    // Opened here, so a missing file fails this call rather than the stream's first read.
    const handle = await fs.promises.open(file, 'r').catch((error: unknown) => {
      throw mapFileError(error, 'get', key);
    });
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      throw new ObjectNotFoundError(key);
    }
    // 1 MiB reads: a few large reads stream a multi-megabyte original faster than many small ones.
    return handle.createReadStream({ highWaterMark: 1024 * 1024 });
  }

  async getBuffer(key: string): Promise<Buffer> {
    return fs.promises.readFile(this.file(key)).catch((error: unknown) => {
      throw mapFileError(error, 'get', key);
    });
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const stats = await fs.promises.stat(this.file(key));
      // A folder of the tree (a key prefix such as "public/") is no object, as in S3.
      return stats.isFile() ? { size: stats.size } : null;
    } catch (error) {
      const mapped = mapFileError(error, 'stat', key);
      if (mapped instanceof ObjectNotFoundError) return null;
      throw mapped;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.file(key), { force: true }).catch((error: unknown) => {
      throw mapFileError(error, 'delete', key);
    });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    // Start at the deepest folder the prefix names whole; the rest of the prefix filters names.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const root = path.resolve(this.dir);
    const start = folder ? this.file(folder) : root;
    const pending = [start];
    while (pending.length > 0) {
      const dir = pending.pop()!;
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') continue;
        throw mapFileError(error, 'list', prefix);
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        const key = path.relative(root, full).split(path.sep).join('/');
        if (entry.isDirectory()) {
          if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) pending.push(full);
        } else if (entry.isFile() && key.startsWith(prefix) && !TEMP_FILE.test(entry.name)) {
          const stats = await fs.promises.stat(full).catch(() => null);
          if (stats) yield { key, size: stats.size };
        }
      }
    }
  }

  async signedUrl(key: string, expiresAt: Date): Promise<string> {
    if (isPublicKey(key)) return this.publicUrl(key);
    const exp = Math.floor(expiresAt.getTime() / 1000);
    const sig = signMediaKey(this.config.signingSecret, key, exp);
    // Under MEDIA_PUBLIC_URL too: with local storage that is a CDN in front of the API's media route.
    return `${mediaBase(this.config)}/${key}?exp=${exp}&sig=${sig}`;
  }

  publicUrl(key: string): string {
    return `${mediaBase(this.config)}/${key}`;
  }
}

/** S3 accepts signed URLs valid for at most 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
/** Signed URLs are signed as of the start of the hour: the same key and expiry give the same URL within it. */
const SIGNING_WINDOW_MS = 3600_000;

class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  /** Signs browser URLs for S3_PUBLIC_ENDPOINT (the address browsers reach the bucket at) when set. */
  private readonly signer: S3Client;

  constructor(
    private readonly bucket: string,
    region: string,
    endpoint: string | null,
    publicEndpoint: string | null,
    private readonly config: AppConfig,
  ) {
    this.client = new S3Client({ region, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
    this.signer = publicEndpoint ? new S3Client({ region, endpoint: publicEndpoint, forcePathStyle: true }) : this.client;
  }

  private async send<T>(operation: string, key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw mapS3Error(error, operation, key);
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.send('put', key, () => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType })));
  }

  async readLocation(key: string, expiresAt: Date): Promise<string> {
    const expiresIn = Math.max(60, Math.round((expiresAt.getTime() - Date.now()) / 1000));
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn });
  }

  /** A multipart upload in 64 MB parts read from the file one at a time (a single PUT stops at 5 GB). */
  async putFile(key: string, file: string, contentType: string): Promise<void> {
    const size = (await fs.promises.stat(file)).size;
    const PART = 64 * 1024 * 1024;
    if (size <= PART) return this.put(key, await fs.promises.readFile(file), contentType);
    const { UploadId } = await this.send('put', key, () =>
      this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType })),
    );
    try {
      const parts: { ETag: string | undefined; PartNumber: number }[] = [];
      const handle = await fs.promises.open(file, 'r');
      try {
        for (let start = 0, n = 1; start < size; start += PART, n++) {
          const body = Buffer.alloc(Math.min(PART, size - start));
          await handle.read(body, 0, body.length, start);
          const part = await this.send('put', key, () =>
            this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId, PartNumber: n, Body: body })),
          );
          parts.push({ ETag: part.ETag, PartNumber: n });
        }
      } finally {
        await handle.close();
      }
      await this.send('put', key, () =>
        this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } })),
      );
    } catch (error) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  async getStream(key: string): Promise<Readable> {
    const out = await this.send('get', key, () => this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })));
    return out.Body as Readable;
  }

  async getBuffer(key: string): Promise<Buffer> {
    const stream = await this.getStream(key);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    } catch (error) {
      throw mapS3Error(error, 'get', key);
    }
    return Buffer.concat(chunks);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      const mapped = mapS3Error(error, 'head', key);
      if (mapped instanceof ObjectNotFoundError) return null;
      throw mapped;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await this.send('delete', key, () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await this.send('list', prefix, () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token })),
      );
      for (const object of page.Contents ?? []) if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async signedUrl(key: string, expiresAt: Date): Promise<string> {
    if (isPublicKey(key)) return this.publicUrl(key);
    const signingDate = new Date(Math.floor(Date.now() / SIGNING_WINDOW_MS) * SIGNING_WINDOW_MS);
    const expiresIn = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.floor((expiresAt.getTime() - signingDate.getTime()) / 1000)));
    return getSignedUrl(this.signer, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn, signingDate });
  }

  publicUrl(key: string): string {
    // Without MEDIA_PUBLIC_URL public assets are proxied by the API, so the bucket itself can stay private.
    return `${mediaBase(this.config)}/${key}`;
  }
}

export function createStorage(config: AppConfig): ObjectStorage {
  const storage = config.storage;
  if (storage.kind === 's3') return new S3Storage(storage.bucket, storage.region, storage.endpoint, storage.publicEndpoint ?? null, config);
  return new LocalStorage(storage.dir, config);
}
