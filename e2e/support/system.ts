/**
 * The running system under test: its ports, data folder and the static servers that start.mjs
 * launched (recorded in DATA_DIR/processes.json), so a test can stop, restart or redeploy one
 * deployment alone, and read the mail outbox.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { portsFor } from '../../build/ports.mjs';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'e2e', '.artifacts');

export type Deployment = 'shell' | 'storefront' | 'account' | 'partner' | 'organiser' | 'certificate';
export const REMOTES: Deployment[] = ['storefront', 'account', 'partner', 'organiser', 'certificate'];

/** Offset 100 by default so a developer's `pnpm start` on 3000 is left alone. */
export const PORT_OFFSET = Number.parseInt(process.env.E2E_PORT_OFFSET ?? '100', 10);
export const PORTS = portsFor(PORT_OFFSET);
export const SHELL_URL = `http://localhost:${PORTS.shell}`;
export const API_URL = `http://localhost:${PORTS.api}`;

/** One data folder per run, chosen once in the runner and inherited by the workers through the environment. */
export const DATA_DIR_IS_TEMPORARY = !process.env.E2E_DATA_DIR;
if (!process.env.E2E_DATA_DIR) process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-e2e-'));
export const DATA_DIR = process.env.E2E_DATA_DIR;

const processesFile = () => path.join(DATA_DIR, 'processes.json');

interface Processes {
  /** start.mjs's loopback address that stops a deployment it serves itself (POST /deployments/<name>/stop). */
  control: string;
  /**
   * dir: the folder start.mjs served the deployment from (restoreDeployment goes back to it). hosted:
   * served by start.mjs's own process (pid is then start.mjs's); a deployment a test started again
   * runs as a process of its own. since: when it began serving.
   */
  deployments: Record<Deployment, { pid: number; hosted?: boolean; since?: string; port: number; dir: string; args: string[] }>;
  [key: string]: unknown;
}

export function readProcesses(): Processes {
  return JSON.parse(fs.readFileSync(processesFile(), 'utf8')) as Processes;
}

function writeProcesses(processes: Processes): void {
  fs.writeFileSync(processesFile(), `${JSON.stringify(processes, null, 2)}\n`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function deploymentUrl(name: Deployment): string {
  return `http://localhost:${PORTS[name]}`;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const probeUrl = (name: Deployment) => `${deploymentUrl(name)}/${name === 'shell' ? 'index.html' : 'mf-manifest.json'}`;

/** Stops one deployment's static server (the others keep running). */
export async function stopDeployment(name: Deployment): Promise<void> {
  const { control, deployments } = readProcesses();
  const { pid, hosted } = deployments[name];
  if (hosted) {
    const stopped = await fetch(`${control}/deployments/${name}/stop`, { method: 'POST' });
    if (!stopped.ok) throw new Error(`start.mjs did not stop ${name} (${stopped.status})`);
  } else if (isAlive(pid)) process.kill(pid, 'SIGTERM');
  await waitUntil(async () => !(await answers(probeUrl(name))), `${name} to stop`);
}

/**
 * Starts one deployment's static server again, on its own port, serving its dist/ or another
 * build folder (a redeploy). The new pid is recorded so teardown stops it.
 */
export async function startDeployment(name: Deployment, options: { dir?: string } = {}): Promise<number> {
  const processes = readProcesses();
  const record = processes.deployments[name];
  const args = [...record.args];
  if (options.dir) args[args.indexOf('--dir') + 1] = options.dir;
  const logFile = fs.openSync(path.join(ARTIFACTS_DIR, `${name}-restarted-${PORT_OFFSET}.log`), 'a');
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'serve-static.mjs'), ...args], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', logFile, logFile],
  });
  child.unref();
  if (!child.pid) throw new Error(`Could not start ${name}`);
  processes.deployments[name] = { ...record, pid: child.pid, hosted: false, since: new Date().toISOString(), args };
  writeProcesses(processes);
  await waitUntil(() => answers(probeUrl(name)), `${name} to answer`);
  return child.pid;
}

/** Puts a deployment back as start.mjs had it, serving the folder it started with. */
export async function restoreDeployment(name: Deployment): Promise<void> {
  await stopDeployment(name);
  await startDeployment(name, { dir: readProcesses().deployments[name].dir });
}

export interface OutboxMail {
  file: string;
  text: string;
}

/** Mails the API wrote to DATA_DIR/outbox (newest last): OTP codes, password codes, order mails. */
export function readOutbox(): OutboxMail[] {
  const dir = path.join(DATA_DIR, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((file) => ({ file, mtime: fs.statSync(path.join(dir, file)).mtimeMs }))
    .sort((a, b) => a.mtime - b.mtime)
    .map(({ file }) => ({ file, text: fs.readFileSync(path.join(dir, file), 'utf8') }));
}
