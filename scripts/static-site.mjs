/**
 * One built deployment (the shell or a remote) served over HTTP from its dist folder: the server
 * behind `scripts/serve-static.mjs` (one deployment, one process: a container, a remote deployed
 * alone) and behind `pnpm start`, which serves its six deployments from its own process, each on its
 * own port (six Node processes held some 270 MB of resident memory for one small server each).
 *
 * Every answer carries the security headers of scripts/security-headers.mjs. Entry files
 * (index.html, main.js, remoteEntry.js, mf-manifest.json) are `no-cache` with an ETag, so a redeploy
 * shows on the next reload and an unchanged file revalidates with a 304 and no body; content-hashed
 * files are cached for a year (build/static-caching.mjs). Text is gzipped, as a production host would.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { contentSecurityPolicy, originsFromList, securityHeaders, storageMediaOrigins } from './security-headers.mjs';
import { cacheControlFor, etagMatches, etagOf } from '../build/static-caching.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.bin': 'application/octet-stream',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.json', '.css', '.map', '.txt', '.svg']);

/** Whether dir holds a build (the shell's index.html or a remote's manifest). */
export function holdsBuild(dir) {
  return fs.existsSync(path.join(dir, 'index.html')) || fs.existsSync(path.join(dir, 'mf-manifest.json'));
}

/**
 * A deployment's server, not yet listening.
 * @param {object} options
 * @param {string} options.dir the build folder
 * @param {string} [options.name] what its messages call it
 * @param {boolean} [options.spa] unknown paths without an extension answer with index.html (the shell's client-side routes)
 * @param {boolean} [options.cors] any origin may fetch (the shell loads remotes from other origins)
 * @param {string|null} [options.runtimeConfigFile] the file answered at /runtime-config.json
 * @param {string|null} [options.policyConfigFile] the runtime config the Content-Security-Policy is built from
 * @param {string|null} [options.releases] a remote's release folder, answered at /releases/<version>/...
 * @param {string[]} [options.mediaOrigins] origins photos come from besides the API
 * @returns {{ server: http.Server, root: string, label: string, listen: (port: number, host?: string) => Promise<void>, close: () => Promise<void> }}
 */
