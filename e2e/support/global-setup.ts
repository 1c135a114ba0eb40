/**
 * Starts the whole system once for the run (scripts/start.mjs: API on a fresh database with the
 * demo seed, payment sandbox, shell and five remotes on the E2E ports) and stops it afterwards,
 * including any static server a test restarted.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ARTIFACTS_DIR, DATA_DIR, DATA_DIR_IS_TEMPORARY, PORT_OFFSET, PORTS, readProcesses, REPO_ROOT } from './system';

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  for (const [name, port] of Object.entries(PORTS)) {
    if (await portInUse(port)) throw new Error(`Port ${port} (${name}) is busy: is another end-to-end run still going? Set E2E_PORT_OFFSET to use other ports.`);
  }

  const logPath = path.join(ARTIFACTS_DIR, `system-${PORT_OFFSET}.log`);
  const log = fs.createWriteStream(logPath);
  const system = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start.mjs')], {
    cwd: REPO_ROOT,
    // DEPLOY_DIR: serve copies of the builds, so a rebuild in the work tree during the run changes nothing served.
    env: { ...process.env, PORT_OFFSET: String(PORT_OFFSET), DATA_DIR, DEPLOY_DIR: path.join(DATA_DIR, 'deployments'), FRESH: '1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  system.stdout.pipe(log);
  system.stderr.pipe(log);

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The system did not become ready in 10 minutes; see ${logPath}`)), 600_000);
    system.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('[start] ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    system.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`start.mjs exited (${code}) before it was ready; see ${logPath}`));
    });
  });

  return async () => {
    // Static servers a test restarted are not start.mjs's children: stop them by their recorded pid.
    try {
      for (const { pid } of Object.values(readProcesses().deployments)) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    } catch {
      // no processes.json: nothing was started
    }
    await new Promise<void>((resolve) => {
      if (system.exitCode !== null) return resolve();
      system.once('exit', () => resolve());
      system.kill('SIGTERM');
    });
    log.end();
    // The temporary data folder (database, photos, deployed copies) goes too, unless asked to keep it.
    if (DATA_DIR_IS_TEMPORARY && process.env.E2E_KEEP_DATA !== '1') fs.rmSync(DATA_DIR, { recursive: true, force: true });
  };
}
