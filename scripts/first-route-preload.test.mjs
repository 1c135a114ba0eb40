import vm from 'node:vm';
import { describe, expect, test } from '@jest/globals';
import { FIRST_PAINT, firstRoutePreloadScript, HOME_PATHS, inlineScriptsOf, scriptHashSource, STOREFRONT_PATHS } from '../build/firstRoutePreload.mjs';
import { ownerOf } from '../shell/src/app/routeTable.ts';
import { FIRST_PAINT_ID } from '../shared/src/api/preloaded.ts';
import { HERO_IMAGE_SIZES } from '../shared/src/types/entities.ts';
import { HERO_SUBTITLE, HERO_TITLE } from '../mfe-storefront/src/features/home/heroText.ts';

const CONFIG = {
  apiBaseUrl: 'http://api.example',
  remotes: { storefront: 'http://storefront.example/mf-manifest.json', partner: 'http://partner.example/mf-manifest.json' },
};
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

/** A DOM node as far as the script uses it: properties, attributes, children. */
function fakeNode(tag) {
  return {
    tag,
    attributes: {},
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
async function openPage(pathname, { home = HOME, appOnScreen = false } = {}) {
  const fetched = [];
  const preloaded = [];
  const painted = [];
  const answer = (body) => ({ ok: true, status: 200, json: async () => body, clone: () => answer(body) });
  const documents = { '/runtime-config.json': CONFIG, [CONFIG.remotes.storefront]: MANIFEST, 'http://api.example/api/home': home };
  const root = { id: 'root', firstChild: appOnScreen ? fakeNode('div') : null };
  root.parentNode = { insertBefore: (node, before) => painted.push({ node, before }) };
  const window = {
    location: { pathname },
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

  test('on / : the config, the storefront’s manifest, entry and App, the home data and the hero image', async () => {
    const { fetched, preloaded, stash } = await openPage('/');
    expect(fetched).toEqual(['/runtime-config.json', 'http://api.example/api/home', 'http://storefront.example/mf-manifest.json']);
    expect(preloaded).toEqual(
      expect.arrayContaining([
        { href: undefined, as: 'image', fetchpriority: 'high', type: 'image/webp', imagesrcset: WEBP, imagesizes: HERO_IMAGE_SIZES },
        { href: 'http://storefront.example/remoteEntry.js', as: 'script', fetchpriority: undefined },
        { href: 'http://storefront.example/__federation_expose_App.3f2a9c0d.js', as: 'script', fetchpriority: undefined },
        { href: 'http://storefront.example/412.0a1b2c3d.js', as: 'script', fetchpriority: undefined },
      ]),
    );
    expect(preloaded).toHaveLength(4);
    expect(Object.keys(stash).sort()).toEqual(['config', 'home', 'homeAnswer', 'manifest']);
    expect(await stash.home).toEqual(HOME);
    expect(stash.homeAnswer).toEqual(HOME);
  });

  test('on / : the hero is painted before the app, with the same files and sizes as the preload and the storefront’s hero', async () => {
    const { preloaded, painted } = await openPage('/');
    expect(painted).toHaveLength(1);
    const { node: paint, before } = painted[0];
    expect(before.id).toBe('root');
    expect([paint.id, paint.className]).toEqual([FIRST_PAINT_ID, 'fl-first-paint']);
    const [picture, text] = paint.children;
    const [source, image] = picture.children;
    expect(picture.tag).toBe('picture');
    // The preferred format in a <source>, the JPEG set on the <img>: what the storefront's hero renders.
    expect({ tag: source.tag, type: source.type, srcset: source.srcset, sizes: source.sizes }).toEqual({ tag: 'source', type: 'image/webp', srcset: WEBP, sizes: HERO_IMAGE_SIZES });
    expect({ tag: image.tag, src: image.src, srcset: image.srcset, sizes: image.sizes, alt: image.alt, fetchpriority: image.attributes.fetchpriority }).toEqual({
      tag: 'img',
      src: HERO.image,
      srcset: JPEG,
      sizes: HERO_IMAGE_SIZES,
      alt: 'Runners crossing the finish line',
      fetchpriority: 'high',
    });
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

  test('on /products : the storefront’s files but not the home data', async () => {
    const { fetched, preloaded, painted } = await openPage('/products/');
    expect(painted).toEqual([]);
    expect(fetched).toEqual(['/runtime-config.json', 'http://storefront.example/mf-manifest.json']);
    expect(preloaded.map((link) => link.href)).not.toContain('http://api.example/api/media/hero.jpg');
    expect(preloaded).toHaveLength(3);
  });

  test.each(['/registration', '/show_revenue', '/order-history', '/sign-in', '/eventcertificate'])('on %s : the config only, nothing of the storefront', async (path) => {
    const { fetched, preloaded, painted } = await openPage(path);
    expect(fetched).toEqual(['/runtime-config.json']);
    expect(preloaded).toEqual([]);
    expect(painted).toEqual([]);
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
