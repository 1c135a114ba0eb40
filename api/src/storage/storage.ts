import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { S3Client, GetObjectCommand, PutObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { AppConfig } from '../config/config';
import { API_ROUTES } from '@finishline/shared/pure';

/**
 * Object storage for photos, videos and assets. Keys are grouped by prefix:
 * originals/ (never served to a browser before purchase), previews/ (watermarked), thumbs/,
 * public/ (logos, hero and highlight images, certificate backgrounds, served without signature),
 * certificate-photos/ (the photos a certificate is made from, signed for its builder) and
 * certificates/ (the certificates runners made, signed for their session).
 */
export interface ObjectStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  getStream(key: string): Promise<Readable>;
  getBuffer(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  /** A browser URL for key, valid until expiresAt. */
  signedUrl(key: string, expiresAt: Date): Promise<string>;
  publicUrl(key: string): string;
}

export function isServableKey(key: string): boolean {
  return /^(previews|thumbs|public|certificate-photos|certificates)\/[A-Za-z0-9._\-/]+$/.test(key) && !key.includes('..');
}

export function signMediaKey(secret: string, key: string, exp: number): string {
  return crypto.createHmac('sha256', secret).update(`${key}\n${exp}`).digest('base64url');
}

export function verifyMediaSignature(secret: string, key: string, exp: number, sig: string): boolean {
  const expected = Buffer.from(signMediaKey(secret, key, exp));
  const given = Buffer.from(sig);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

class LocalStorage implements ObjectStorage {
  constructor(private readonly dir: string, private readonly config: AppConfig) {}

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

  async getStream(key: string): Promise<Readable> {
    const file = this.file(key);
    if (!(await this.isObject(file))) throw Object.assign(new Error(`No object at ${key}`), { code: 'ENOENT' });
    return fs.createReadStream(file);
  }

  async getBuffer(key: string): Promise<Buffer> {
    return fs.promises.readFile(this.file(key));
  }

  async exists(key: string): Promise<boolean> {
    return this.isObject(this.file(key));
  }

  /** Objects are regular files: a folder of the tree (a key prefix such as "public/") is no object, as in S3. */
  private async isObject(file: string): Promise<boolean> {
    try {
      return (await fs.promises.stat(file)).isFile();
    } catch {
      return false;
    }
  }

  async signedUrl(key: string, expiresAt: Date): Promise<string> {
    const exp = Math.floor(expiresAt.getTime() / 1000);
    const sig = signMediaKey(this.config.signingSecret, key, exp);
    return `${this.config.publicApiUrl}${API_ROUTES.media}/${key}?exp=${exp}&sig=${sig}`;
  }

  publicUrl(key: string): string {
    return `${this.config.publicApiUrl}${API_ROUTES.media}/${key}`;
  }
}

class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  constructor(private readonly bucket: string, region: string, endpoint: string | null, private readonly config: AppConfig) {
    this.client = new S3Client({ region, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async getStream(key: string): Promise<Readable> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return out.Body as Readable;
  }

  async getBuffer(key: string): Promise<Buffer> {
    const stream = await this.getStream(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch {
      return false;
    }
  }

  async signedUrl(key: string, expiresAt: Date): Promise<string> {
    const expiresIn = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn });
  }

  publicUrl(key: string): string {
    // Public assets are proxied by the API so the bucket itself can stay private.
    return `${this.config.publicApiUrl}${API_ROUTES.media}/${key}`;
  }
}

export function createStorage(config: AppConfig): ObjectStorage {
  if (config.storage.kind === 's3') return new S3Storage(config.storage.bucket, config.storage.region, config.storage.endpoint, config);
  return new LocalStorage(config.storage.dir, config);
}
