/** Small pieces the benchmark scripts share. */

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