export function createStaticSite(options) {
  const root = path.resolve(options.dir);
  const label = options.name ?? path.basename(path.dirname(root));
  const runtimeConfigFile = options.runtimeConfigFile ?? null;
  const policyConfigFile = options.policyConfigFile ?? runtimeConfigFile;
  const mediaOrigins = options.mediaOrigins ?? [...originsFromList(process.env.MEDIA_ORIGINS), ...storageMediaOrigins()];
  const releasesRoot = options.releases ? path.resolve(options.releases) : null;
  const cors = Boolean(options.cors);
  const spa = Boolean(options.spa);

  /** ETag and gzip body of each file, kept while its size and modification time stay the same. */
  const fileCache = new Map();
  function readServed(file) {
    const stat = fs.statSync(file);
    const stamp = `${stat.size}:${stat.mtimeMs}`;
    const cached = fileCache.get(file);
    if (cached?.stamp === stamp) return cached;
    const body = fs.readFileSync(file);
    const entry = { stamp, body, etag: etagOf(body), gzip: null };
    fileCache.set(file, entry);
    return entry;
  }

  /**
   * The security headers, rebuilt when the config file changes: a release (scripts/releases.mjs) may
   * point a remote at a new origin in runtime-config.json while this server keeps running.
   */
  let policyCache = { stamp: null, headers: null };
  const cspHashesFile = path.join(root, 'csp-hashes.json');

  /** The build's hashes of the page's inline scripts (none for a remote, whose build writes no such file). */
  function inlineScriptHashes() {
    try {
      return JSON.parse(fs.readFileSync(cspHashesFile, 'utf8'))['script-src'] ?? [];
    } catch {
      return [];
    }
  }

  function currentSecurityHeaders() {
    let stamp = 'none';
    if (policyConfigFile) {
      try {
        const stat = fs.statSync(policyConfigFile);
        stamp = `${stat.mtimeMs}:${stat.size}`;
      } catch {
        stamp = 'missing';
      }
    }
    // A redeploy into the same folder may bring a new inline script with another hash.
    try {
      stamp += `|${fs.statSync(cspHashesFile).mtimeMs}`;
    } catch {
      stamp += '|no-hashes';
    }
    if (stamp === policyCache.stamp) return policyCache.headers;
    let runtimeConfig = null;
    if (policyConfigFile) {
      try {
        runtimeConfig = JSON.parse(fs.readFileSync(policyConfigFile, 'utf8'));
      } catch (error) {
        // Unreadable config: the strictest policy (nothing but this origin) rather than none.
        console.error(`${label}: cannot read ${policyConfigFile} for the security policy: ${error}`);
      }
    }
    policyCache = { stamp, headers: securityHeaders(contentSecurityPolicy({ runtimeConfig, mediaOrigins, scriptHashes: inlineScriptHashes() })) };
    return policyCache.headers;
  }

  function send(request, response, status, body, type, cacheControl, compressible = true, served = null) {
    const headers = { ...currentSecurityHeaders(), 'Content-Type': type, 'Cache-Control': cacheControl };
    if (cors) headers['Access-Control-Allow-Origin'] = '*';
    // Compressed like any production static host would, so measured transfer sizes are realistic.
    const gzip = compressible && body.length > 1024 && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    if (compressible && body.length > 1024) headers.Vary = 'Accept-Encoding';
    if (served) {
      // The compressed answer is another representation, so it carries its own tag.
      headers.ETag = gzip ? served.etag.replace(/"$/, '-gzip"') : served.etag;
      if (etagMatches(request.headers['if-none-match'], served.etag)) {
        delete headers['Content-Type'];
        response.writeHead(304, headers);
        response.end();
        return;
      }
    }
    if (gzip) {
      headers['Content-Encoding'] = 'gzip';
      body = served ? (served.gzip ??= zlib.gzipSync(body)) : zlib.gzipSync(body);
    }
    headers['Content-Length'] = body.length;
    response.writeHead(status, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  function fileFor(urlPath, base = root) {
    let decoded;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    const resolved = path.resolve(base, `.${decoded}`);
    if (resolved !== base && !resolved.startsWith(base + path.sep)) return null; // no escaping the served folder
    try {
      return fs.statSync(resolved).isFile() ? resolved : null;
    } catch {
      return null;
    }
  }

  const server = http.createServer((request, response) => {
    // A file that vanished mid-answer (a redeploy copying over the folder) fails this answer only:
    // pnpm start serves six deployments from one process, which must not end with it.
    try {
      answer(request, response);
    } catch (error) {
      console.error(`${label}: ${request.url}: ${error instanceof Error ? error.message : error}`);
      if (!response.headersSent) send(request, response, 500, Buffer.from('Server error'), 'text/plain; charset=utf-8', 'no-store');
      else response.destroy();
    }
  });

  function answer(request, response) {
    if (request.method === 'OPTIONS' && cors) {
      response.writeHead(204, {
        ...currentSecurityHeaders(),
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, HEAD',
        'Access-Control-Allow-Headers': '*',
      });
      response.end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(request, response, 405, Buffer.from('Method not allowed'), 'text/plain; charset=utf-8', 'no-store');
      return;
    }
    const urlPath = new URL(request.url ?? '/', 'http://localhost').pathname;

    if (urlPath === '/runtime-config.json' && runtimeConfigFile) {
      try {
        send(request, response, 200, fs.readFileSync(runtimeConfigFile), TYPES['.json'], 'no-store');
      } catch (error) {
        send(request, response, 500, Buffer.from(JSON.stringify({ error: String(error) })), TYPES['.json'], 'no-store');
      }
      return;
    }

    let file =
      releasesRoot && urlPath.startsWith('/releases/')
        ? fileFor(urlPath.slice('/releases'.length), releasesRoot)
        : fileFor(urlPath === '/' ? '/index.html' : urlPath);
    // Client-side routes of the shell: any path that is not a file and has no extension gets index.html.
    if (!file && spa && !path.extname(urlPath)) file = fileFor('/index.html');
    if (!file) {
      send(request, response, 404, Buffer.from('Not found'), 'text/plain; charset=utf-8', 'no-store');
      return;
    }
    const ext = path.extname(file);
    const type = TYPES[ext] ?? 'application/octet-stream';
    const served = readServed(file);
    send(request, response, 200, served.body, type, cacheControlFor(file), COMPRESSIBLE.has(ext), served);
  }

  return {
    server,
    root,
    label,
    listen: (port, host = '0.0.0.0') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
