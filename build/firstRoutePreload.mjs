/**
 * What the shell's page starts before any of its JavaScript files has arrived. Without it, a first
 * visit to `/` requested runtime-config.json only after all of the shell's files, and then waited for
 * each link of the chain in turn: the storefront's manifest, its entry and App, `/api/home`, the hero
 * image. The shell's index.html carries this script inline (so it runs while the shell's files
 * download) and, by the path opened:
 *  - always fetches runtime-config.json;
 *  - on a storefront page (STOREFRONT_PATHS), fetches the storefront's manifest as soon as the config
 *    names it, then preloads its remoteEntry.js and the files of its exposed App;
 *  - on the home page (HOME_PATHS), fetches `/api/home` from the API the config names, then preloads
 *    the hero image with high priority (its srcset and sizes exactly as the storefront's hero renders
 *    them, so the same file is chosen and downloaded once) and paints an early copy of the hero
 *    (FIRST_PAINT: picture, headline, subtitle; styled by index.html) where the storefront's hero will
 *    render, so the largest paint of the page does not wait for the JavaScript. The shell keeps it
 *    under its header and removes it on another route or a failed remote; the storefront's hero
 *    removes it once its own picture shows (shell/src/app/FirstPaintPlacement.tsx, HeroSearch.tsx).
 * Any other path (a partner's, an account page) preloads nothing but the config, so a deployment's
 * pages still load only the shell and their own remote.
 *
 * The fetched answers are stashed on `window.__FINISHLINE_PRELOAD__` (FIRST_ROUTE_PRELOAD_GLOBAL) and
 * taken once by the code that needs them: the shell's bootstrap (config), the shell's federation
 * plugin (the manifest) and shared's `eventsApi.homePage` (home data, through
 * shared/src/api/preloaded.ts). A page whose code does not take them (an older remote) just fetches
 * again; nothing waits for a preload that failed.
 *
 * The Content-Security-Policy allows this inline script by its hash: the build writes the hashes of
 * the page's inline scripts to csp-hashes.json, which scripts/serve-static.mjs adds to script-src.
 */
/* global window, document, location -- firstRoutePreload() runs in the browser, not in this build script */
import { createHash } from 'node:crypto';
import webpack from 'webpack';

export const FIRST_ROUTE_PRELOAD_GLOBAL = '__FINISHLINE_PRELOAD__';
export const CSP_HASHES_FILE = 'csp-hashes.json';

/** Storefront routes (shell/src/app/routeTable.ts; a Jest test keeps them in step). Lower case, no trailing slash. */
export const STOREFRONT_PATHS = ['/', '/home', '/products', '/searchbyselfie', '/cart', '/unlabeled-cart', '/unlabeled-events', '/preorder'];
/** Where the home page shows (its data and hero image are worth starting early). */
export const HOME_PATHS = ['/', '/home'];
/**
 * The early hero: its element's id (FIRST_PAINT_ID in shared/src/api/preloaded.ts), the hero picture's
 * `sizes` (HERO_IMAGE_SIZES in shared), and the storefront hero's headline and subtitle
 * (mfe-storefront/src/features/home/heroText.ts). A Jest test keeps each equal to its original.
 */
export const FIRST_PAINT = {
  id: 'fl-first-paint',
  sizes: '100vw',
  title: 'Find your race photos',
  subtitle: 'Choose your event, then search by your BIB number or a selfie.',
};

/**
 * Runs in the browser, inlined as its source text: plain ES2017, no imports, nothing that throws.
 * Its parameters are given as JSON literals by firstRoutePreloadScript().
 */
