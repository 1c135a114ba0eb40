/**
 * What the shell's page starts before any of its JavaScript files has arrived. Without it, a first
 * visit to `/` requested runtime-config.json only after all of the shell's files, and then waited for
 * each link of the chain in turn: the storefront's manifest, its entry and App, `/api/home`, the hero
 * image. The shell's index.html carries this script inline (so it runs while the shell's files
 * download) and, by the path opened:
 *  - always fetches runtime-config.json;
 *  - on a storefront page (STOREFRONT_PATHS), fetches the storefront's manifest as soon as the config
 *    names it, then preloads its remoteEntry.js and the files of its exposed App; a browser whose kept
 *    bucket (RELEASE_BUCKET_KEY) falls inside a storefront canary's share gets the canary's manifest,
 *    as the shell will choose (shell/src/app/remotes/releaseChoice.ts; a first visit has no bucket yet
 *    and preloads the current release);
 *  - on a storefront page, also fetches the purchase notification the shell's header shows, so the
 *    header's first render has its marquee (it no longer pushes the page down 44 px when it arrives)
 *    and the early copies below know their place (under the marquee, or right under the bar);
 *  - on the home page (HOME_PATHS), fetches `/api/home` from the API the config names, then preloads
 *    the hero image with high priority (its srcset and sizes exactly as the storefront's hero renders
 *    them, so the same file is chosen and downloaded once) and paints an early copy of the hero
 *    (FIRST_PAINT: picture, headline, subtitle; styled by index.html) where the storefront's hero will
 *    render, so the largest paint of the page does not wait for the JavaScript;
 *  - on /products (PRODUCTS_PAINT), reads the search result the storefront keeps in the browser,
 *    preloads the grid's first thumbnails at once and paints an early copy of the page's top and the
 *    grid's first row (same files, same columns, same place); nothing when the kept result is missing,
 *    expired, withheld, or a thumbnail's signed link would no longer work.
 * The shell removes an early copy on another route or a failed remote; the storefront removes it once
 * its own picture shows (shared/src/react/useReplacesFirstPaint.ts: HeroSearch.tsx, PhotoCard.tsx).
 * Any other path (a partner's, an account page) preloads nothing but the config, so a deployment's
 * pages still load only the shell and their own remote.
 *
 * The fetched answers are stashed on `window.__FINISHLINE_PRELOAD__` (FIRST_ROUTE_PRELOAD_GLOBAL) and
 * taken once by the code that needs them: the shell's bootstrap (config), the shell's federation
 * plugin (the manifest), shared's `eventsApi.homePage` (home data) and `ordersApi.purchaseNotification`
 * (through shared/src/api/preloaded.ts). A page whose code does not take them (an older remote) just fetches
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
 * The early photo grid of `/products`, painted from the search result the storefront keeps in the
 * browser (the shop store, shared/src/state/shopStore.ts). Each value mirrors its original, and a
 * Jest test keeps them equal: the store's key and version and the search expiry's key
 * (shared/src/storageKeys.ts), the grid's columns (columnsFor, mfe-storefront/.../useColumns.ts: the
 * first width the count applies below, then the count for wider screens), and the page's texts
 * (mfe-storefront/src/features/products/productsText.ts). `rows`: how many rows of the grid are
 * copied; `minValidMs`: a signed thumbnail link must stay valid at least this long, else nothing is
 * painted (the page would soon say the search session expired, and an expired link is a broken image).
 */
export const PRODUCTS_PAINT = {
  paths: ['/products'],
  shopKey: 'finishline.shop',
  shopVersion: 1,
  expiryKey: 'awsImageExpiry',
  columns: [
    [500, 1],
    [700, 2],
    [1100, 3],
  ],
  wideColumns: 3,
  wideUnlabeledColumns: 5,
  rows: 1,
  minValidMs: 60_000,
  text: {
    bib: 'BIB ',
    congratulations: 'Congratulations. There are {count} photos in this section',
    congratulationsOne: 'Congratulations. There is 1 photo in this section',
    prices: '1 photo ₹{single_photo} · each extra ₹{extra_photo} · 5 or more ₹{five_or_more} · video ₹{video} (+{gst_percent}% GST)',
    report: 'Report picture(s)',
    addAll: 'Add all to cart',
    emptyCart: 'EMPTY CART',
    certificate: 'Generate Certificate',
    photosTab: 'Photos ({count})',
    videosTab: 'Videos ({count})',
    photoId: 'Photo ID: {id}',
    addToCart: 'Add To Cart',
    added: 'Added',
  },
};
/** The browser's kept canary bucket (RELEASE_BUCKET_KEY in shared/src/storageKeys.ts; a Jest test keeps them equal). */
export const RELEASE_BUCKET_KEY = 'finishline.releaseBucket';
/** The purchase notification the shell's header shows (shared/src/api/routes.ts). */
export const PURCHASE_NOTIFICATION_ROUTE = '/api/orders/purchase-notification';

