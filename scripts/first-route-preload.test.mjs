import vm from 'node:vm';
import { describe, expect, test } from '@jest/globals';
import {
  FIRST_PAINT,
  firstRoutePreloadScript,
  HOME_PATHS,
  inlineScriptsOf,
  PRODUCTS_PAINT,
  PURCHASE_NOTIFICATION_ROUTE,
  RELEASE_BUCKET_KEY,
  scriptHashSource,
  STOREFRONT_PATHS,
} from '../build/firstRoutePreload.mjs';
import { ownerOf } from '../shell/src/app/routeTable.ts';
import { FIRST_PAINT_ID } from '../shared/src/api/preloaded.ts';
import { API_ROUTES } from '../shared/src/api/routes.ts';
import { RELEASE_BUCKET_KEY as SHARED_RELEASE_BUCKET_KEY, SHOP_STORE_KEY, SHOP_STORE_VERSION, STORAGE_KEYS } from '../shared/src/storageKeys.ts';
import { HERO_IMAGE_SIZES } from '../shared/src/types/entities.ts';
import { HERO_SUBTITLE, HERO_TITLE } from '../mfe-storefront/src/features/home/heroText.ts';
import { columnsFor } from '../mfe-storefront/src/features/products/hooks/useColumns.ts';
import {
  congratulationsText,
  photoIdText,
  photosTabText,
  priceInfoText,
  PRODUCTS_TEXT,
  videosTabText,
} from '../mfe-storefront/src/features/products/productsText.ts';
import { REPORT_BUTTON_TEXT } from '../mfe-storefront/src/features/report/reportText.ts';

const CONFIG = {
  apiBaseUrl: 'http://api.example',
  remotes: { storefront: 'http://storefront.example/mf-manifest.json', partner: 'http://partner.example/mf-manifest.json' },
};
const CANARY_MANIFEST = 'http://storefront.example/releases/v2/mf-manifest.json';
const MANIFEST = {
  metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' } },
  exposes: [
    { path: './App', assets: { js: { sync: ['__federation_expose_App.3f2a9c0d.js', '412.0a1b2c3d.js'] } } },
    { path: './Other', assets: { js: { sync: ['999.0a1b2c3d.js'] } } },
  ],
};
const WEBP = 'http://api.example/media/public/renditions/hero/h/480.webp 480w, http://api.example/media/public/renditions/hero/h/720.webp 720w';
const JPEG = 'http://api.example/media/public/renditions/hero/h/480.jpg 480w, http://api.example/media/public/renditions/hero/h/720.jpg 720w';
const HERO = {
  image: 'http://api.example/api/media/hero.jpg',
  alt: 'Runners crossing the finish line',
  width: 1920,
  height: 800,
  sources: [
    { type: 'image/webp', srcset: WEBP },
    { type: 'image/jpeg', srcset: JPEG },
  ],
};
const homeWith = (hero) => ({ StatusCode: 200, HasError: false, Message: '', result: { hero_image: hero } });
const HOME = homeWith(HERO);
const notificationOf = (text) => ({ StatusCode: 200, HasError: false, Message: '', result: { purchase_notification: text } });
const NOTIFICATION = notificationOf('A runner just bought photos of Mumbai Coastal Marathon 2026');
const NOTIFICATION_URL = `http://api.example${PURCHASE_NOTIFICATION_ROUTE}`;

