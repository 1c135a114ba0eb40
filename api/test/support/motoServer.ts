import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

/**
 * An S3-compatible server for tests: moto_server, started on a free loopback port. Suites that need
 * it describe themselves with describeWithMoto, which skips them, saying so, where moto_server is
 * not installed.
 */
export const hasMoto = spawnSync('moto_server', ['--help'], { stdio: 'ignore' }).status === 0;

export function motoSkipNotice(suite: string, what: string): void {
  if (!hasMoto) console.warn(`${suite}: moto_server is not installed here, so ${what} is not tested in this run.`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`moto_server did not answer at ${url}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export interface MotoServer {
  endpoint: string;
  /** A client of the server, for checking what the API stored. */
  s3: S3Client;
  stop(): Promise<void>;
}

/** Starts moto_server with one bucket; the AWS SDK's credential variables are set for the API and restored by stop(). */
export async function startMoto(bucket: string): Promise<MotoServer> {
  const port = await freePort();
  const moto: ChildProcess = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  const restore = () => {
    for (const [name, value] of [
      ['AWS_ACCESS_KEY_ID', saved.id],
      ['AWS_SECRET_ACCESS_KEY', saved.secret],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  try {
    await waitForHttp(endpoint, 30_000);
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    const s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    return {
      endpoint,
      s3,
      async stop() {
        s3.destroy();
        moto.kill();
        restore();
      },
    };
  } catch (error) {
    moto.kill();
    restore();
    throw error;
  }
}
