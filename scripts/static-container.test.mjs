import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { REMOTE_NAMES } from '../build/ports.mjs';
import { freePort } from './free-port.mjs';
import { rollback } from './releases.mjs';
import { installShellBuild, releaseRemoteBuild } from './static-container.mjs';

/**
 * The static image's start (deploy/static.Dockerfile, scripts/static-container.mjs) on folders
 * shaped like builds: remotes become immutable releases in the shared volume, the shell's old hashed
 * files stay beside the new ones, five containers starting at once all get recorded, and the server
 * it starts keeps the caching rules (ETag and 304 on entry files, immutable hashed chunks).
 */
const scriptsDir = path.dirname(fileURLToPath(import.meta.url));
let dir;
let env;

/** A folder shaped like a deployment's build output. */
function build(name, files) {
  const folder = path.join(dir, 'builds', name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    fs.writeFileSync(path.join(folder, file), text);
  }
  return folder;
}
const remoteBuild = (marker) =>
  build(`remote-${marker}`, {
    'mf-manifest.json': JSON.stringify({ marker, shared: [{ name: '@finishline/shared/runtime', version: '1.4.0', requiredVersion: '^1.4.0' }] }),
    'remoteEntry.js': `/* ${marker} */`,
    [`${marker === 'one' ? 101 : 202}.0a1b2c3d${marker === 'one' ? 'aa' : 'bb'}.js`]: `/* chunk ${marker} */`,
  });
const config = () => JSON.parse(fs.readFileSync(path.join(dir, 'static', 'runtime-config.json'), 'utf8'));
const record = () => JSON.parse(fs.readFileSync(path.join(dir, 'static', 'releases', 'releases.json'), 'utf8'));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-container-test-'));
  env = { STATIC_DIR: path.join(dir, 'static'), RELEASE_BASE_URL: 'https://storefront.example' };
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the static image: releases in a shared volume', () => {
  test("a remote's build is released once; a restart changes nothing; a new build is v2 with v1 kept whole; a rollback survives a restart", async () => {
    const one = remoteBuild('one');
    expect(await releaseRemoteBuild('storefront', one, env)).toBe('v1');
    expect(config().remotes.storefront).toBe('https://storefront.example/releases/v1/mf-manifest.json');
    expect(await releaseRemoteBuild('storefront', one, env)).toBe('v1');
    expect(record().remotes.storefront.history.map((entry) => entry.version)).toEqual(['v1']);

    const two = remoteBuild('two');
    expect(await releaseRemoteBuild('storefront', two, env)).toBe('v2');
    expect(config().remotes.storefront).toBe('https://storefront.example/releases/v2/mf-manifest.json');
    // A page still running v1 finds every file of it.
    expect(fs.readdirSync(path.join(env.STATIC_DIR, 'releases', 'storefront', 'v1')).sort()).toEqual(fs.readdirSync(one).sort());

    rollback('storefront', 'v1', {
      env: { RELEASES_DIR: path.join(env.STATIC_DIR, 'releases'), RUNTIME_CONFIG_FILE: path.join(env.STATIC_DIR, 'runtime-config.json') },
    });
    expect(await releaseRemoteBuild('storefront', two, env)).toBe('v2');
    expect(config().remotes.storefront).toBe('https://storefront.example/releases/v1/mf-manifest.json');
    expect(record().remotes.storefront.live).toBe('v1');
  });

  test('five remote containers starting at once are all released and all recorded (the shared files are written under a lock)', async () => {
    const module = path.join(scriptsDir, 'static-container.mjs');
    const starts = REMOTE_NAMES.map((remote) => {
      const folder = remoteBuild(remote);
      const code = `import(${JSON.stringify(module)}).then((m) => m.releaseRemoteBuild(${JSON.stringify(remote)}, ${JSON.stringify(folder)}, process.env, 'https://${remote}.example'))`;
      const child = spawn(process.execPath, ['-e', code], { env: { ...process.env, STATIC_DIR: env.STATIC_DIR }, stdio: 'inherit' });
      return new Promise((resolve) => child.on('exit', resolve));
    });
    expect(await Promise.all(starts)).toEqual(REMOTE_NAMES.map(() => 0));
    expect(config().remotes).toEqual(Object.fromEntries(REMOTE_NAMES.map((remote) => [remote, `https://${remote}.example/releases/v1/mf-manifest.json`])));
    expect(Object.keys(record().remotes).sort()).toEqual([...REMOTE_NAMES].sort());
    expect(fs.existsSync(path.join(env.STATIC_DIR, '.lock'))).toBe(false);
  }, 30_000);

  test("the shell's new build goes beside the old hashed files; ones out of every build for KEEP_OLD_CHUNKS_DAYS go; the API address is written", async () => {
    const first = build('shell-1', { 'index.html': '<html>1</html>', 'main.js': '/* 1 */', '11.aaaaaaaa11.js': '/* a */', 'old.bbbbbbbb22.js': '/* b */' });
    const target = await installShellBuild(first, { ...env, API_PUBLIC_URL: 'https://api.example' });
    // One hashed file of the first build is long out of use (its copy is 40 days old).
    const long = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    fs.utimesSync(path.join(target, 'old.bbbbbbbb22.js'), long, long);
    const second = build('shell-2', { 'index.html': '<html>2</html>', 'main.js': '/* 2 */', '22.cccccccc33.js': '/* c */' });
    await installShellBuild(second, { ...env, API_PUBLIC_URL: 'https://api.example', KEEP_OLD_CHUNKS_DAYS: '30' });
    expect(fs.readdirSync(target).sort()).toEqual(['11.aaaaaaaa11.js', '22.cccccccc33.js', 'index.html', 'main.js']);
    expect(fs.readFileSync(path.join(target, 'main.js'), 'utf8')).toBe('/* 2 */');
    expect(config()).toEqual({ apiBaseUrl: 'https://api.example', remotes: {} });
  });

  test('the container serves its release with the caching rules: entry files no-cache with an ETag (304 when unchanged), hashed chunks immutable', async () => {
    const port = await freePort();
    const one = remoteBuild('one');
    const server = spawn(process.execPath, [path.join(scriptsDir, 'static-container.mjs')], {
      env: { ...process.env, ...env, DEPLOYMENT: 'storefront', BUILD_DIR: one, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise((resolve, reject) => {
        server.stdout.on('data', (chunk) => String(chunk).includes('serving') && resolve());
        server.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const base = `http://127.0.0.1:${port}/releases/v1`;
      const entry = await fetch(`${base}/remoteEntry.js`);
      expect([entry.status, entry.headers.get('cache-control')]).toEqual([200, 'no-cache']);
      const etag = entry.headers.get('etag');
      expect(etag).toMatch(/^"/);
      const again = await fetch(`${base}/remoteEntry.js`, { headers: { 'if-none-match': etag } });
      expect([again.status, await again.text()]).toEqual([304, '']);
      const chunk = await fetch(`${base}/101.0a1b2c3daa.js`);
      expect([chunk.status, chunk.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
      expect(entry.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      server.kill('SIGTERM');
    }
  }, 30_000);
});
