#!/usr/bin/env node
/**
 * Serves one built deployment (the shell or a remote) from its dist folder, as its own server
 * (scripts/static-site.mjs does the serving):
 *   node scripts/serve-static.mjs --dir shell/dist --port 3000 --spa [--runtime-config file]
 *   node scripts/serve-static.mjs --dir mfe-storefront/dist --port 3001 --cors
 * --spa        unknown paths answer with index.html (client-side routes of the shell)
 * --cors       allow any origin (remotes are fetched by the shell from another origin)
 * --runtime-config / env RUNTIME_CONFIG_FILE: the file answered at /runtime-config.json
 * --releases   a remote's release folder (scripts/releases.mjs), answered at /releases/<version>/...
 * --policy-config  the runtime config the Content-Security-Policy is built from (default: the
 *              --runtime-config file; a remote is given the shell's so its own page may reach the API)
 * csp-hashes.json in the served folder (the shell's build writes it) lists the hashes of the page's
 *              inline scripts, which the policy's script-src allows.
 * MEDIA_ORIGINS (env): extra origins photos come from besides the API (S3_BUCKET adds the bucket's).
 */
import { parseArgs } from 'node:util';
import { createStaticSite, holdsBuild } from './static-site.mjs';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string', default: '0.0.0.0' },
    spa: { type: 'boolean', default: false },
    cors: { type: 'boolean', default: false },
    'runtime-config': { type: 'string' },
    name: { type: 'string' },
    releases: { type: 'string' },
    'policy-config': { type: 'string' },
  },
});

if (!values.dir || !values.port) {
  console.error('usage: serve-static.mjs --dir <dist> --port <port> [--spa] [--cors] [--runtime-config <file>]');
  process.exit(2);
}

const runtimeConfigFile = values['runtime-config'] ?? process.env.RUNTIME_CONFIG_FILE ?? null;
const site = createStaticSite({
  dir: values.dir,
  name: values.name,
  spa: values.spa,
  cors: values.cors,
  runtimeConfigFile,
  policyConfigFile: values['policy-config'] ?? runtimeConfigFile,
  releases: values.releases ?? null,
});

if (!holdsBuild(site.root)) {
  console.error(`${site.label}: ${site.root} holds no build. Run: node scripts/build.mjs`);
  process.exit(1);
}

const port = Number(values.port);
site.listen(port, values.host).then(
  () => console.log(`${site.label}: serving ${site.root} on http://localhost:${port}`),
  (error) => {
    console.error(`${site.label}: cannot listen on ${port}: ${error.message}`);
    process.exit(1);
  },
);

const stop = () => site.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
