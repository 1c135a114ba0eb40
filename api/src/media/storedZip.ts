import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * A streamed zip of files stored as they are (method 0, STORE): photos and videos are already
 * compressed, so deflating them again only costs CPU. Because nothing is compressed, the archive's
 * exact size follows from the entries' names and sizes alone, before a byte is read: it becomes the
 * download's Content-Length. Entries are opened one at a time, when the archive reaches them, and
 * read chunk by chunk with back-pressure, so memory stays flat whatever the order size. An entry
 * that fails or does not have the size it promised fails the stream (never a short archive).
 *
 * Layout, as in yazl (which was the model): a local header with bit 3 set (CRC and sizes follow in
 * a data descriptor, since the CRC is known only after the data), the data, the data descriptor;
 * then the central directory and its end record. ZIP64 records appear only where a size or an
 * offset needs them (over 4 GiB), or everywhere with forceZip64 (which tests use).
 */
export type ZipEntry = { name: string; modifiedAt: Date } & ({ size: number; open: () => Promise<Readable> } | { data: Buffer });

interface PlannedEntry {
  name: Buffer;
  size: number;
  offset: number;
  zip64: boolean;
  dosTime: number;
  dosDate: number;
}

const LOCAL_HEADER = 30;
const DATA_DESCRIPTOR = 16;
const ZIP64_DATA_DESCRIPTOR = 24;
const CENTRAL_RECORD = 46;
const ZIP64_EXTRA = 28;
const END_RECORD = 22;
const ZIP64_END_RECORD = 56;
const ZIP64_END_LOCATOR = 20;
const MAX_32 = 0xfffffffe;
/** Made by: Unix (3), spec 6.3. */
const VERSION_MADE_BY = (3 << 8) | 63;
const VERSION_NEEDED = 20;
const VERSION_NEEDED_ZIP64 = 45;
/** Bit 3: CRC and sizes in the data descriptor; bit 11: the name is UTF-8. */
const FLAGS = (1 << 3) | (1 << 11);
const FILE_MODE = 0o100644;

