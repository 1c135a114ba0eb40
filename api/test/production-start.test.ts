import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { REPO_ROOT } from '../src/config/config';

const API_DIR = path.join(REPO_ROOT, 'api');
const TSX_LOADER = pathToFileURL(path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** Runs the API's real entry point with env and returns how it ended. */
function runApi(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, 'src/main.ts'], { cwd: API_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('a production start on the embedded defaults', () => {
  it('exits before listening, naming what is missing, and leaves no embedded database behind', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-prod-'));
    try {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_NO_WARNINGS: '1',
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        API_PORT: '0',
        SIGNING_SECRET: 's'.repeat(40),
        PARTNER_DATA_KEY: 'a'.repeat(64),
        PAYU_KEY: 'key',
        PAYU_SALT: 'salt',
        PAYU_URL: 'https://secure.payu.in/_payment',
        PAYU_VERIFY_URL: 'https://info.payu.in/merchant/postservice?form=2',
        PUBLIC_API_URL: 'https://api.finishline.example',
        SHELL_URL: 'https://finishline.example',
      };
      const { code, output } = await runApi(env);
      expect(code).toBe(1);
      expect(output).toContain('NODE_ENV=production refuses to start');
      for (const name of ['DATABASE_URL', 'S3_BUCKET', 'SMTP_URL']) expect(output).toContain(name);
      expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
