import exifr from 'exifr';
import sharp from 'sharp';

/**
 * Originals are stored and delivered without personal metadata. A camera's JPEG carries far more
 * than pixels: the GPS position, the body's and lens's serial numbers, the owner's or artist's name,
 * maker notes (more serials, sometimes a face register), XMP and IPTC (names, addresses, keywords),
 * comments, embedded thumbnails and preview images (after the picture, MPF). None of it is needed
 * to show or sell a photo, and a runner's photo must not tell where its photographer lives.
 *
 * What is kept: the image data byte for byte (no re-encoding, no quality lost, microseconds of
 * work), the colour profile (ICC, so Adobe RGB photos keep their colours), the Adobe segment some
 * decoders need, a JFIF header without its thumbnail, and a new EXIF block holding only the
 * orientation (until the photo pipeline turns the pixels upright) and the capture time
 * (DateTimeOriginal with its offset and sub-seconds): a buyer's photo library places the photo on
 * race day by it. The shop itself reads neither.
 *
 * Why by hand: the libraries that strip JPEG metadata without re-encoding either remove EXIF only
 * (leaving XMP, IPTC, comments and trailing previews) or are unmaintained; re-encoding with sharp
 * removes everything but costs a full-size decode and encode of every photo and a generation of
 * JPEG loss. exifr (a maintained EXIF reader) reads the fields kept.
 */

/** The EXIF fields an original keeps. */
export interface KeptExif {
  orientation?: number;
  dateTimeOriginal?: string;
  offsetTimeOriginal?: string;
  subSecTimeOriginal?: string;
}

/** Reads the fields an original keeps; values that are not what the EXIF standard says are dropped. */
export async function keptExifOf(jpeg: Buffer): Promise<KeptExif> {
  let tags: Record<string, unknown> | undefined;
  try {
    tags = (await exifr.parse(jpeg, {
      pick: ['Orientation', 'DateTimeOriginal', 'OffsetTimeOriginal', 'SubSecTimeOriginal'],
      translateValues: false,
      reviveValues: false,
    })) as Record<string, unknown> | undefined;
  } catch {
    return {};
  }
  const text = (value: unknown, pattern: RegExp) => (typeof value === 'string' && pattern.test(value.trim()) ? value.trim() : undefined);
  const orientation = typeof tags?.Orientation === 'number' && tags.Orientation >= 1 && tags.Orientation <= 8 ? tags.Orientation : undefined;
  return {
    orientation,
    dateTimeOriginal: text(tags?.DateTimeOriginal, /^\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}$/),
    offsetTimeOriginal: text(tags?.OffsetTimeOriginal, /^[+-]\d{2}:\d{2}$/),
    subSecTimeOriginal: text(tags?.SubSecTimeOriginal, /^\d{1,9}$/),
  };
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP2 = 0xe2;
const APP14 = 0xee;
const COM = 0xfe;

const startsWith = (payload: Buffer, text: string) => payload.length >= text.length && payload.subarray(0, text.length).toString('latin1') === text;

/** A JFIF header (APP0) without its thumbnail; null for anything else in APP0 (JFXX thumbnails, ...). */
function jfifWithoutThumbnail(payload: Buffer): Buffer | null {
  if (!startsWith(payload, 'JFIF\0') || payload.length < 14) return null;
  const body = Buffer.from(payload.subarray(0, 14));
  body[12] = 0; // thumbnail width
  body[13] = 0; // thumbnail height
  return segment(APP0, body);
}

function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head[0] = 0xff;
  head[1] = marker;
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

interface IfdEntry {
  tag: number;
  /** 2 ASCII, 3 SHORT, 4 LONG */
  type: 2 | 3 | 4;
  value: number | string;
}

/** A big-endian TIFF structure of IFD0 and, when needed, the Exif IFD, as an APP1 "Exif" segment. */
function exifSegment(keep: KeptExif): Buffer | null {
  const exifEntries: IfdEntry[] = [];
  if (keep.dateTimeOriginal) exifEntries.push({ tag: 0x9003, type: 2, value: keep.dateTimeOriginal });
  if (keep.offsetTimeOriginal) exifEntries.push({ tag: 0x9011, type: 2, value: keep.offsetTimeOriginal });
  if (keep.subSecTimeOriginal) exifEntries.push({ tag: 0x9291, type: 2, value: keep.subSecTimeOriginal });
  const ifd0: IfdEntry[] = [];
  if (keep.orientation && keep.orientation !== 1) ifd0.push({ tag: 0x0112, type: 3, value: keep.orientation });
  if (exifEntries.length > 0) ifd0.push({ tag: 0x8769, type: 4, value: 0 }); // the Exif IFD's offset, set below
  if (ifd0.length === 0) return null;

  const ifdSize = (entries: IfdEntry[]) => 2 + entries.length * 12 + 4;
  const ifd0Offset = 8;
  const exifOffset = ifd0Offset + ifdSize(ifd0);
  let dataOffset = exifOffset + (exifEntries.length > 0 ? ifdSize(exifEntries) : 0);
  const tiff = Buffer.alloc(dataOffset + exifEntries.reduce((sum, e) => sum + String(e.value).length + 2, 0), 0);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(ifd0Offset, 4);

  const writeIfd = (at: number, entries: IfdEntry[]) => {
    tiff.writeUInt16BE(entries.length, at);
    entries.forEach((entry, i) => {
      const p = at + 2 + i * 12;
      tiff.writeUInt16BE(entry.tag, p);
      tiff.writeUInt16BE(entry.type, p + 2);
      if (entry.type === 2) {
        const bytes = Buffer.from(`${String(entry.value)}\0`, 'latin1');
        tiff.writeUInt32BE(bytes.length, p + 4);
        if (bytes.length <= 4) bytes.copy(tiff, p + 8);
        else {
          tiff.writeUInt32BE(dataOffset, p + 8);
          bytes.copy(tiff, dataOffset);
          dataOffset += bytes.length + (bytes.length % 2); // values start on even offsets
        }
      } else if (entry.type === 3) {
        tiff.writeUInt32BE(1, p + 4);
        tiff.writeUInt16BE(Number(entry.value), p + 8);
      } else {
        tiff.writeUInt32BE(1, p + 4);
        tiff.writeUInt32BE(entry.tag === 0x8769 ? exifOffset : Number(entry.value), p + 8);
      }
    });
    tiff.writeUInt32BE(0, at + 2 + entries.length * 12); // no next IFD (and so no thumbnail IFD)
  };
  writeIfd(ifd0Offset, ifd0);
  if (exifEntries.length > 0) writeIfd(exifOffset, exifEntries);
  return segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff.subarray(0, dataOffset)]));
}

