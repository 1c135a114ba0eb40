import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../src/config/config';
import { openDb } from '../src/db/db';

// The embedded database lives in the API's own process: its shared buffers are the API's memory.
describe('the embedded database (PGlite) and its shared buffers', () => {
  const saved = process.env.PGLITE_SHARED_BUFFERS;
  // loadConfig writes generated secrets into its data folder: a folder of this test's own.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-pglite-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  afterEach(() => {
    if (saved === undefined) delete process.env.PGLITE_SHARED_BUFFERS;
    else process.env.PGLITE_SHARED_BUFFERS = saved;
  });

  it('opens with 32MB unless told otherwise, and with the configured size when given', async () => {
    const standard = await openDb({ url: null, dataDir: null });
    try {
      expect(await standard.query('show shared_buffers')).toEqual([{ shared_buffers: '32MB' }]);
    } finally {
      await standard.close();
    }
    const configured = await openDb({ url: null, dataDir: null, pgliteSharedBuffers: '16MB' });
    try {
      expect(await configured.query('show shared_buffers')).toEqual([{ shared_buffers: '16MB' }]);
      // PGlite's own start parameters are kept (single-user mode, the public search path).
      expect(await configured.query('show search_path')).toEqual([{ search_path: 'public' }]);
    } finally {
      await configured.close();
    }
  }, 60_000);

  it('refuses a size it cannot read, saying what it expects', async () => {
    await expect(openDb({ url: null, dataDir: null, pgliteSharedBuffers: 'lots' })).rejects.toThrow(
      'PGLITE_SHARED_BUFFERS must be a size such as 32MB (kB, MB or GB), got "lots"',
    );
    process.env.PGLITE_SHARED_BUFFERS = '128';
    expect(() => loadConfig({ dataDir, databaseUrl: null })).toThrow('PGLITE_SHARED_BUFFERS must be a size such as 32MB (kB, MB or GB), got "128"');
    process.env.PGLITE_SHARED_BUFFERS = '64MB';
    expect(loadConfig({ dataDir, databaseUrl: null }).database.pgliteSharedBuffers).toBe('64MB');
  });
});