const HOUR = 3600_000;
/** A thumbnail link as the API signs it (?exp= in seconds), valid for `validMs` more. */
const signed = (name, validMs = 2 * HOUR) => `http://api.example/media/thumbs/${name}.jpg?exp=${Math.floor((Date.now() + validMs) / 1000)}&sig=abc`;
const photo = (id, validMs) => ({
  id,
  imageid: `MCM26-${id}`,
  image: signed(`t${id}`, validMs),
  s3: signed(`p${id}`, validMs),
  category: 'image',
  type: 'download',
  bibNumber: 'TT30000',
});
const PRICES = { single_photo: 100, extra_photo: 50, five_or_more: 400, video: 150, gst_percent: 18 };
/** The storefront's kept shop store after a BIB search of six photos and two videos. */
function keptShop({ photos = [1, 2, 3, 4, 5, 6].map((id) => photo(id)), searchKind = 'bib', cart = [], ...result } = {}) {
  return {
    version: SHOP_STORE_VERSION,
    eventId: 7,
    eventName: 'Mumbai Coastal Marathon 2026',
    bibNumber: 'TT30000',
    searchKind,
    cart,
    products: {
      eventId: 7,
      eventName: 'Mumbai Coastal Marathon 2026',
      eventLogo: 'http://api.example/media/public/logos/mcm.png',
      bibNumber: 'TT30000',
      photo: photos,
      video: [photo(90), photo(91)],
      priceInfo: PRICES,
      achievementsEligibility: { certificate_eligible: false },
      isPrivacyCheckEnabled: false,
      isVerified: false,
      purchase_notification: null,
      ...result,
    },
  };
}
/** localStorage as the storefront leaves it after that search (the session's expiry beside the store). */
const storageAfterSearch = (shop = keptShop(), expiry = new Date(Date.now() + 2 * HOUR).toISOString()) => ({
  [SHOP_STORE_KEY]: JSON.stringify(shop),
  ...(expiry ? { [STORAGE_KEYS.awsImageExpiry]: expiry } : {}),
});

/** A DOM node as far as the script uses it: properties, attributes, children. */
function fakeNode(tag) {
  return {
    tag,
    attributes: {},
    style: {},
    children: [],
    setAttribute(name, value) {
      this.attributes[name] = value;
    },
    appendChild(child) {
      this.children.push(child);
      return child;
    },
  };
}

/**
 * Runs the page's inline script as a browser would, on a page opened at `pathname` (its #root empty,
 * or already holding the app); answers its requests from the documents above.
 */
async function openPage(pathname, { home = HOME, notification = NOTIFICATION, appOnScreen = false, storage = {}, width = 412, config = CONFIG } = {}) {
  const fetched = [];
  const preloaded = [];
  const painted = [];
  const answer = (body) => ({ ok: body !== null, status: body === null ? 500 : 200, json: async () => body, clone: () => answer(body) });
  const documents = {
    '/runtime-config.json': config,
    [CONFIG.remotes.storefront]: MANIFEST,
    [CANARY_MANIFEST]: MANIFEST,
    'http://api.example/api/home': home,
    [NOTIFICATION_URL]: notification,
  };
  const root = { id: 'root', firstChild: appOnScreen ? fakeNode('div') : null };
  root.parentNode = {
    insertBefore: (node, before) => {
      node.parentNode = root.parentNode;
      painted.push({ node, before });
    },
    removeChild: (node) =>
      painted.splice(
        painted.findIndex((entry) => entry.node === node),
        1,
      ),
  };
  const window = {
    location: { pathname, href: `http://shop.example${pathname}` },
    innerWidth: width,
    localStorage: { getItem: (key) => storage[key] ?? null },
    URL,
    fetch: async (url) => {
      fetched.push(url);
      if (!(url in documents)) throw new Error(`unexpected request ${url}`);
      return answer(documents[url]);
    },
    document: {
      readyState: 'interactive',
      createElement: fakeNode,
      getElementById: (id) => (id === 'root' ? root : (painted.find(({ node }) => node.id === id)?.node ?? null)),
      head: {
        appendChild: (link) =>
          preloaded.push({
            href: link.href,
            as: link.as,
            fetchpriority: link.attributes.fetchpriority,
            ...(link.attributes.imagesrcset ? { type: link.type, imagesrcset: link.attributes.imagesrcset, imagesizes: link.attributes.imagesizes } : {}),
          }),
      },
    },
  };
  window.window = window;
  vm.runInNewContext(firstRoutePreloadScript(), window);
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  return { fetched, preloaded, painted, stash: window.__FINISHLINE_PRELOAD__ };
}

