import fs from 'node:fs';
import { createRequire } from 'node:module';
import opentype from 'opentype.js';
import { CERTIFICATE_FONTS, fittedFontSize, textLeft, type CertificateFontFile, type LaidOutText } from '@finishline/shared/pure';

const require = createRequire(import.meta.url);
const loaded = new Map<CertificateFontFile, opentype.Font>();

/** The template's font, parsed once from the same TTF file the certificate remote bundles. */
function fontOf(file: CertificateFontFile): opentype.Font {
  let font = loaded.get(file);
  if (!font) {
    const bytes = fs.readFileSync(require.resolve(CERTIFICATE_FONTS[file].source));
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    loaded.set(file, font);
  }
  return font;
}

const escapeAttribute = (text: string) => text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

/**
 * A text as an SVG path: the glyph outlines of the bundled font, placed as the builder places it
 * (shrunk to max_width, anchored by its alignment, y on the baseline). No system font is involved, so
 * every server draws the same letters as the browser.
 */
export function textPathSvg(text: LaidOutText): string {
  const font = fontOf(text.fontFile);
  const size = fittedFontSize(text, font.getAdvanceWidth(text.text, text.fontSize));
  const left = textLeft(text, font.getAdvanceWidth(text.text, size));
  const d = font.getPath(text.text, left, text.y, size).toPathData(2);
  return `<path d="${escapeAttribute(d)}" fill="${escapeAttribute(text.color)}"/>`;
}