/** Whether a marker segment outside the image data is kept: everything the decoder needs, nothing else. */
function keptSegment(marker: number, payload: Buffer): boolean {
  if (marker === COM) return false;
  if (marker === APP2) return startsWith(payload, 'ICC_PROFILE\0');
  if (marker === APP14) return startsWith(payload, 'Adobe');
  return marker < 0xe1 || marker > 0xef; // APP1 (EXIF, XMP), APP3-APP13 (maker data, IPTC), APP15
}

/**
 * The JPEG without its metadata, losslessly: the image data is copied as it is, everything after
 * the end of the picture (trailing previews) dropped, and only `keep` written back as EXIF.
 * Throws on a JPEG it cannot walk (the caller then re-encodes).
 */
export function stripJpegMetadata(jpeg: Buffer, keep: KeptExif): Buffer {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== SOI) throw new Error('not a JPEG');
  const parts: Buffer[] = [jpeg.subarray(0, 2)];
  const exif = exifSegment(keep);
  let exifPlaced = exif === null;
  const placeExif = () => {
    if (!exifPlaced && exif) parts.push(exif);
    exifPlaced = true;
  };
  let pos = 2;
  while (pos + 1 < jpeg.length) {
    if (jpeg[pos] !== 0xff) throw new Error(`no marker at byte ${pos}`);
    const marker = jpeg[pos + 1]!;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (marker === EOI) {
      placeExif();
      parts.push(jpeg.subarray(pos, pos + 2));
      return Buffer.concat(parts);
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      parts.push(jpeg.subarray(pos, pos + 2));
      pos += 2;
      continue;
    }
    if (pos + 4 > jpeg.length) break;
    const end = pos + 2 + jpeg.readUInt16BE(pos + 2);
    if (end > jpeg.length) break;
    const payload = jpeg.subarray(pos + 4, end);
    if (marker === APP0) {
      // A JFIF header stays right after SOI (EXIF follows it); a later APP0 is a thumbnail extension.
      const jfif = parts.length === 1 ? jfifWithoutThumbnail(payload) : null;
      if (jfif) parts.push(jfif);
    } else if (keptSegment(marker, payload)) {
      placeExif();
      parts.push(jpeg.subarray(pos, end));
    }
    pos = end;
    if (marker === SOS) {
      // Entropy-coded data up to the next marker (0xFF00 is a data byte, 0xFFD0-D7 restart markers).
      let i = pos;
      while (i + 1 < jpeg.length) {
        if (jpeg[i] === 0xff) {
          const next = jpeg[i + 1]!;
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
          i += next === 0xff ? 1 : 2;
        } else i += 1;
      }
      if (i + 1 >= jpeg.length) break;
      parts.push(jpeg.subarray(pos, i));
      pos = i;
    }
  }
  throw new Error('the JPEG ends before its end marker');
}

/**
 * The original as it is stored: without personal metadata (stripJpegMetadata), its orientation kept
 * for the pipeline to apply. A JPEG the walker cannot follow is turned upright and re-encoded by
 * sharp instead, which writes no metadata at all; the capture time is then written back.
 */
export async function cleanOriginal(jpeg: Buffer): Promise<Buffer> {
  const keep = await keptExifOf(jpeg);
  try {
    return stripJpegMetadata(jpeg, keep);
  } catch {
    const upright = await sharp(jpeg).rotate().jpeg({ quality: 92 }).toBuffer();
    return stripJpegMetadata(upright, { ...keep, orientation: undefined });
  }
}

/**
 * The original upright and clean: a photo whose EXIF orientation is not 1 has its pixels turned
 * once (so the download, the preview and the BIB reader all see it upright) and keeps only the
 * capture time; any other is cleaned losslessly. Returns the very buffer given when nothing changed.
 */
export async function uprightCleanOriginal(jpeg: Buffer): Promise<Buffer> {
  const keep = await keptExifOf(jpeg);
  const { orientation } = await sharp(jpeg).metadata();
  if (orientation && orientation !== 1) {
    // sharp writes no metadata unless told to: only what stripJpegMetadata adds back.
    const turned = await sharp(jpeg).rotate().jpeg({ quality: 92 }).toBuffer();
    return stripJpegMetadata(turned, { ...keep, orientation: undefined });
  }
  const clean = await cleanOriginal(jpeg);
  return clean.equals(jpeg) ? jpeg : clean;
}