describe('the first route’s requests, started by the shell’s page', () => {
  test('the paths it treats as the storefront’s are the storefront’s in the route table', () => {
    for (const path of STOREFRONT_PATHS) expect([path, ownerOf(path)]).toEqual([path, 'storefront']);
    for (const path of HOME_PATHS) expect(STOREFRONT_PATHS).toContain(path);
  });

  test('on / : the config, the storefront’s manifest, entry and App, the purchase notification, the home data and the hero image', async () => {
    const { fetched, preloaded, stash } = await openPage('/');
    expect(fetched[0]).toBe('/runtime-config.json');
    expect(fetched.slice(1).sort()).toEqual(['http://api.example/api/home', NOTIFICATION_URL, 'http://storefront.example/mf-manifest.json']);
    expect(preloaded).toEqual(
      expect.arrayContaining([
        { href: undefined, as: 'image', fetchpriority: 'high', type: 'image/webp', imagesrcset: WEBP, imagesizes: HERO_IMAGE_SIZES },
        { href: 'http://storefront.example/remoteEntry.js', as: 'script', fetchpriority: undefined },
        { href: 'http://storefront.example/__federation_expose_App.3f2a9c0d.js', as: 'script', fetchpriority: undefined },
        { href: 'http://storefront.example/412.0a1b2c3d.js', as: 'script', fetchpriority: undefined },
      ]),
    );
    expect(preloaded).toHaveLength(4);
    expect(Object.keys(stash).sort()).toEqual(['config', 'home', 'homeAnswer', 'manifest', 'notification', 'notificationAnswer']);
    expect(await stash.home).toEqual(HOME);
    expect(stash.homeAnswer).toEqual(HOME);
    expect(stash.notificationAnswer).toEqual(NOTIFICATION);
  });

  test('on / : the hero is painted before the app, with the same files and sizes as the preload and the storefront’s hero', async () => {
    const { preloaded, painted } = await openPage('/');
    expect(painted).toHaveLength(1);
    const { node: paint, before } = painted[0];
    expect(before.id).toBe('root');
    // Under the header with its purchase marquee (there is a notification to show).
    expect([paint.id, paint.className]).toEqual([FIRST_PAINT_ID, 'fl-first-paint']);
    const [picture, text] = paint.children;
    const [source, image] = picture.children;
    expect(picture.tag).toBe('picture');
    // The preferred format in a <source>, the JPEG set on the <img>: what the storefront's hero renders.
    expect({ tag: source.tag, type: source.type, srcset: source.srcset, sizes: source.sizes }).toEqual({
      tag: 'source',
      type: 'image/webp',
      srcset: WEBP,
      sizes: HERO_IMAGE_SIZES,
    });
    expect({ tag: image.tag, src: image.src, srcset: image.srcset, sizes: image.sizes, alt: image.alt, fetchpriority: image.attributes.fetchpriority }).toEqual(
      {
        tag: 'img',
        src: HERO.image,
        srcset: JPEG,
        sizes: HERO_IMAGE_SIZES,
        alt: 'Runners crossing the finish line',
        fetchpriority: 'high',
      },
    );
    const preload = preloaded.find((link) => link.as === 'image');
    expect([preload.imagesrcset, preload.imagesizes, preload.type]).toEqual([source.srcset, source.sizes, source.type]);
    // The headline and subtitle as text, not a heading: the storefront's hero brings the page's one <h1>.
    expect(text.children.map((node) => [node.tag, node.textContent])).toEqual([
      ['div', HERO_TITLE],
      ['div', HERO_SUBTITLE],
      ['div', undefined],
    ]);
  });

  test('on / : an API without renditions gets the original preloaded and painted; no hero, nothing painted', async () => {
    const plain = await openPage('/', { home: homeWith({ image: HERO.image, alt: 'x' }) });
    expect(plain.preloaded).toContainEqual({ href: HERO.image, as: 'image', fetchpriority: 'high' });
    const image = plain.painted[0].node.children[0].children[0];
    expect([image.tag, image.src, image.srcset]).toEqual(['img', HERO.image, undefined]);
    const none = await openPage('/', { home: homeWith({ image: '', alt: '' }) });
    expect(none.painted).toEqual([]);
    expect(none.preloaded.filter((link) => link.as === 'image')).toEqual([]);
  });

  test('on / : nothing is painted once the app is on screen (its own hero is on the way)', async () => {
    const { painted, preloaded } = await openPage('/', { appOnScreen: true });
    expect(painted).toEqual([]);
    expect(preloaded.filter((link) => link.as === 'image')).toHaveLength(1);
  });

  test('the early hero’s names are those of the shared code and the storefront’s hero', () => {
    expect(FIRST_PAINT).toEqual({ id: FIRST_PAINT_ID, sizes: HERO_IMAGE_SIZES, title: HERO_TITLE, subtitle: HERO_SUBTITLE });
  });

  test('on / : without a notification to show, the hero sits right under the header’s bar; one kept from the last search shows', async () => {
    const none = await openPage('/', { notification: notificationOf(null) });
    expect(none.painted[0].node.className).toBe('fl-first-paint fl-first-paint-bare');
    const failed = await openPage('/', { notification: null });
    expect(failed.painted[0].node.className).toBe('fl-first-paint fl-first-paint-bare');
    const kept = await openPage('/', {
      notification: notificationOf(null),
      storage: storageAfterSearch(keptShop({ purchase_notification: 'A runner just bought photos of X' })),
    });
    expect(kept.painted[0].node.className).toBe('fl-first-paint');
  });

  test('on /products without a kept search : the storefront’s files and the notification, not the home data, nothing painted', async () => {
    const { fetched, preloaded, painted } = await openPage('/products/');
    expect(painted).toEqual([]);
    expect(fetched.sort()).toEqual(['/runtime-config.json', NOTIFICATION_URL, 'http://storefront.example/mf-manifest.json']);
    expect(preloaded.map((link) => link.href)).not.toContain('http://api.example/api/media/hero.jpg');
    expect(preloaded).toHaveLength(3);
  });

  test('a browser inside a storefront canary’s share (its kept bucket) preloads the canary; others, and a first visit, the current release', async () => {
    const config = {
      ...CONFIG,
      releases: { storefront: { version: 'v1', canary: { version: 'v2', manifestUrl: CANARY_MANIFEST, share: 10, sharedRange: '^1.0.0' } } },
    };
    const manifestOf = async (storage) => (await openPage('/products', { config, storage })).stash.manifest.url;
    expect(RELEASE_BUCKET_KEY).toBe(SHARED_RELEASE_BUCKET_KEY);
    expect(await manifestOf({ [RELEASE_BUCKET_KEY]: '9' })).toBe(CANARY_MANIFEST);
    expect(await manifestOf({ [RELEASE_BUCKET_KEY]: '10' })).toBe(CONFIG.remotes.storefront);
    expect(await manifestOf({})).toBe(CONFIG.remotes.storefront);
  });

  test.each(['/registration', '/show_revenue', '/order-history', '/sign-in', '/eventcertificate'])(
    'on %s : the config only, nothing of the storefront',
    async (path) => {
      const { fetched, preloaded, painted } = await openPage(path, { storage: storageAfterSearch() });
      expect(fetched).toEqual(['/runtime-config.json']);
      expect(preloaded).toEqual([]);
      expect(painted).toEqual([]);
    },
  );
});