function firstRoutePreload(globalName, storefrontPaths, homePaths, firstPaint) {
  var path = location.pathname.replace(/\/+$/, '').toLowerCase() || '/';
  var stash = (window[globalName] = {});
  var ignore = function () {};
  var json = function (response) {
    if (!response.ok) throw new Error('HTTP ' + response.status);
    return response.json();
  };
  var preload = function (href, as, high) {
    var link = document.createElement('link');
    link.rel = 'preload';
    link.as = as;
    link.href = href;
    if (high) link.setAttribute('fetchpriority', 'high');
    document.head.appendChild(link);
  };
  var element = function (tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  };
  // The hero's renditions: the preferred format's set (for the preload) and the JPEG set (the <img>'s own).
  var sourcesOf = function (hero) {
    var sources = hero.sources || [];
    var jpeg = sources.filter(function (source) {
      return source.type === 'image/jpeg';
    })[0];
    return { best: sources[0], jpeg: jpeg, others: sources.filter(function (source) {
      return source !== jpeg;
    }) };
  };
  var preloadHero = function (hero) {
    var best = sourcesOf(hero).best;
    if (!best) return preload(hero.image, 'image', true);
    var link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'image';
    link.type = best.type;
    link.setAttribute('imagesrcset', best.srcset);
    link.setAttribute('imagesizes', firstPaint.sizes);
    link.setAttribute('fetchpriority', 'high');
    document.head.appendChild(link);
  };
  // The same <picture> as the storefront's hero, in a box index.html lays over the hero's place.
  var paintHero = function (hero) {
    var root = document.getElementById('root');
    // Only while the app is not on screen yet: once it is, its own hero is on the way.
    if (!root || root.firstChild || document.getElementById(firstPaint.id)) return;
    var sets = sourcesOf(hero);
    var box = element('div', 'fl-first-paint');
    box.id = firstPaint.id;
    var picture = element('picture');
    sets.others.forEach(function (source) {
      var node = element('source');
      node.type = source.type;
      node.srcset = source.srcset;
      node.sizes = firstPaint.sizes;
      picture.appendChild(node);
    });
    var image = element('img', 'fl-first-paint-image');
    if (sets.jpeg) {
      image.srcset = sets.jpeg.srcset;
      image.sizes = firstPaint.sizes;
    }
    image.src = hero.image;
    image.alt = hero.alt || '';
    image.setAttribute('fetchpriority', 'high');
    picture.appendChild(image);
    var text = element('div', 'fl-first-paint-inner');
    text.appendChild(element('div', 'fl-first-paint-title', firstPaint.title));
    text.appendChild(element('div', 'fl-first-paint-subtitle', firstPaint.subtitle));
    text.appendChild(element('div', 'fl-first-paint-controls'));
    box.appendChild(picture);
    box.appendChild(text);
    root.parentNode.insertBefore(box, root);
  };
  stash.config = fetch('/runtime-config.json', { cache: 'no-store' }).then(json);
  if (storefrontPaths.indexOf(path) < 0) return;
  stash.config
    .then(function (config) {
      var manifestUrl = config.remotes && config.remotes.storefront;
      if (homePaths.indexOf(path) >= 0 && config.apiBaseUrl) {
        stash.home = fetch(config.apiBaseUrl.replace(/\/$/, '') + '/api/home').then(json);
        stash.home
          .then(function (envelope) {
            var hero = envelope && envelope.result && envelope.result.hero_image;
            if (!hero || !hero.image) return;
            stash.homeAnswer = envelope;
            preloadHero(hero);
            if (document.readyState === 'loading') {
              document.addEventListener('DOMContentLoaded', function () {
                paintHero(hero);
              });
            } else paintHero(hero);
          })
          .catch(ignore);
      }
      if (!manifestUrl) return;
      var response = fetch(manifestUrl);
      stash.manifest = { url: manifestUrl, response: response };
      response
        .then(function (answer) {
          return answer.clone().json();
        })
        .then(function (manifest) {
          // The manifest's publicPath is 'auto': files live beside it.
          var base = new URL('.', manifestUrl);
          var entry = manifest.metaData && manifest.metaData.remoteEntry;
          if (entry) preload(new URL((entry.path ? entry.path + '/' : '') + entry.name, base).href, 'script');
          (manifest.exposes || []).forEach(function (expose) {
            if (expose.path !== './App') return;
            expose.assets.js.sync.forEach(function (file) {
              preload(new URL(file, base).href, 'script');
            });
          });
        })
        .catch(ignore);
    })
    .catch(ignore);
}

/** The inline script's text, exactly as the page carries it (its hash must match byte for byte). */
export function firstRoutePreloadScript() {
  const args = [FIRST_ROUTE_PRELOAD_GLOBAL, STOREFRONT_PATHS, HOME_PATHS, FIRST_PAINT].map((value) => JSON.stringify(value)).join(', ');
  return `(${firstRoutePreload.toString()})(${args});`;
}

/** A CSP source for an inline script: 'sha256-<base64>' of its exact text. */
export function scriptHashSource(text) {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The text of every inline <script> (one with no src) of a page. */
export function inlineScriptsOf(html) {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((match) => match[1]).filter((text) => text.length > 0);
}

/**
 * The shell's build: writes csp-hashes.json ({ "script-src": ["'sha256-…'"] }) from the pages the
 * build emits, read at the last stage of processing (after html-webpack-plugin and the minimisers
 * have rewritten the inline script), so the hashes are those of the bytes served.
 */
export class CspHashesPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('CspHashesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'CspHashesPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, (assets) => {
        const pages = Object.keys(assets).filter((name) => name.endsWith('.html'));
        const hashes = pages.flatMap((name) => inlineScriptsOf(assets[name].source().toString()).map(scriptHashSource));
        compilation.emitAsset(CSP_HASHES_FILE, new webpack.sources.RawSource(`${JSON.stringify({ 'script-src': [...new Set(hashes)] }, null, 2)}\n`));
      });
    });
  }
}
