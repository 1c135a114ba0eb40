/** Small pieces the benchmark scripts share. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db, QueryOptions, Row } from '../src/db/db';
// The tests' helpers for a database of one's own on the server.
import { databaseOn, onPgServer as onServer } from '../test/support/pgServer';

/** A database that records every statement it runs (to explain or replay them afterwards). */
export function recording(db: Db, seen: Array<{ sql: string; params: unknown[] }>): Db {
  const wrap = (inner: Db): Db => ({
    kind: inner.kind,
    query: <T extends Row = Row>(sql: string, params: unknown[] = [], options?: QueryOptions) => {
      seen.push({ sql, params });
      return inner.query<T>(sql, params, options);
    },
    transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
    exec: (sql) => inner.exec(sql),
    close: () => inner.close(),
    native: inner.native,
  });
  return wrap(db);
}

/** The same JPEG with a comment segment after SOI: other bytes, same picture (so a different SHA-256). */
export function withComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, body, jpeg.subarray(2)]);
}

/** Runs a benchmark's main and exits: 0 when it finished, 1 with the error printed when it threw. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * Runs fn with a fresh database of its own on the server and a temporary folder; drops both
 * afterwards, whatever happened. fn closes its own connections before it returns.
 */
export async function withBenchDatabase(serverUrl: string, fn: (bench: { url: string; name: string; tmp: string }) => Promise<void>): Promise<void> {
  const name = `finishline_bench_${crypto.randomBytes(5).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finishline-bench-'));
  try {
    await fn({ url: databaseOn(serverUrl, name), name, tmp });
  } finally {
    // A connection still closing gets a moment before the database goes.
    await onServer(serverUrl, `drop database if exists ${name}`).catch(async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await onServer(serverUrl, `drop database if exists ${name} with (force)`);
    });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
