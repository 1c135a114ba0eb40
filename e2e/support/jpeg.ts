/** A JPEG's pixel size (its frame header) and density in dots per inch (its JFIF header, when it gives one in inches). */
export function jpegInfo(bytes: Buffer): { width: number; height: number; dpi: number | null } {
  let dpi: number | null = null;
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xe0 && bytes.toString('ascii', at + 4, at + 9) === 'JFIF\0' && bytes[at + 11] === 1) dpi = bytes.readUInt16BE(at + 12);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7), dpi };
    at += 2 + length;
  }
  throw new Error('no JPEG frame header');
}

/** A JPEG's width and height in pixels. */
export function jpegSize(bytes: Buffer): { width: number; height: number } {
  const { width, height } = jpegInfo(bytes);
  return { width, height };
}
