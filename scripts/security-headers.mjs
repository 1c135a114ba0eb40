/**
 * Browser protections of the static servers (the shell and every remote; the API has its own through
 * @fastify/helmet). The Content-Security-Policy is built from configuration, never from fixed ports:
 *  - the shell's runtime-config.json names the API (apiBaseUrl) and where each remote's manifest lives
 *    (remotes), so scripts may come from the remotes' origins and requests may go to the API and the
 *    remotes (the federation runtime fetches the manifests);
 *  - photos and videos come from the API (/api/media, signed URLs) or, with S3 storage, from the
 *    bucket's own signed URLs: MEDIA_ORIGINS lists those extra origins;
 *  - Google sign-in, when a client id is configured, needs Google's script, frame and style origin.
 * What the policy must allow and why:
 *  - style-src 'unsafe-inline': antd and style-loader inject <style> elements and style attributes;
 *  - worker-src blob:: the self-hosted ALTCHA captcha solves its proof of work in a Worker made from
 *    a Blob URL;
 *  - img-src data: blob:: the selfie preview is a data: URL, the page icon is "data:,"; the
 *    certificate builder draws its cropped photos from blob: URLs;
 *  - font-src the remotes' origins: the certificate remote ships its fonts with its bundle.
 * form-action is left open on purpose: checkout posts a form to the payment gateway, whose address
 * the API hands out per order (PAYU_URL), not this configuration.
 */

/** The origin of an absolute http(s) URL, or null for anything else (relative paths are 'self'). */
export function originOf(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

const GOOGLE_SIGN_IN = 'https://accounts.google.com';

/** A comma- or space-separated list of URLs as their origins (MEDIA_ORIGINS). */
export function originsFromList(raw) {
  return (raw ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      const origin = originOf(entry);
      if (!origin) throw new Error(`Not an http(s) origin: "${entry}"`);
      return origin;
    });
}

/** The S3 bucket's origin as the API's S3 storage signs URLs for it (S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_PUBLIC_ENDPOINT). */
export function s3MediaOrigin(env = process.env) {
  if (!env.S3_BUCKET) return null;
  // Signed URLs name the address browsers reach the bucket at, when it is given.
  if (env.S3_PUBLIC_ENDPOINT) return originOf(env.S3_PUBLIC_ENDPOINT);
  // With an endpoint the API uses path-style URLs on that host; else AWS's virtual-hosted address.
  if (env.S3_ENDPOINT) return originOf(env.S3_ENDPOINT);
  return `https://${env.S3_BUCKET}.s3.${env.S3_REGION || 'ap-south-1'}.amazonaws.com`;
}

/** Every origin the API's storage hands out media URLs for: the bucket's and MEDIA_PUBLIC_URL's (a CDN). */
export function storageMediaOrigins(env = process.env) {
  return [s3MediaOrigin(env), env.MEDIA_PUBLIC_URL ? originOf(env.MEDIA_PUBLIC_URL) : null].filter(Boolean);
}

const unique = (list) => [...new Set(list.filter(Boolean))];

/**
 * The Content-Security-Policy for a page of a deployment.
 * @param {object} options
 * @param {{ apiBaseUrl?: string, remotes?: Record<string, string>, googleClientId?: string | null } | null} options.runtimeConfig
 *        the shell's runtime configuration (null: a deployment that talks to nothing but itself)
 * @param {string[]} [options.mediaOrigins] extra origins photos and videos are served from
 * @param {string[]} [options.scriptHashes] 'sha256-…' sources of the page's own inline scripts (the
 *        shell's first-route preload: csp-hashes.json, written by its build)
 */
export function contentSecurityPolicy({ runtimeConfig, mediaOrigins = [], scriptHashes = [] }) {
  const api = originOf(runtimeConfig?.apiBaseUrl ?? '');
  const remotes = Object.values(runtimeConfig?.remotes ?? {}).map(originOf);
  const google = runtimeConfig?.googleClientId ? GOOGLE_SIGN_IN : null;
  const media = unique([api, ...mediaOrigins]);
  const directives = {
    'default-src': ["'self'"],
    // 'wasm-unsafe-eval' lets the page compile WebAssembly (the on-device face model's tfjs backend);
    // it allows no eval of JavaScript.
    'script-src': unique(["'self'", "'wasm-unsafe-eval'", ...scriptHashes, ...remotes, google]),
    'style-src': unique(["'self'", "'unsafe-inline'", google]),
    'img-src': unique(["'self'", 'data:', 'blob:', ...media]),
    'media-src': unique(["'self'", 'blob:', ...media]),
    // A remote may bundle fonts (the certificate's TTFs), served from its own origin.
    'font-src': unique(["'self'", 'data:', ...remotes]),
    'connect-src': unique(["'self'", api, ...remotes, ...mediaOrigins, google]),
    'worker-src': ["'self'", 'blob:'],
    'frame-src': google ? [google] : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** Headers every answer of a static server carries, whatever its type or status. */
export function securityHeaders(policy) {
  return {
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    // For browsers that predate frame-ancestors.
    'X-Frame-Options': 'DENY',
  };
}