/**
 * Runs in the browser, inlined as its source text: plain ES2017, no imports, nothing that throws.
 * Its parameters are given as JSON literals by firstRoutePreloadScript().
 */
function firstRoutePreload(globalName, storefrontPaths, homePaths, firstPaint, productsPaint, notificationRoute, releaseBucketKey) {
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
  // The products copy shows its words through CSS (content: attr(data-label)), so the page's texts
  // are in the document once, for find-in-page, screen readers and tests alike.
  var label = function (tag, className, text) {
    var node = element(tag, className);
    node.setAttribute('data-label', text);
    return node;
  };
  var fill = function (template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return String(values[name]);
    });
  };
  var whenParsed = function (run) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run);
    else run();
  };
  var removePaint = function () {
    var node = document.getElementById(firstPaint.id);
    if (node) node.parentNode.removeChild(node);
  };
  // Lays an early copy before #root, under the header (index.html's style: its top is the header's
  // height with the purchase marquee, less the marquee's when there is none). Only while the app is
  // not on screen yet: once it is, its own page is on the way.
  var place = function (box, marquee) {
    var root = document.getElementById('root');
    if (!root || root.firstChild || document.getElementById(firstPaint.id)) return;
    box.id = firstPaint.id;
    if (!marquee) box.className += ' fl-first-paint-bare';
    root.parentNode.insertBefore(box, root);
    if (marquee) box.style.top = wrappedMarqueeTop(marquee, root) || '';
  };
  // A visitor who asked for less motion gets the marquee's text standing still and wrapped
  // (shell/src/features/navbar/PurchaseMarquee.tsx): a long one takes two lines or more on a phone,
  // so its height is measured here on a hidden strip styled alike (index.html's .fl-fp-marquee-probe).
  // Null where index.html's fixed top holds (a moving marquee is always one line).
  var wrappedMarqueeTop = function (text, root) {
    if (typeof text !== 'string' || !window.matchMedia || !window.matchMedia('(prefers-reduced-motion: reduce)').matches) return null;
    var probe = element('div', 'fl-fp-marquee-probe', text);
    root.parentNode.insertBefore(probe, root);
    var height = probe.getBoundingClientRect().height;
    probe.parentNode.removeChild(probe);
    var header = window.matchMedia('(min-width: 768px)').matches ? 60 : 52;
    return height > 0 ? header + height + 'px' : null;
  };
  // The hero's renditions: the preferred format's set (for the preload) and the JPEG set (the <img>'s own).
  var sourcesOf = function (hero) {
    var sources = hero.sources || [];
    var jpeg = sources.filter(function (source) {
      return source.type === 'image/jpeg';
    })[0];
    return {
      best: sources[0],
      jpeg: jpeg,
      others: sources.filter(function (source) {
        return source !== jpeg;
      }),
    };
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
  var paintHero = function (hero, marquee) {
    var sets = sourcesOf(hero);
    var box = element('div', 'fl-first-paint');
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
    place(box, marquee);
  };
  // When a signed link stops working: the API's own media links say it in ?exp= (seconds), S3's in
  // X-Amz-Date + X-Amz-Expires; NaN when the link does not say (a public file).
  var linkExpiry = function (href) {
    try {
      var query = new URL(href, location.href).searchParams;
      if (query.get('exp')) return Number(query.get('exp')) * 1000;
      var date = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(query.get('X-Amz-Date') || '');
      if (date) return Date.UTC(+date[1], date[2] - 1, +date[3], +date[4], +date[5], +date[6]) + Number(query.get('X-Amz-Expires')) * 1000;
    } catch (error) {
      ignore(error); // an address the browser cannot read: the picture's own error handler removes the copy
    }
    return NaN;
  };
  // What /products will show first, from the search result the storefront keeps (its shop store), or
  // null when the page will show something else (no result, an expired search, photos withheld by
  // the privacy check) or a link would no longer work by the time the picture arrives.
  var productsPlan = function (shop, expiry) {
    var result = shop && shop.products;
    var photos = result && result.photo;
    if (!photos || !photos.length || (result.isPrivacyCheckEnabled && !result.isVerified)) return null;
    var now = Date.now();
    var fresh = function (time) {
      return !(time < now + productsPaint.minValidMs);
    };
    if (expiry && !fresh(new Date(expiry).getTime())) return null;
    var unlabeled = shop.searchKind === 'unlabeled';
    var columns = unlabeled ? productsPaint.wideUnlabeledColumns : productsPaint.wideColumns;
    for (var i = productsPaint.columns.length - 1; i >= 0; i--) {
      if (window.innerWidth < productsPaint.columns[i][0]) columns = productsPaint.columns[i][1];
    }
    var shown = photos.slice(0, columns * productsPaint.rows).map(function (photo) {
      return { photo: photo, src: photo.image || photo.s3 };
    });
    var usable = shown.every(function (item) {
      return item.src && fresh(linkExpiry(item.src));
    });
    return usable ? { shop: shop, result: result, columns: columns, unlabeled: unlabeled, shown: shown } : null;
  };
  // A copy of the top of /products and the grid's first row (ProductsPage.tsx, PhotoCard.tsx; styled by index.html).
  var paintProducts = function (plan, marquee) {
    var result = plan.result;
    var text = productsPaint.text;
    var cart = plan.shop.cart || [];
    var inCart = function (photo) {
      return cart.some(function (item) {
        return item.id === photo.id && item.type === 'download';
      });
    };
    var box = element('div', 'fl-first-paint-products');
    box.setAttribute('aria-hidden', 'true');
    var page = box.appendChild(element('div', 'fl-fp-page'));
    var head = page.appendChild(element('div', 'fl-fp-head'));
    if (result.eventLogo) {
      var logo = head.appendChild(element('img', 'fl-fp-logo'));
      logo.src = result.eventLogo;
      logo.alt = '';
    }
    var titles = head.appendChild(element('div'));
    titles.appendChild(label('div', 'fl-fp-title', result.eventName));
    titles.appendChild(label('div', 'fl-fp-prices', fill(text.prices, result.priceInfo || {})));
    var congrats = page.appendChild(element('div', 'fl-fp-congrats'));
    congrats.appendChild(label('span', 'fl-fp-bib', text.bib + result.bibNumber));
    congrats.appendChild(label('span', '', result.photo.length === 1 ? text.congratulationsOne : fill(text.congratulations, { count: result.photo.length })));
    var actions = page.appendChild(element('div', 'fl-fp-actions'));
    if (!plan.unlabeled && plan.shop.searchKind !== 'selfie') actions.appendChild(label('span', 'fl-fp-button fl-fp-button-danger', text.report));
    var allIn = result.photo.every(inCart);
    actions.appendChild(label('span', allIn ? 'fl-fp-button fl-fp-button-danger' : 'fl-fp-button fl-fp-button-primary', allIn ? text.emptyCart : text.addAll));
    if (!plan.unlabeled && result.achievementsEligibility && result.achievementsEligibility.certificate_eligible) {
      actions.appendChild(label('span', 'fl-fp-button', text.certificate));
    }
    var tabs = page.appendChild(element('div', 'fl-fp-tabs'));
    tabs.appendChild(label('span', 'fl-fp-tab fl-fp-tab-active', fill(text.photosTab, { count: result.photo.length })));
    if (!plan.unlabeled) tabs.appendChild(label('span', 'fl-fp-tab', fill(text.videosTab, { count: (result.video || []).length })));
    var grid = page.appendChild(element('div', 'fl-fp-grid'));
    grid.style.gridTemplateColumns = 'repeat(' + plan.columns + ', minmax(0, 1fr))';
    var lanes = [];
    for (var lane = 0; lane < plan.columns; lane++) lanes.push(grid.appendChild(element('div', 'fl-fp-lane')));
    plan.shown.forEach(function (item, index) {
      var added = inCart(item.photo);
      var figure = lanes[index % plan.columns].appendChild(element('figure', added ? 'fl-fp-photo fl-fp-photo-added' : 'fl-fp-photo'));
      var image = figure.appendChild(element('img'));
      // A link that no longer works shows the page beneath rather than a broken picture.
      image.onerror = removePaint;
      image.src = item.src;
      image.alt = '';
      // The photo's size from the search answer: the card keeps its height before the picture arrives.
      if (item.photo.width && item.photo.height) {
        image.width = item.photo.width;
        image.height = item.photo.height;
      }
      var caption = figure.appendChild(element('figcaption'));
      caption.appendChild(label('span', '', fill(text.photoId, { id: item.photo.imageid })));
      caption.appendChild(
        label('span', added ? 'fl-fp-button fl-fp-button-small' : 'fl-fp-button fl-fp-button-small fl-fp-button-primary', added ? text.added : text.addToCart),
      );
    });
    place(box, marquee);
  };

  stash.config = fetch('/runtime-config.json', { cache: 'no-store' }).then(json);
  if (storefrontPaths.indexOf(path) < 0) return;
  // The storefront's kept shop store: its search result (for /products) and the notification that
  // search carried (the header's marquee shows it when the server has none).
  var shop = null;
  var expiry = null;
  try {
    shop = JSON.parse(localStorage.getItem(productsPaint.shopKey) || 'null');
    expiry = localStorage.getItem(productsPaint.expiryKey);
  } catch (error) {
    ignore(error); // storage refused, or not JSON: as if nothing were kept
  }
  if (!shop || shop.version !== productsPaint.shopVersion) shop = null;
  var plan = productsPaint.paths.indexOf(path) >= 0 ? productsPlan(shop, expiry) : null;
  // The first thumbnails are requested now, before the config: their addresses are in the kept result.
  if (plan) {
    plan.shown.forEach(function (item, index) {
      preload(item.src, 'image', index === 0);
    });
  }
  var keptNotification = (shop && shop.products && shop.products.purchase_notification) || '';
  var api = stash.config.then(function (config) {
    if (!config.apiBaseUrl) throw new Error('no API');
    return config.apiBaseUrl.replace(/\/$/, '');
  });
  // The header's purchase marquee: fetched now, so the shell's header shows it in its first render
  // (it no longer pushes the page down when it arrives) and the early copies know where they sit.
  stash.notification = api.then(function (base) {
    return fetch(base + notificationRoute).then(json);
  });
  var marquee = stash.notification.then(
    function (envelope) {
      stash.notificationAnswer = envelope;
      return (envelope && envelope.result && envelope.result.purchase_notification) || keptNotification;
    },
    function () {
      return keptNotification;
    },
  );
  if (plan) {
    marquee.then(function (shown) {
      whenParsed(function () {
        paintProducts(plan, shown);
      });
    });
  }
  if (homePaths.indexOf(path) >= 0) {
    stash.home = api.then(function (base) {
      return fetch(base + '/api/home').then(json);
    });
    stash.home
      .then(function (envelope) {
        var hero = envelope && envelope.result && envelope.result.hero_image;
        if (!hero || !hero.image) return;
        stash.homeAnswer = envelope;
        preloadHero(hero);
        return marquee.then(function (shown) {
          whenParsed(function () {
            paintHero(hero, shown);
          });
        });
      })
      .catch(ignore);
  }
  stash.config
    .then(function (config) {
      var manifestUrl = config.remotes && config.remotes.storefront;
      var canary = config.releases && config.releases.storefront && config.releases.storefront.canary;
      var bucket = NaN;
      try {
        if (canary) bucket = parseInt(localStorage.getItem(releaseBucketKey), 10);
      } catch (error) {
        ignore(error); // storage refused: the current release, as for a first visit
      }
      if (bucket >= 0 && bucket < canary.share) manifestUrl = canary.manifestUrl;
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
  const args = [FIRST_ROUTE_PRELOAD_GLOBAL, STOREFRONT_PATHS, HOME_PATHS, FIRST_PAINT, PRODUCTS_PAINT, PURCHASE_NOTIFICATION_ROUTE, RELEASE_BUCKET_KEY]
    .map((value) => JSON.stringify(value))
    .join(', ');
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
