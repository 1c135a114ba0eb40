import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PGLITE_SHARED_BUFFERS, PGLITE_SHARED_BUFFERS_FORMAT } from '../db/pgliteSettings';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Repository root (api/src/config -> ../../..). */
export const REPO_ROOT = path.resolve(here, '../../..');

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number.parseInt(raw, 10);
  if (Number.isNaN(value)) throw new Error(`${name} must be a number, got "${raw}"`);
  return value;
}

function str(name: string, fallback: string): string {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

function pgliteSharedBuffers(): string {
  const value = str('PGLITE_SHARED_BUFFERS', DEFAULT_PGLITE_SHARED_BUFFERS);
  if (!PGLITE_SHARED_BUFFERS_FORMAT.test(value)) throw new Error(`PGLITE_SHARED_BUFFERS must be a size such as 32MB (kB, MB or GB), got "${value}"`);
  return value;
}

/** An optional http(s) address without its trailing slash; anything else is refused by name. */
function optionalUrl(name: string): string | null {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) address, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) address, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/**
 * Fastify's trustProxy from TRUST_PROXY: off by default (the socket's address is the client), a hop
 * count ("1" behind one load balancer) or a comma-separated list of proxy addresses / CIDR ranges.
 * "true" is refused: believing every X-Forwarded-For lets anyone choose their own address.
 */
export function parseTrustProxy(raw: string | undefined): false | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false' || value === 'off' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number.parseInt(value, 10);
  if (value === 'true') throw new Error('TRUST_PROXY must be a hop count (e.g. 1) or a list of proxy addresses, not "true"');
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Secrets that are generated on first start when not configured, and kept in the data folder. */
export interface GeneratedSecrets {
  signingSecret: string;
  payuSalt: string;
  /** AES-256 key (base64, 32 bytes) for partners' bank account numbers and PANs at rest. */
  partnerDataKey: string;
}

/**
 * Reads DATA_DIR/secrets.json, creating it with fresh random values the first time. The file is
 * created exclusively, so the API and the payment sandbox starting together agree on one set.
 */