/** Node's zlib CRC-32 runs at memory speed; a table is the fallback where it is missing (Node < 20.15). */
const crc32: (data: Buffer, value: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === 'function' ? (zlib as unknown as { crc32: (data: Buffer, value: number) => number }).crc32 : tableCrc32;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function tableCrc32(data: Buffer, value: number): number {
  let crc = ~value >>> 0;
  for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

function dosDateTime(date: Date): { dosTime: number; dosDate: number } {
  const year = Math.min(2107, Math.max(1980, date.getFullYear()));
  return {
    dosTime: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    dosDate: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

const sizeOf = (entry: ZipEntry) => ('data' in entry ? entry.data.length : entry.size);

/** Offsets and formats of every entry, and where the central directory starts and ends. */
function plan(entries: ZipEntry[], forceZip64: boolean) {
  const seen = new Set<string>();
  let offset = 0;
  let directorySize = 0;
  const planned: PlannedEntry[] = entries.map((entry) => {
    if (seen.has(entry.name)) throw new Error(`Two zip entries are named ${entry.name}`);
    seen.add(entry.name);
    const name = Buffer.from(entry.name, 'utf8');
    if (name.length > 0xffff) throw new Error(`Zip entry name too long: ${entry.name}`);
    const size = sizeOf(entry);
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`Zip entry ${entry.name} has no valid size: ${size}`);
    const zip64 = forceZip64 || size > MAX_32 || offset > MAX_32;
    const item = { name, size, offset, zip64, ...dosDateTime(entry.modifiedAt) };
    offset += LOCAL_HEADER + name.length + size + (zip64 ? ZIP64_DATA_DESCRIPTOR : DATA_DESCRIPTOR);
    directorySize += CENTRAL_RECORD + name.length + (zip64 ? ZIP64_EXTRA : 0);
    return item;
  });
  const directoryOffset = offset;
  const zip64End = forceZip64 || planned.length >= 0xffff || directorySize > MAX_32 || directoryOffset > MAX_32;
  const total = directoryOffset + directorySize + (zip64End ? ZIP64_END_RECORD + ZIP64_END_LOCATOR : 0) + END_RECORD;
  return { planned, directoryOffset, directorySize, zip64End, total };
}

/** The exact size in bytes of the archive storedZip makes of these entries. */
export function storedZipSize(entries: ZipEntry[], options: { forceZip64?: boolean } = {}): number {
  return plan(entries, options.forceZip64 ?? false).total;
}

function localHeader(entry: PlannedEntry): Buffer {
  const b = Buffer.alloc(LOCAL_HEADER);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(entry.zip64 ? VERSION_NEEDED_ZIP64 : VERSION_NEEDED, 4);
  b.writeUInt16LE(FLAGS, 6);
  b.writeUInt16LE(0, 8); // STORE
  b.writeUInt16LE(entry.dosTime, 10);
  b.writeUInt16LE(entry.dosDate, 12);
  // CRC-32 and both sizes are 0 here: bit 3 says they follow the data.
  b.writeUInt16LE(entry.name.length, 26);
  b.writeUInt16LE(0, 28);
  return Buffer.concat([b, entry.name]);
}

function dataDescriptor(entry: PlannedEntry, crc: number): Buffer {
  const b = Buffer.alloc(entry.zip64 ? ZIP64_DATA_DESCRIPTOR : DATA_DESCRIPTOR);
  b.writeUInt32LE(0x08074b50, 0);
  b.writeUInt32LE(crc, 4);
  if (entry.zip64) {
    b.writeBigUInt64LE(BigInt(entry.size), 8);
    b.writeBigUInt64LE(BigInt(entry.size), 16);
  } else {
    b.writeUInt32LE(entry.size, 8);
    b.writeUInt32LE(entry.size, 12);
  }
  return b;
}

function centralRecord(entry: PlannedEntry, crc: number): Buffer {
  const b = Buffer.alloc(CENTRAL_RECORD + entry.name.length + (entry.zip64 ? ZIP64_EXTRA : 0));
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(VERSION_MADE_BY, 4);
  b.writeUInt16LE(entry.zip64 ? VERSION_NEEDED_ZIP64 : VERSION_NEEDED, 6);
  b.writeUInt16LE(FLAGS, 8);
  b.writeUInt16LE(0, 10);
  b.writeUInt16LE(entry.dosTime, 12);
  b.writeUInt16LE(entry.dosDate, 14);
  b.writeUInt32LE(crc, 16);
  b.writeUInt32LE(entry.zip64 ? 0xffffffff : entry.size, 20);
  b.writeUInt32LE(entry.zip64 ? 0xffffffff : entry.size, 24);
  b.writeUInt16LE(entry.name.length, 28);
  b.writeUInt16LE(entry.zip64 ? ZIP64_EXTRA : 0, 30);
  // comment length, disk number, internal attributes: 0
  b.writeUInt32LE((FILE_MODE << 16) >>> 0, 38);
  b.writeUInt32LE(entry.zip64 ? 0xffffffff : entry.offset, 42);
  entry.name.copy(b, CENTRAL_RECORD);
  if (entry.zip64) {
    const extra = CENTRAL_RECORD + entry.name.length;
    b.writeUInt16LE(0x0001, extra);
    b.writeUInt16LE(ZIP64_EXTRA - 4, extra + 2);
    b.writeBigUInt64LE(BigInt(entry.size), extra + 4);
    b.writeBigUInt64LE(BigInt(entry.size), extra + 12);
    b.writeBigUInt64LE(BigInt(entry.offset), extra + 20);
  }
  return b;
}

function endRecords(count: number, directoryOffset: number, directorySize: number, zip64: boolean): Buffer {
  const parts: Buffer[] = [];
  if (zip64) {
    const record = Buffer.alloc(ZIP64_END_RECORD);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(BigInt(ZIP64_END_RECORD - 12), 4);
    record.writeUInt16LE(VERSION_MADE_BY, 12);
    record.writeUInt16LE(VERSION_NEEDED_ZIP64, 14);
    // this disk, the directory's disk: 0
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(directorySize), 40);
    record.writeBigUInt64LE(BigInt(directoryOffset), 48);
    const locator = Buffer.alloc(ZIP64_END_LOCATOR);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(directoryOffset + directorySize), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  const end = Buffer.alloc(END_RECORD);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? 0xffff : count, 8);
  end.writeUInt16LE(zip64 ? 0xffff : count, 10);
  end.writeUInt32LE(zip64 ? 0xffffffff : directorySize, 12);
  end.writeUInt32LE(zip64 ? 0xffffffff : directoryOffset, 16);
  parts.push(end);
  return Buffer.concat(parts);
}

/** Yields an opened entry's header and bytes; its CRC goes to done(); fails on a size mismatch. */
async function* entryData(header: Buffer, name: string, source: Readable, size: number, done: (crc: number) => void): AsyncGenerator<Buffer> {
  let crc = 0;
  let read = 0;
  try {
    yield header;
    for await (const chunk of source) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      read += bytes.length;
      if (read > size) throw new Error(`${name} is longer than its ${size} bytes`);
      crc = crc32(bytes, crc);
      yield bytes;
    }
  } finally {
    // Also when the download is abandoned mid-entry: the source (a file, an S3 response) is let go.
    if (!source.destroyed) source.destroy();
  }
  if (read !== size) throw new Error(`${name} ended after ${read} of its ${size} bytes`);
  done(crc);
}

/**
 * The archive as a byte stream of exactly `size` bytes. The stream is destroyed with the error of
 * the first entry that fails; destroying it (the client went away) stops reading the open entry.
 */
export function storedZip(entries: ZipEntry[], options: { forceZip64?: boolean } = {}): { size: number; stream: Readable } {
  const layout = plan(entries, options.forceZip64 ?? false);
  async function* bytes(): AsyncGenerator<Buffer> {
    const crcs: number[] = [];
    for (const [index, entry] of entries.entries()) {
      const planned = layout.planned[index]!;
      if ('data' in entry) {
        crcs[index] = crc32(entry.data, 0);
        yield localHeader(planned);
        yield entry.data;
      } else {
        // Opened before its header is sent: a first entry that cannot be opened fails before any byte.
        const source = await entry.open();
        yield* entryData(localHeader(planned), entry.name, source, planned.size, (crc) => (crcs[index] = crc));
      }
      yield dataDescriptor(planned, crcs[index]!);
    }
    yield Buffer.concat(layout.planned.map((planned, index) => centralRecord(planned, crcs[index]!)));
    yield endRecords(layout.planned.length, layout.directoryOffset, layout.directorySize, layout.zip64End);
  }
  // Byte mode with a 1 MiB buffer: at most about one chunk of a source waits here for the socket.
  return { size: layout.total, stream: Readable.from(bytes(), { objectMode: false, highWaterMark: 1024 * 1024 }) };
}
