import vm from 'node:vm';
import { describe, expect, test } from '@jest/globals';
import { firstRoutePreloadScript, HOME_PATHS, inlineScriptsOf, scriptHashSource, STOREFRONT_PATHS } from '../build/firstRoutePreload.mjs';
import { ownerOf } from '../shell/src/app/routeTable.ts';

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
const HOME = { StatusCode: 200, HasError: false, Message: '', result: { hero_image: { image: 'http://api.example/api/media/hero.jpg' } } };

/** Runs the page's inline script as a browser would, on a page opened at `pathname`; answers its requests from the documents above. */
async function openPage(pathname) {
  const fetched = [];
  const preloaded = [];
  const answer = (body) => ({ ok: true, status: 200, json: async () => body, clone: () => answer(body) });
  const documents = { '/runtime-config.json': CONFIG, [CONFIG.remotes.storefront]: MANIFEST, 'http://api.example/api/home': HOME };
  const window = {
    location: { pathname },
    URL,
    fetch: async (url) => {
      fetched.push(url);
      if (!(url in documents)) throw new Error(`unexpected request ${url}`);
      return answer(documents[url]);
    },
    document: {
      createElement: () => ({ setAttribute(name, value) { this[name] = value; } }),
      head: { appendChild: (link) => preloaded.push({ href: link.href, as: link.as, fetchpriority: link.fetchpriority }) },
    },
  };
  window.window = window;
  vm.runInNewContext(firstRoutePreloadScript(), window);
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  return { fetched, preloaded, stash: window.__FINISHLINE_PRELOAD__ };
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
        { href: 'http://api.example/api/media/hero.jpg', as: 'image', fetchpriority: 'high' },
        { href: 'http://storefront.example/remoteEntry.js', as: 'script', fetchpriority: undefined },
        { href: 'http://storefront.example/__federation_expose_App.3f2a9c0d.js', as: 'script', fetchpriority: undefined },
        { href: 'http://storefront.example/412.0a1b2c3d.js', as: 'script', fetchpriority: undefined },
      ]),
    );
    expect(preloaded).toHaveLength(4);
    expect(Object.keys(stash).sort()).toEqual(['config', 'home', 'manifest']);
    expect(await stash.home).toEqual(HOME);
  });

  test('on /products : the storefront’s files but not the home data', async () => {
    const { fetched, preloaded } = await openPage('/products/');
    expect(fetched).toEqual(['/runtime-config.json', 'http://storefront.example/mf-manifest.json']);
    expect(preloaded.map((link) => link.href)).not.toContain('http://api.example/api/media/hero.jpg');
    expect(preloaded).toHaveLength(3);
  });

  test.each(['/registration', '/show_revenue', '/order-history', '/sign-in', '/eventcertificate'])('on %s : the config only, nothing of the storefront', async (path) => {
    const { fetched, preloaded } = await openPage(path);
    expect(fetched).toEqual(['/runtime-config.json']);
    expect(preloaded).toEqual([]);
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