export function generatedSecrets(dataDir: string): GeneratedSecrets {
  const file = path.join(dataDir, 'secrets.json');
  const fresh: GeneratedSecrets = {
    signingSecret: crypto.randomBytes(32).toString('base64url'),
    payuSalt: crypto.randomBytes(24).toString('base64url'),
    partnerDataKey: crypto.randomBytes(32).toString('base64'),
  };
  fs.mkdirSync(dataDir, { recursive: true });
  // Written whole to a private file, then linked into place: link fails if another process won the
  // race, and a reader never sees a half-written file (a plain 'wx' write could be read empty).
  const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(draft, JSON.stringify(fresh, null, 2), { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<GeneratedSecrets>;
  // A file written by an older version may lack a newer secret: add it once.
  if (!stored.signingSecret || !stored.payuSalt || !stored.partnerDataKey) {
    const completed = { ...fresh, ...stored };
    fs.writeFileSync(file, JSON.stringify(completed, null, 2), { mode: 0o600 });
    return completed as GeneratedSecrets;
  }
  return stored as GeneratedSecrets;
}

/**
 * Settings production cannot run without, each with what goes wrong when it is missing: a
 * development default would keep data in one process's own folder, sign links with a random
 * secret, or take payments through the local sandbox.
 */
export const PRODUCTION_REQUIRED: ReadonlyArray<readonly [name: string, why: string]> = [
  ['DATABASE_URL', 'a PostgreSQL server shared by every instance (postgres://...); without it each process keeps its own embedded database'],
  ['S3_BUCKET', "object storage shared by every instance; without it photos stay in one machine's folder"],
  ['SMTP_URL', 'a mail server (smtp://... or smtps://...); without it mail is only written to a local folder'],
  ['PUBLIC_API_URL', 'the public address of the API (the gateway posts payments back to it)'],
  ['SHELL_URL', 'the public address of the site (the links in mails point at it)'],
  ['SIGNING_SECRET', 'the secret that signs media URLs and download links, the same on every instance'],
  ['PARTNER_DATA_KEY', "the key of partners' bank details at rest, the same on every instance"],
  ['PAYU_KEY', 'the PayU merchant key'],
  ['PAYU_SALT', 'the PayU merchant salt'],
  ['PAYU_URL', 'the PayU payment page address (https://secure.payu.in/_payment)'],
  ['PAYU_VERIFY_URL', 'the PayU verify-payment address (https://info.payu.in/merchant/postservice?form=2)'],
];

/**
 * Why a production start must stop, or null when it may go on. Every problem is named, so one
 * failed start lists all of them.
 */
export function productionProblems(env: NodeJS.ProcessEnv): string | null {
  const problems = PRODUCTION_REQUIRED.filter(([name]) => !env[name]?.trim()).map(([name, why]) => `${name} (${why})`);
  const url = (name: string) => env[name]?.trim() ?? '';
  if (url('DATABASE_URL') && !/^postgres(ql)?:\/\//.test(url('DATABASE_URL'))) problems.push('DATABASE_URL must be a PostgreSQL URL (postgres://...)');
  if (url('SMTP_URL') && !/^smtps?:\/\//.test(url('SMTP_URL'))) problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  for (const name of ['PAYU_URL', 'PAYU_VERIFY_URL']) {
    const value = url(name);
    if (value === 'off') problems.push(`${name} must be the gateway's address, not "off"`);
    else if (value && !/^https:\/\//.test(value))
      problems.push(`${name} must be the gateway's https address, not ${JSON.stringify(value)} (the local sandbox is for development)`);
  }
  if (env.SEED_ON_START === 'true') problems.push('SEED_ON_START=true (demo accounts have published passwords: production never seeds demo data)');
  return problems.length === 0 ? null : `NODE_ENV=production refuses to start. Missing or wrong: ${problems.join('; ')}`;
}

/**
 * PARTNER_DATA_KEY: 32 bytes as base64 (44 characters) or hex (64). A key of another length is refused
 * at start rather than found out when the first partner registers.
 */
export function parsePartnerDataKey(raw: string, setting = 'PARTNER_DATA_KEY'): Buffer {
  const value = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error(`${setting}: a key must be 32 bytes, given as base64 (44 characters) or hex (64 characters)`);
  return key;
}

/** Every setting of the server, read once from the environment (see docs/configuration.md). */
export interface AppConfig {
  port: number;
  host: string;
  /** Which proxies may name the client in X-Forwarded-For (TRUST_PROXY); false: none. */
  trustProxy: false | number | string[];
  /** postgres://... switches from embedded PGlite to a PostgreSQL server. */
  databaseUrl: string | null;
  dataDir: string;
  publicApiUrl: string;
  shellUrl: string;
  corsOrigins: string[];
  /** Secret for signing media URLs, pre-authorised links and other HMACs. */
  signingSecret: string;
  /** AES-256-GCM key of partners' bank account numbers and PANs (PARTNER_DATA_KEY; generated into the data folder when unset). */
  partnerDataKey: Buffer;
  /** Keys PARTNER_DATA_KEY replaced (PARTNER_DATA_PREVIOUS_KEYS): they still open older values until `pnpm admin reseal-partner-data` has run. */
  partnerDataPreviousKeys: Buffer[];
  /** How long a search session (and its signed image URLs) lives, in minutes. */
  searchSessionMinutes: number;
  /**
   * S3_BUCKET switches from the local folder to S3; publicEndpoint (S3_PUBLIC_ENDPOINT) is the address
   * browsers reach the bucket at, which signed URLs are signed for (default: the endpoint itself).
   */
  storage: { kind: 'local'; dir: string } | { kind: 's3'; bucket: string; region: string; endpoint: string | null; publicEndpoint?: string | null };
  /** MEDIA_PUBLIC_URL: a CDN (or the bucket's public address) serving public/ objects at stable URLs; null: the API's media route. */
  mediaPublicUrl: string | null;
  logLevel: string;
  seedOnStart: boolean;
  /** The PostgreSQL pool: size and timeouts (PGlite ignores them). */
  database: DatabaseConfig;
  /** Schedules (cron, minute resolution) and limits of the queue's periodic jobs. */
  jobs: JobsConfig;
  /** retrySeconds: the wait after a failed send of an outbox mail, doubled per further failure (up to an hour). */
  mail: { from: string; smtpUrl: string | null; outboxDir: string; supportAddress: string; retrySeconds: number };
  /** Accounts security: captcha cost, rate limits, password codes, Google sign-in, development pages. */
  security: SecurityConfig;
  /** redis://... makes the per-address limits one count shared by every API process; none: each process counts in memory. */
  redisUrl: string | null;
  /** PayU merchant key and salt, the payment page address and the verify-payment address (sandbox by default). */
  payu: { key: string; salt: string; url: string; verifyUrl: string | null };
  /**
   * Idempotency-Key handling (http/idempotency.ts): a key's stored answer is replayed for keyHours;
   * a claim still running after staleClaimSeconds is taken as abandoned (its process died) and a
   * further attempt may run the request again.
   */
  idempotency: { keyHours: number; staleClaimSeconds: number };
  /** The shell's reports of its remotes and the canary watch (features/releases). */
  releases: ReleasesConfig;
  /** Which queues this process works and how hard (the API works them too unless API_WORKS=false). */
  work: WorkConfig;
  /** SEED_PHOTOS=small seeds a few photos per BIB (quick starts for development); anything else the full demo. */
  seedPhotos: 'full' | 'small';
  /**
   * SEED_GATE_FILE: the API listens at once and seeds the demo in the background once this file
   * exists (`pnpm start` writes it when the builds are done, so the builds have the cores first).
   * Empty (default): the demo is seeded in the background right after the API listens.
   */
  seedGateFile: string | null;
  /** The payment sandbox's own port (PAYMENT_SANDBOX_PORT, default 5000 + PORT_OFFSET). */
  paymentSandboxPort: number;
}

/**
 * The work on the job queue: photo processing (renditions, BIB reading), face indexing, video
 * cutting and the scheduled jobs. `pnpm start` works it in the API process; on a race day the API
 * runs with API_WORKS=false and worker processes (`pnpm worker`) do it (docs/deploy.md).
 */
export interface WorkConfig {
  /** API_WORKS=false: the API process answers HTTP only (its scheduled jobs and queues are the workers'). */
  apiWorks: boolean;
  /** FACE_INDEXING=false: this process indexes no faces. */
  faceIndexing: boolean;
  /** FACE_INDEX_PAUSE: the indexer rests this many times its last photo's time between photos (1: half a core; 0: flat out). */
  faceIndexPause: number;
  /** SUPPLY_WORKER=false: this process processes no uploaded photos. */
  photos: boolean;
  /** SUPPLY_CONCURRENCY: photos processed at a time. */
  photoConcurrency: number;
  /** BIB_READING=false: photos are stored unlabeled (tagged by hand). */
  bibReading: boolean;
  /** BIB_ENGINE=tesseract: the earlier tesseract reader (BIB_OCR_WORKERS, BIB_LEGACY_CHECK). */
  bibEngine: 'model' | 'tesseract';
  bibOcrWorkers: number;
  bibLegacyCheck: boolean;
  /** BIB_READER_PROCESSES: model reader processes (null: two where there are two cores). */
  bibReaderProcesses: number | null;
  /** VIDEO_WORKER=false: this process cuts no finish-line videos; VIDEO_CONCURRENCY pieces at a time. */
  videos: boolean;
  videoConcurrency: number;
  /** SCHEDULED_JOBS=false: this process works none of the scheduled jobs (mail, reconciliation, pruning...). */
  scheduledJobs: boolean;
  /** WORKER_STOP_SECONDS: how long a stopping worker lets its jobs finish before handing the rest back. */
  stopGraceSeconds: number;
}

/**
 * Settings of the model processes and the media tools, read where no AppConfig is passed (the
 * model reader and FFmpeg are also used by scripts and benchmarks). Read once, on first use.
 */
export interface ModelSettings {
  /** BIB_READER_IDLE_SECONDS (default 60; 0 keeps it): an idle reader process is let go after this long. */
  bibReaderIdleMs: number;
  /** FACE_MODEL_IDLE_SECONDS (default 300; 0 keeps it): the face detector's process, idle this long, is let go. */
  faceModelIdleMs: number;
  /** MODEL_PROCESS_MAX_RSS_MB (default 1024; 0: no limit): a model process above it is restarted between requests. */
  modelProcessMaxRssBytes: number;
  /** FFMPEG_PATH / FFPROBE_PATH: other binaries than the packaged ones; null: the packaged ones. */
  ffmpegPath: string | null;
  ffprobePath: string | null;
}

let modelSettingsRead: ModelSettings | null = null;

export function modelSettings(): ModelSettings {
  if (modelSettingsRead) return modelSettingsRead;
  const idleSeconds = number('BIB_READER_IDLE_SECONDS', 60);
  const faceIdleSeconds = number('FACE_MODEL_IDLE_SECONDS', 300);
  const maxRssMb = number('MODEL_PROCESS_MAX_RSS_MB', 1024);
  modelSettingsRead = {
    bibReaderIdleMs: idleSeconds > 0 ? idleSeconds * 1000 : 0,
    faceModelIdleMs: faceIdleSeconds > 0 ? faceIdleSeconds * 1000 : 0,
    modelProcessMaxRssBytes: maxRssMb > 0 ? maxRssMb * 1024 * 1024 : 0,
    ffmpegPath: process.env.FFMPEG_PATH || null,
    ffprobePath: process.env.FFPROBE_PATH || null,
  };
  return modelSettingsRead;
}

/** What `pnpm migrate` needs: the database and, in development, the data folder. */
export function migrationSettings(): { databaseUrl: string | null; dataDir: string; production: boolean } {
  return {
    databaseUrl: process.env.DATABASE_URL || null,
    dataDir: path.resolve(REPO_ROOT, str('DATA_DIR', '.data')),
    production: process.env.NODE_ENV === 'production',
  };
}

function bool(name: string, fallback: boolean): boolean {
  const raw = process.env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1' || raw === 'on') return true;
  if (raw === 'false' || raw === '0' || raw === 'off') return false;
  throw new Error(`${name} must be true or false, got "${process.env[name]}"`);
}

/** A number that may have a fraction (FACE_INDEX_PAUSE=0.5). */
function number(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got "${raw}"`);
  return value;
}

/** A count of at least 1. */
function count(name: string, fallback: number): number {
  const value = int(name, fallback);
  if (value < 1) throw new Error(`${name} must be 1 or more, got "${process.env[name]}"`);
  return value;
}

export function loadWorkConfig(): WorkConfig {
  const engine = str('BIB_ENGINE', 'model');
  if (engine !== 'model' && engine !== 'tesseract') throw new Error(`BIB_ENGINE must be model or tesseract, got "${engine}"`);
  const readerProcesses = process.env.BIB_READER_PROCESSES ? count('BIB_READER_PROCESSES', 1) : null;
  return {
    apiWorks: bool('API_WORKS', true),
    faceIndexing: bool('FACE_INDEXING', true),
    faceIndexPause: Math.max(0, number('FACE_INDEX_PAUSE', 1)),
    photos: bool('SUPPLY_WORKER', true),
    photoConcurrency: count('SUPPLY_CONCURRENCY', 2),
    bibReading: bool('BIB_READING', true),
    bibEngine: engine,
    bibOcrWorkers: count('BIB_OCR_WORKERS', 2),
    bibLegacyCheck: bool('BIB_LEGACY_CHECK', true),
    bibReaderProcesses: readerProcesses,
    videos: bool('VIDEO_WORKER', true),
    videoConcurrency: count('VIDEO_CONCURRENCY', 1),
    scheduledJobs: bool('SCHEDULED_JOBS', true),
    stopGraceSeconds: Math.max(0, int('WORKER_STOP_SECONDS', 60)),
  };
}

export interface ReleasesConfig {
  /** The release record and the runtime config `pnpm release` writes (same env and defaults as scripts/releases.mjs). */
  releasesDir: string;
  runtimeConfigFile: string;
  /** Who is told when a canary rolls itself back (RELEASE_ALERT_EMAIL; default the support address). */
  alertAddress: string;
  /** The canary watch's schedule (cron, minute resolution). */
  watchSchedule: string;
  /** Reports of one address per minute (a batch counts once). */
  batchesPerIpPerMinute: number;
  /** Error samples (remote, version, route, message) are kept this long; counts per minute longer. */
  sampleRetentionDays: number;
  countRetentionDays: number;
  /** Most error samples kept per remote, version and minute (the counts keep counting). */
  samplesPerMinute: number;
}

export interface DatabaseConfig {
  poolSize: number;
  /** How long a new connection may take before the query that needed it fails. */
  connectTimeoutMs: number;
  /** The server cancels a statement running longer (statement_timeout); 0: no limit. */
  statementTimeoutMs: number;
  idleTimeoutMs: number;
  /** PGlite's shared_buffers (PGLITE_SHARED_BUFFERS); the server's setting is the server's. */
  pgliteSharedBuffers: string;
}

export interface JobsConfig {
  mailSchedule: string;
  reconcileSchedule: string;
  pruneSchedule: string;
  /** The clean-originals job (originals stored before they were cleaned on arrival). */
  cleanOriginalsSchedule: string;
  /** The print-files job (print-ready files of paid print and collage lines). */
  printFilesSchedule: string;
  /** Cron of the print-refunds job: refunds the gateway did not accept yet are asked again when due. */
  printRefundsSchedule: string;
  reconcile: { minAgeSeconds: number; recheckSeconds: number; expireAfterMinutes: number; maxOrdersPerRun: number };
  /** Expired sessions and one-time codes are deleted this many days after they expired. */
  expiredRowRetentionDays: number;
  paymentCallbackRetentionDays: number;
  sentMailRetentionDays: number;
  /** How often the job queue fails expired jobs and jobs whose heartbeat stopped (a dead process's photo and face jobs). */
  monitorSeconds: number;
}

/**
 * Rate limits are "so many hits per window seconds". Per-address limits refuse (429); what an outsider
 * could use up for someone else (an account's sign-ins, a BIB's OTP mails) asks for a captcha instead.
 * The rules built from these settings are in security/limits.ts.
 */
export interface SecurityConfig {
  /** ALTCHA proof of work: PBKDF2 iterations per attempt and the largest secret counter to find. */
  captchaCost: number;
  captchaMaxCounter: number;
  captchaTtlSeconds: number;
  /** A strong captcha (asked after repeated failures) has this many times the counter range: that much more work. */
  captchaStrongFactor: number;
  /** Failed sign-ins of one account in the window after which its sign-in needs the strong captcha. */
  signInFailuresBeforeStrongCaptcha: number;
  signInFailuresPerIp: number;
  signInWindowSeconds: number;
  passwordCodesPerEmail: number;
  passwordCodesPerIp: number;
  passwordCodeWindowSeconds: number;
  passwordCodeMinutes: number;
  passwordCodeMaxAttempts: number;
  /** Email proof codes: mails per account and per address in the window, a code's lifetime and tries. */
  emailCodesPerAccount: number;
  emailCodesPerIp: number;
  emailCodeWindowSeconds: number;
  emailCodeMinutes: number;
  emailCodeMaxAttempts: number;
  signUpsPerIp: number;
  contactPerIp: number;
  contactWindowSeconds: number;
  /** BIB searches and photo pages per address in the window (each route counted on its own). */
  photoSearchPerIp: number;
  photoSearchWindowSeconds: number;
  /** Collage previews per address in the window (each draws a small collage). */
  collagePreviewsPerIp: number;
  collagePreviewWindowSeconds: number;
  /**
   * Selfie searches per address in the window: a backstop only (runners at a race share a mobile
   * carrier's few addresses); the everyday limit is per device session, below.
   */
  selfieSearchesPerIp: number;
  /** Selfie searches per device session in the window before a captcha is asked for (each solved captcha gives as many again). */
  selfieSearchesPerSession: number;
  selfieSearchWindowSeconds: number;
  /** Privacy OTP mails per address, and per BIB before a further one needs a captcha. */
  otpSendsPerIp: number;
  otpSendsPerBibBeforeCaptcha: number;
  otpWindowSeconds: number;
  preorderLinkTriesPerIp: number;
  preorderLinkWindowSeconds: number;
  /** Google sign-in is offered only with a client id; the server verifies ID tokens against it. */
  googleClientId: string | null;
  /**
   * The development pages (GET /dev/outbox, POST /dev/faces/event-photo) exist only with the outbox
   * mailer, never with NODE_ENV=production, and answer loopback connections only.
   */
  devPages: boolean;
}

export function loadConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const production = process.env.NODE_ENV === 'production';
  if (production) {
    const problem = productionProblems(process.env);
    if (problem) throw new Error(problem);
  }
  const dataDir = overrides.dataDir ?? path.resolve(REPO_ROOT, str('DATA_DIR', '.data'));
  // Never a constant from the repository: unset secrets are random per data folder.
  const secrets = process.env.SIGNING_SECRET && process.env.PAYU_SALT && process.env.PARTNER_DATA_KEY ? null : generatedSecrets(dataDir);
  const shellUrl = str('SHELL_URL', 'http://localhost:3000');
  const port = int('API_PORT', 4000);
  const remotePorts = [3000, 3001, 3002, 3003, 3004, 3005];
  const defaultOrigins = remotePorts.flatMap((p) => [`http://localhost:${p}`, `http://127.0.0.1:${p}`]);
  const s3Bucket = process.env.S3_BUCKET;
  // The local PayU sandbox gateway listens on 5000 (+ PORT_OFFSET) unless told otherwise.
  const sandboxPort = int('PAYMENT_SANDBOX_PORT', 5000 + int('PORT_OFFSET', 0));
  const sandboxUrl = `http://localhost:${sandboxPort}`;
  const payuVerifyUrl = str('PAYU_VERIFY_URL', `${sandboxUrl}/merchant/postservice?form=2`);
  const base: AppConfig = {
    port,
    host: str('API_HOST', '0.0.0.0'),
    trustProxy: parseTrustProxy(process.env.TRUST_PROXY),
    databaseUrl: process.env.DATABASE_URL || null,
    dataDir,
    publicApiUrl: str('PUBLIC_API_URL', `http://localhost:${port}`),
    shellUrl,
    corsOrigins: process.env.CORS_ORIGINS ? process.env.CORS_ORIGINS.split(',').map((s) => s.trim()) : [shellUrl, ...defaultOrigins],
    signingSecret: process.env.SIGNING_SECRET || secrets!.signingSecret,
    partnerDataKey: parsePartnerDataKey(process.env.PARTNER_DATA_KEY || secrets!.partnerDataKey),
    partnerDataPreviousKeys: (process.env.PARTNER_DATA_PREVIOUS_KEYS ?? '')
      .split(',')
      .filter((k) => k.trim() !== '')
      .map((k) => parsePartnerDataKey(k, 'PARTNER_DATA_PREVIOUS_KEYS')),
    searchSessionMinutes: int('SEARCH_SESSION_MINUTES', 120),
    storage: s3Bucket
      ? {
          kind: 's3',
          bucket: s3Bucket,
          region: str('S3_REGION', 'ap-south-1'),
          endpoint: process.env.S3_ENDPOINT || null,
          publicEndpoint: optionalUrl('S3_PUBLIC_ENDPOINT'),
        }
      : { kind: 'local', dir: path.join(dataDir, 'objects') },
    mediaPublicUrl: optionalUrl('MEDIA_PUBLIC_URL'),
    logLevel: str('LOG_LEVEL', 'info'),
    // Demo data (accounts with published passwords) only ever in development.
    seedOnStart: !production && str('SEED_ON_START', 'true') !== 'false',
    database: {
      poolSize: int('DB_POOL_SIZE', 10),
      connectTimeoutMs: int('DB_CONNECT_TIMEOUT_MS', 5_000),
      statementTimeoutMs: int('DB_STATEMENT_TIMEOUT_MS', 30_000),
      idleTimeoutMs: int('DB_IDLE_TIMEOUT_MS', 30_000),
      pgliteSharedBuffers: pgliteSharedBuffers(),
    },
    jobs: {
      mailSchedule: str('MAIL_SCHEDULE', '* * * * *'),
      reconcileSchedule: str('RECONCILE_SCHEDULE', '* * * * *'),
      pruneSchedule: str('PRUNE_SCHEDULE', '17 * * * *'),
      cleanOriginalsSchedule: str('CLEAN_ORIGINALS_SCHEDULE', '* * * * *'),
      printFilesSchedule: str('PRINT_FILES_SCHEDULE', '* * * * *'),
      printRefundsSchedule: str('PRINT_REFUNDS_SCHEDULE', '* * * * *'),
      reconcile: {
        minAgeSeconds: int('RECONCILE_MIN_AGE_SECONDS', 60),
        recheckSeconds: int('RECONCILE_RECHECK_SECONDS', 300),
        expireAfterMinutes: int('PENDING_ORDER_EXPIRY_MINUTES', 1440),
        maxOrdersPerRun: int('RECONCILE_MAX_ORDERS_PER_RUN', 2000),
      },
      expiredRowRetentionDays: int('EXPIRED_ROW_RETENTION_DAYS', 7),
      paymentCallbackRetentionDays: int('PAYMENT_CALLBACK_RETENTION_DAYS', 400),
      sentMailRetentionDays: int('SENT_MAIL_RETENTION_DAYS', 30),
      monitorSeconds: Math.max(1, int('JOB_MONITOR_SECONDS', 10)),
    },
    security: {
      captchaCost: int('CAPTCHA_COST', 200),
      captchaMaxCounter: int('CAPTCHA_MAX_COUNTER', 4000),
      captchaTtlSeconds: int('CAPTCHA_TTL_SECONDS', 600),
      captchaStrongFactor: int('CAPTCHA_STRONG_FACTOR', 8),
      signInFailuresBeforeStrongCaptcha: int('SIGNIN_FAILURES_BEFORE_STRONG_CAPTCHA', 5),
      signInFailuresPerIp: int('RATE_LIMIT_SIGNIN_PER_IP', 50),
      signInWindowSeconds: int('RATE_LIMIT_SIGNIN_WINDOW_SECONDS', 900),
      passwordCodesPerEmail: int('RATE_LIMIT_PASSWORD_CODE_PER_EMAIL', 5),
      passwordCodesPerIp: int('RATE_LIMIT_PASSWORD_CODE_PER_IP', 30),
      passwordCodeWindowSeconds: int('RATE_LIMIT_PASSWORD_CODE_WINDOW_SECONDS', 3600),
      passwordCodeMinutes: int('PASSWORD_CODE_MINUTES', 15),
      passwordCodeMaxAttempts: int('PASSWORD_CODE_MAX_ATTEMPTS', 5),
      emailCodesPerAccount: int('RATE_LIMIT_EMAIL_CODE_PER_ACCOUNT', 5),
      emailCodesPerIp: int('RATE_LIMIT_EMAIL_CODE_PER_IP', 30),
      emailCodeWindowSeconds: int('RATE_LIMIT_EMAIL_CODE_WINDOW_SECONDS', 3600),
      emailCodeMinutes: int('EMAIL_CODE_MINUTES', 30),
      emailCodeMaxAttempts: int('EMAIL_CODE_MAX_ATTEMPTS', 5),
      signUpsPerIp: int('RATE_LIMIT_SIGNUP_PER_IP', 30),
      contactPerIp: int('RATE_LIMIT_CONTACT_PER_IP', 5),
      contactWindowSeconds: int('RATE_LIMIT_CONTACT_WINDOW_SECONDS', 3600),
      photoSearchPerIp: int('RATE_LIMIT_SEARCH_PER_IP', 120),
      photoSearchWindowSeconds: int('RATE_LIMIT_SEARCH_WINDOW_SECONDS', 600),
      collagePreviewsPerIp: int('RATE_LIMIT_COLLAGE_PREVIEW_PER_IP', 60),
      collagePreviewWindowSeconds: int('RATE_LIMIT_COLLAGE_PREVIEW_WINDOW_SECONDS', 600),
      selfieSearchesPerIp: int('RATE_LIMIT_SELFIE_PER_IP', 200),
      selfieSearchesPerSession: int('RATE_LIMIT_SELFIE_PER_SESSION', 10),
      selfieSearchWindowSeconds: int('RATE_LIMIT_SELFIE_WINDOW_SECONDS', 600),
      otpSendsPerIp: int('RATE_LIMIT_OTP_PER_IP', 30),
      otpSendsPerBibBeforeCaptcha: int('OTP_SENDS_PER_BIB_BEFORE_CAPTCHA', 3),
      otpWindowSeconds: int('RATE_LIMIT_OTP_WINDOW_SECONDS', 3600),
      preorderLinkTriesPerIp: int('RATE_LIMIT_PREORDER_LINK_PER_IP', 10),
      preorderLinkWindowSeconds: int('RATE_LIMIT_PREORDER_LINK_WINDOW_SECONDS', 900),
      googleClientId: process.env.GOOGLE_CLIENT_ID || null,
      devPages: !production && str('DEV_PAGES', 'true') !== 'false',
    },
    redisUrl: process.env.REDIS_URL || null,
    mail: {
      from: str('MAIL_FROM', 'Finishline <no-reply@finishline.example>'),
      smtpUrl: process.env.SMTP_URL || null,
      outboxDir: path.join(dataDir, 'outbox'),
      retrySeconds: int('MAIL_RETRY_SECONDS', 30),
      supportAddress: str('SUPPORT_EMAIL', 'support@finishline.example'),
    },
    payu: {
      key: str('PAYU_KEY', 'FLSANDBOX'),
      salt: process.env.PAYU_SALT || secrets!.payuSalt,
      url: str('PAYU_URL', `${sandboxUrl}/_payment`),
      // Set PAYU_VERIFY_URL=off to skip the server-to-server confirmation.
      verifyUrl: payuVerifyUrl === 'off' ? null : payuVerifyUrl,
    },
    releases: {
      releasesDir: process.env.RELEASES_DIR ? path.resolve(process.env.RELEASES_DIR) : path.join(dataDir, 'releases'),
      runtimeConfigFile: process.env.RUNTIME_CONFIG_FILE ? path.resolve(process.env.RUNTIME_CONFIG_FILE) : path.join(dataDir, 'runtime-config.json'),
      alertAddress: str('RELEASE_ALERT_EMAIL', str('SUPPORT_EMAIL', 'support@finishline.example')),
      watchSchedule: str('CANARY_WATCH_SCHEDULE', '* * * * *'),
      batchesPerIpPerMinute: int('RATE_LIMIT_CLIENT_REPORTS_PER_IP', 30),
      sampleRetentionDays: int('CLIENT_ERROR_SAMPLE_DAYS', 7),
      countRetentionDays: int('CLIENT_REPORT_COUNT_DAYS', 30),
      samplesPerMinute: int('CLIENT_ERROR_SAMPLES_PER_MINUTE', 20),
    },
    idempotency: {
      keyHours: int('IDEMPOTENCY_KEY_HOURS', 24),
      // Longer than any request may take: the client gives up after 60 s, the database after 30 s.
      staleClaimSeconds: int('IDEMPOTENCY_STALE_CLAIM_SECONDS', 120),
    },
    work: loadWorkConfig(),
    seedPhotos: str('SEED_PHOTOS', 'full') === 'small' ? 'small' : 'full',
    seedGateFile: str('SEED_GATE_FILE', '') || null,
    paymentSandboxPort: sandboxPort,
  };
  const merged = { ...base, ...overrides };
  // A data folder given by the caller (tests) also moves the default outbox into it.
  if (overrides.dataDir && !overrides.mail) merged.mail = { ...base.mail, outboxDir: path.join(overrides.dataDir, 'outbox') };
  return merged;
}
