/**
 * How a deployment's files are cached, in one place for scripts/serve-static.mjs, the webpack config
 * (which old files a rebuild keeps) and the bucket/CDN layout in docs/deploy-a-remote.md:
 * - content-hashed files (split chunks `123.0a1b2c3d.js`, asset modules `<20 hex>.png`) never change
 *   under their name: cached for a year, immutable;
 * - everything else (index.html, main.js, remoteEntry.js, mf-manifest.json, face models) keeps its
 *   name across builds: `no-cache` plus an ETag, so a browser or CDN revalidates it and gets a
 *   304 without the body while it has not changed.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

const HASHED = /(?:^|\.)[0-9a-f]{8,}\.(?:js|mjs|css|png|jpe?g|gif|svg|webp|avif|ico|ttf|otf|woff2?|wasm)(?:\.map)?$/;

/** True for a file whose name carries its content hash. */
export function isContentHashed(file) {
  return HASHED.test(path.basename(file));
}

export function cacheControlFor(file) {
  return isContentHashed(file) ? IMMUTABLE : REVALIDATE;
}

/** A strong validator of a file's bytes (quoted, as HTTP wants it). */
export function etagOf(bytes) {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 27)}"`;
}

/**
 * True when an If-None-Match header names this ETag (or `*`). Weak comparison, as RFC 9110 asks for
 * If-None-Match: `W/"x"` matches `"x"`, and the `-gzip` variant a compressed answer carries matches
 * the file's own tag.
 */
export function etagMatches(ifNoneMatch, etag) {
  if (!ifNoneMatch) return false;
  const bare = (tag) =>
    tag
      .trim()
      .replace(/^W\//, '')
      .replace(/-gzip"$/, '"');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * For webpack's `output.clean.keep`: a content-hashed file a previous build left in the output
 * folder is kept for `days`, so a visitor whose page still runs the previous main.js or
 * remoteEntry.js can load the chunks it asks for after a redeploy. Entry files and older hashed
 * files are removed as before.
 */
export function keepRecentHashedFiles(outputDir, days, { statSync, now = Date.now() }) {
  return (asset) => {
    if (!isContentHashed(asset) && !/\.js\.LICENSE\.txt$/.test(asset)) return false;
    try {
      return now - statSync(path.join(outputDir, asset)).mtimeMs < days * 24 * 3600 * 1000;
    } catch {
      return false;
    }
  };
}