/** The early copy's parts, as the tests read them: a node's label or text, and its nodes of a class. */
const labelOf = (node) => node.attributes['data-label'] ?? node.textContent;
function find(node, className) {
  const found = [];
  const visit = (current) => {
    if ((current.className ?? '').split(' ').includes(className)) found.push(current);
    current.children.forEach(visit);
  };
  visit(node);
  return found;
}

describe('the early grid of /products, painted from the search kept in the browser', () => {
  test('the top of the page and the first row: the same photo files, texts and columns as the page’s own', async () => {
    // One store, compared against itself: its links' exp is the clock's second when built.
    const shop = keptShop();
    const { painted, preloaded, fetched } = await openPage('/products', { storage: storageAfterSearch(shop) });
    expect(fetched).not.toContain('http://api.example/api/home');
    expect(painted).toHaveLength(1);
    const box = painted[0].node;
    expect([box.id, box.className, box.attributes['aria-hidden']]).toEqual([FIRST_PAINT_ID, 'fl-first-paint-products', 'true']);
    const result = shop.products;
    expect(labelOf(find(box, 'fl-fp-title')[0])).toBe(result.eventName);
    expect(labelOf(find(box, 'fl-fp-prices')[0])).toBe(priceInfoText(PRICES));
    expect(find(box, 'fl-fp-logo')[0].src).toBe(result.eventLogo);
    const congrats = find(box, 'fl-fp-congrats')[0].children.map(labelOf);
    expect(congrats).toEqual([`BIB ${result.bibNumber}`, congratulationsText(6)]);
    expect(find(box, 'fl-fp-button').slice(0, 2).map(labelOf)).toEqual([REPORT_BUTTON_TEXT, PRODUCTS_TEXT.addAll]);
    expect(find(box, 'fl-fp-tab').map(labelOf)).toEqual([photosTabText(6), videosTabText(2)]);
    // A 412 px phone: one column, so the first row is the first photo, the file the page's grid shows.
    const grid = find(box, 'fl-fp-grid')[0];
    expect(grid.style.gridTemplateColumns).toBe('repeat(1, minmax(0, 1fr))');
    const photos = find(box, 'fl-fp-photo');
    expect(photos).toHaveLength(1);
    const [image, caption] = photos[0].children;
    expect([image.tag, image.src, typeof image.onerror]).toEqual(['img', result.photo[0].image, 'function']);
    expect(caption.children.map(labelOf)).toEqual([photoIdText('MCM26-1'), PRODUCTS_TEXT.addToCart]);
    // Requested at once, before the config, with the same address (downloaded once), the first with high priority.
    expect(preloaded.filter((link) => link.as === 'image')).toEqual([{ href: result.photo[0].image, as: 'image', fetchpriority: 'high' }]);
    // Its words are attributes (shown by CSS), so the page's texts are in the document once.
    expect(find(box, 'fl-fp-title')[0].textContent).toBeUndefined();
  });

  test.each([
    [360, false],
    [650, false],
    [1000, false],
    [1300, false],
    [1300, true],
  ])('at %i px wide (unlabeled %s) the row has as many photos as the page’s grid has columns', async (width, unlabeled) => {
    const shop = keptShop({ searchKind: unlabeled ? 'unlabeled' : 'bib' });
    const { painted } = await openPage('/products', { width, storage: storageAfterSearch(shop) });
    const columns = columnsFor(width, unlabeled);
    const box = painted[0].node;
    expect(find(box, 'fl-fp-lane')).toHaveLength(columns);
    expect(find(box, 'fl-fp-photo').map((figure) => figure.children[0].src)).toEqual(shop.products.photo.slice(0, columns).map((p) => p.image));
    // Photo i in lane i, as MasonryGrid places them.
    expect(find(box, 'fl-fp-lane').map((lane) => lane.children.length)).toEqual(Array(columns).fill(1));
    // No report button and no videos tab on unlabeled photos.
    expect(find(box, 'fl-fp-tab')).toHaveLength(unlabeled ? 1 : 2);
    expect(find(box, 'fl-fp-button').map(labelOf)).toContain(unlabeled ? PRODUCTS_TEXT.addAll : REPORT_BUTTON_TEXT);
  });

  test('a photo whose size the search sent keeps its place before the picture arrives; one without a size gets none', async () => {
    const shop = keptShop({ photos: [{ ...photo(1), width: 4000, height: 2667 }, photo(2)] });
    const { painted } = await openPage('/products', { width: 650, storage: storageAfterSearch(shop) });
    const [sized, unsized] = find(painted[0].node, 'fl-fp-photo').map((figure) => figure.children[0]);
    expect([sized.width, sized.height]).toEqual([4000, 2667]);
    expect([unsized.width, unsized.height]).toEqual([undefined, undefined]);
  });

  test('the buttons follow the kept cart and the certificate eligibility, the thumbnail falls back to the preview', async () => {
    const first = { ...photo(1), image: '' };
    const shop = keptShop({ photos: [first], cart: [{ id: 1, type: 'download', category: 'image' }], achievementsEligibility: { certificate_eligible: true } });
    const { painted } = await openPage('/products', { storage: storageAfterSearch(shop) });
    const box = painted[0].node;
    expect(find(box, 'fl-fp-actions')[0].children.map(labelOf)).toEqual([REPORT_BUTTON_TEXT, PRODUCTS_TEXT.emptyCart, PRODUCTS_TEXT.certificate]);
    expect(find(box, 'fl-fp-photo')[0].className).toBe('fl-fp-photo fl-fp-photo-added');
    expect(find(box, 'fl-fp-photo')[0].children[0].src).toBe(first.s3);
    expect(labelOf(find(box, 'fl-fp-photo')[0].children[1].children[1])).toBe(PRODUCTS_TEXT.added);
  });

  test('sits under the marquee when the server or the kept search has a notification, else under the bar', async () => {
    expect((await openPage('/products', { storage: storageAfterSearch() })).painted[0].node.className).toBe('fl-first-paint-products');
    const bare = await openPage('/products', { notification: notificationOf(null), storage: storageAfterSearch() });
    expect(bare.painted[0].node.className).toBe('fl-first-paint-products fl-first-paint-bare');
    const kept = await openPage('/products', {
      notification: null,
      storage: storageAfterSearch(keptShop({ purchase_notification: 'A runner just bought photos of X' })),
    });
    expect(kept.painted[0].node.className).toBe('fl-first-paint-products');
  });

  test('a thumbnail that fails to load removes the copy (the page beneath, never a broken picture)', async () => {
    const { painted } = await openPage('/products', { storage: storageAfterSearch() });
    find(painted[0].node, 'fl-fp-photo')[0].children[0].onerror();
    expect(painted).toEqual([]);
  });

  const s3Link = (signedAt, seconds) =>
    `https://bucket.example/thumbs/t1.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=${new Date(signedAt).toISOString().replace(/[-:]|\.\d{3}/g, '')}&X-Amz-Expires=${seconds}&X-Amz-Signature=abc`;
  test.each([
    ['no kept search', {}],
    ['a store of another version', storageAfterSearch({ ...keptShop(), version: SHOP_STORE_VERSION + 1 })],
    ['a store that is not JSON', { [SHOP_STORE_KEY]: '{not json' }],
    ['no photos', storageAfterSearch(keptShop({ photos: [] }))],
    ['photos withheld by the privacy check', storageAfterSearch(keptShop({ isPrivacyCheckEnabled: true, isVerified: false }))],
    ['an expired search session', storageAfterSearch(keptShop(), new Date(Date.now() - 1000).toISOString())],
    ['a session ending within a minute', storageAfterSearch(keptShop(), new Date(Date.now() + 30_000).toISOString())],
    ['a thumbnail link past its exp', storageAfterSearch(keptShop({ photos: [photo(1, -1000)] }))],
    ['a thumbnail link ending within a minute', storageAfterSearch(keptShop({ photos: [photo(1, 20_000)] }))],
    ['an S3 link past X-Amz-Date + X-Amz-Expires', storageAfterSearch(keptShop({ photos: [{ ...photo(1), image: s3Link(Date.now() - 2 * HOUR, 3600) }] }))],
  ])('nothing is painted or preloaded with %s', async (_, storage) => {
    const { painted, preloaded } = await openPage('/products', { storage });
    expect(painted).toEqual([]);
    expect(preloaded.filter((link) => link.as === 'image')).toEqual([]);
  });

  test('painted with a valid S3 link, and with no session expiry stored (none to check, as the page reads it)', async () => {
    const s3 = await openPage('/products', {
      storage: storageAfterSearch(keptShop({ photos: [{ ...photo(1), image: s3Link(Date.now() - HOUR, 3 * 3600) }] })),
    });
    expect(s3.painted).toHaveLength(1);
    const noExpiry = await openPage('/products', { storage: storageAfterSearch(keptShop(), null) });
    expect(noExpiry.painted).toHaveLength(1);
  });

  test('nothing is painted once the app is on screen (its own page is on the way)', async () => {
    const { painted } = await openPage('/products', { appOnScreen: true, storage: storageAfterSearch() });
    expect(painted).toEqual([]);
  });

  test('only on /products; the home page paints its hero, not the grid', async () => {
    for (const path of ['/cart', '/searchbyselfie']) expect((await openPage(path, { storage: storageAfterSearch() })).painted).toEqual([]);
    const home = await openPage('/', { storage: storageAfterSearch() });
    expect(home.painted.map(({ node }) => node.className)).toEqual(['fl-first-paint']);
  });

  test('its names, columns and texts are those of the shared code and the storefront’s page', () => {
    expect([PRODUCTS_PAINT.shopKey, PRODUCTS_PAINT.shopVersion, PRODUCTS_PAINT.expiryKey]).toEqual([
      SHOP_STORE_KEY,
      SHOP_STORE_VERSION,
      STORAGE_KEYS.awsImageExpiry,
    ]);
    expect(PURCHASE_NOTIFICATION_ROUTE).toBe(API_ROUTES.purchaseNotification);
    for (const path of PRODUCTS_PAINT.paths) expect(STOREFRONT_PATHS).toContain(path);
    const scriptColumns = (width, unlabeled) => {
      let columns = unlabeled ? PRODUCTS_PAINT.wideUnlabeledColumns : PRODUCTS_PAINT.wideColumns;
      for (const [below, count] of [...PRODUCTS_PAINT.columns].reverse()) if (width < below) columns = count;
      return columns;
    };
    for (let width = 280; width <= 1400; width += 10) {
      for (const unlabeled of [false, true])
        expect([width, unlabeled, scriptColumns(width, unlabeled)]).toEqual([width, unlabeled, columnsFor(width, unlabeled)]);
    }
    const { text } = PRODUCTS_PAINT;
    const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
    expect(fill(text.prices, PRICES)).toBe(priceInfoText(PRICES));
    expect(fill(text.congratulations, { count: 7 })).toBe(congratulationsText(7));
    expect(text.congratulationsOne).toBe(congratulationsText(1));
    expect([fill(text.photosTab, { count: 7 }), fill(text.videosTab, { count: 2 }), fill(text.photoId, { id: 'X-1' })]).toEqual([
      photosTabText(7),
      videosTabText(2),
      photoIdText('X-1'),
    ]);
    expect([text.report, text.addAll, text.emptyCart, text.certificate, text.addToCart, text.added]).toEqual([
      REPORT_BUTTON_TEXT,
      PRODUCTS_TEXT.addAll,
      PRODUCTS_TEXT.emptyCart,
      PRODUCTS_TEXT.certificate,
      PRODUCTS_TEXT.addToCart,
      PRODUCTS_TEXT.added,
    ]);
  });
});

describe('the inline script’s hash', () => {
  test('is the CSP source a browser computes for the same text', () => {
    // The example of the CSP specification's hash-source.
    expect(scriptHashSource("alert('Hello, world.');")).toBe("'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='");
  });

  test('is taken of every inline script of the page and of no script file', () => {
    const html = `<head><script>${firstRoutePreloadScript()}</script><script defer="defer" src="main.js"></script></head>`;
    expect(inlineScriptsOf(html)).toEqual([firstRoutePreloadScript()]);
  });
});
