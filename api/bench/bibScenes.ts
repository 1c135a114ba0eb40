import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import opentype from 'opentype.js';
import sharp, { type OverlayOptions } from 'sharp';
import { loadFaceSet, seededRandom } from './faceScenes';

/**
 * Generated race photos with known BIBs, for the BIB reader's benchmark and tests. Two families that
 * share nothing but the idea of a race: the "tune" family (its fonts, bib layouts and scenes are what
 * the reader was tuned on) and the "held-out" family (other fonts, other layouts: dark bibs, sponsor
 * bands below, logos beside the number, skewed bibs, outlined digits), which measures how the reader
 * does on photos it was never shaped for. Letters are glyph outlines from font files (opentype.js),
 * so no system font setup changes what is drawn.
 */

export type Family = 'tune' | 'heldout';
export type HardCase = 'plain' | 'rotated' | 'blur' | 'covered' | 'small' | 'group';
export const HARD_CASES: HardCase[] = ['plain', 'rotated', 'blur', 'covered', 'small', 'group'];

export interface BibScene {
  image: Buffer;
  /** BIBs a careful person can read in the photo (what the reader should return). */
  bibs: string[];
  /** BIBs drawn but hidden too much to read: returning one is no error, returning a part of one is. */
  hidden: string[];
  pattern: string | null;
  participants: string[] | null;
  hardCase: HardCase;
}

/** What a benchmark counts per hard case: photos, BIBs drawn readable, found, tags returned, wrong tags. */
export interface BibTally {
  photos: number;
  expected: number;
  found: number;
  tags: number;
  wrong: number;
}

/**
 * Adds one photo's reading to `tally`: a tag is wrong unless it is a readable or a hidden BIB of the
 * photo (returning a hidden one is no error); returns the wrong tags and the missed BIBs for printing.
 */
export function tallyReading(tally: BibTally, scene: Pick<BibScene, 'bibs' | 'hidden'>, tags: string[]): { wrong: string[]; missed: string[] } {
  const wrong = tags.filter((b) => !scene.bibs.includes(b) && !scene.hidden.includes(b));
  const missed = scene.bibs.filter((b) => !tags.includes(b));
  tally.photos += 1;
  tally.expected += scene.bibs.length;
  tally.tags += tags.length;
  tally.wrong += wrong.length;
  tally.found += scene.bibs.length - missed.length;
  return { wrong, missed };
}

const require = createRequire(import.meta.url);
const SYSTEM_FONTS = '/usr/share/fonts/truetype';

function fontFile(spec: string): string | null {
  if (spec.startsWith('npm:')) {
    const [pkg, file] = spec.slice(4).split('#');
    try {
      return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
    } catch {
      return null;
    }
  }
  const file = path.join(SYSTEM_FONTS, spec);
  return fs.existsSync(file) ? file : null;
}

const FONT_SPECS: Record<Family, string[]> = {
  tune: [
    'dejavu/DejaVuSans-Bold.ttf',
    'liberation/LiberationSans-Bold.ttf',
    'npm:@expo-google-fonts/montserrat#700Bold/Montserrat_700Bold.ttf',
    'dejavu/DejaVuSansCondensed-Bold.ttf',
  ],
  heldout: [
    'liberation/LiberationSansNarrow-Bold.ttf',
    'dejavu/DejaVuSerif-Bold.ttf',
    'npm:@expo-google-fonts/montserrat#900Black/Montserrat_900Black.ttf',
    'npm:@expo-google-fonts/montserrat#600SemiBold/Montserrat_600SemiBold.ttf',
    'npm:@expo-google-fonts/playfair-display#700Bold/PlayfairDisplay_700Bold.ttf',
    'liberation/LiberationMono-Bold.ttf',
    'liberation/LiberationSerif-Bold.ttf',
  ],
};

const fontCache = new Map<string, opentype.Font>();
function fontsOf(family: Family): opentype.Font[] {
  const fonts: opentype.Font[] = [];
  for (const spec of FONT_SPECS[family]) {
    const file = fontFile(spec);
    if (!file || !fs.existsSync(file)) continue;
    let font = fontCache.get(file);
    if (!font) {
      const bytes = fs.readFileSync(file);
      font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      fontCache.set(file, font);
    }
    fonts.push(font);
  }
  if (fonts.length === 0) throw new Error(`no font of the ${family} family is installed`);
  return fonts;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: Random, lo: number, hi: number) => lo + random() * (hi - lo);
const rgb = (c: readonly number[]) => `rgb(${c.map((v) => Math.max(0, Math.min(255, Math.round(v)))).join(',')})`;

/** Text as a path, centred on (cx, baseline) and fitted into maxWidth. */
function textPath(font: opentype.Font, text: string, cx: number, baseline: number, size: number, maxWidth: number, attrs: string): string {
  // Glyph by glyph: some fonts' substitution tables are beyond opentype.js's text layout.
  const glyphs = [...text].map((c) => font.charToGlyph(c));
  const advance = glyphs.reduce((sum, g) => sum + (g.advanceWidth ?? 0), 0) / font.unitsPerEm;
  const fitted = advance * size > maxWidth ? maxWidth / advance : size;
  let x = cx - (advance * fitted) / 2;
  const d: string[] = [];
  for (const g of glyphs) {
    d.push(g.getPath(x, baseline, fitted).toPathData(1));
    x += ((g.advanceWidth ?? 0) * fitted) / font.unitsPerEm;
  }
  return `<path d="${d.join(' ')}" ${attrs}/>`;
}

const SPONSORS = [
  'CITY MARATHON',
  'RUN FOR GOOD',
  'AQUA+',
  'SPORTIFY',
  'NORTHBANK',
  'HALF MARATHON',
  'TRAIL 25K',
  'SUNRISE RUN',
  'VOLT ENERGY',
  'METRO BANK 10K',
];
const SPONSORS_HELD_OUT = ['RIVERSIDE ULTRA', 'FASTLANE', 'GREEN MILE 2026', 'COASTAL 21K', 'PEAK FUEL', 'HARBOUR RUN', 'KM 42', 'NIGHT RACE'];
const BIB_COLOURS_TUNE = [
  [255, 255, 255],
  [250, 240, 120],
  [235, 240, 250],
  [255, 220, 230],
];
const BIB_COLOURS_HELD_OUT = [
  [255, 255, 255],
  [255, 200, 120],
  [200, 235, 255],
  [40, 40, 50],
  [20, 70, 160],
  [190, 30, 40],
];

interface Bib {
  number: string;
  /** Height of the number's digits in photo pixels. */
  digitHeight: number;
}

/** A runner with a bib: SVG for the body and bib, and where a face photo goes. */
function runner(
  random: Random,
  family: Family,
  bib: Bib,
  x: number,
  y: number,
  tilt: number,
  skew: number,
  cover: 'none' | 'edge' | 'digit',
): { svg: string; face: { left: number; top: number; size: number }; frontSvg: string } {
  const fonts = fontsOf(family);
  const font = pick(random, fonts);
  const heldOut = family === 'heldout';
  const dh = bib.digitHeight;
  const bibW = dh * between(random, 0.6, 0.72) * bib.number.length + dh * between(random, 0.7, 1.2) + (heldOut && random() < 0.4 ? dh * 0.8 : 0);
  const bibH = dh * between(random, 1.9, 2.3);
  const torsoW = bibW * between(random, 1.35, 1.7);
  const torsoH = torsoW * between(random, 1.25, 1.5);
  const shirt = [random() * 255, random() * 255, random() * 255];
  const skin = pick(random, [
    [224, 180, 150],
    [190, 140, 100],
    [140, 95, 65],
    [90, 60, 40],
  ]);
  const headSize = torsoW * 0.55;
  const parts: string[] = [];
  const torsoX = x - torsoW / 2;
  const torsoY = y - torsoH * 0.45;
  // Legs, arms (behind), torso, head placeholder.
  const legC = rgb(
    pick(random, [
      [20, 20, 30],
      [40, 60, 120],
      [200, 200, 200],
    ]),
  );
  parts.push(
    `<rect x="${torsoX + torsoW * 0.12}" y="${torsoY + torsoH * 0.95}" width="${torsoW * 0.3}" height="${torsoH * 1.2}" rx="${torsoW * 0.1}" fill="${legC}" transform="rotate(${between(random, -15, 10)} ${torsoX + torsoW * 0.27} ${torsoY + torsoH})"/>`,
  );
  parts.push(
    `<rect x="${torsoX + torsoW * 0.58}" y="${torsoY + torsoH * 0.95}" width="${torsoW * 0.3}" height="${torsoH * 1.2}" rx="${torsoW * 0.1}" fill="${legC}" transform="rotate(${between(random, -10, 15)} ${torsoX + torsoW * 0.73} ${torsoY + torsoH})"/>`,
  );
  parts.push(
    `<rect x="${torsoX - torsoW * 0.2}" y="${torsoY + torsoH * 0.05}" width="${torsoW * 0.22}" height="${torsoH * 0.8}" rx="${torsoW * 0.1}" fill="${rgb(skin)}" transform="rotate(${between(random, 5, 35)} ${torsoX} ${torsoY})"/>`,
  );
  parts.push(
    `<rect x="${torsoX + torsoW * 0.98}" y="${torsoY + torsoH * 0.05}" width="${torsoW * 0.22}" height="${torsoH * 0.8}" rx="${torsoW * 0.1}" fill="${rgb(skin)}" transform="rotate(${between(random, -35, -5)} ${torsoX + torsoW} ${torsoY})"/>`,
  );
  parts.push(`<rect x="${torsoX}" y="${torsoY}" width="${torsoW}" height="${torsoH}" rx="${torsoW * 0.18}" fill="${rgb(shirt)}"/>`);
  if (random() < 0.5)
    parts.push(
      `<path d="M${torsoX + torsoW * 0.1} ${torsoY + torsoH * 0.3} L${torsoX + torsoW * 0.9} ${torsoY + torsoH * 0.15}" stroke="${rgb(shirt.map((c) => 255 - c))}" stroke-width="${torsoW * 0.05}"/>`,
    );
  parts.push(`<rect x="${x - headSize * 0.18}" y="${torsoY - headSize * 0.25}" width="${headSize * 0.36}" height="${headSize * 0.4}" fill="${rgb(skin)}"/>`);
  parts.push(`<ellipse cx="${x}" cy="${torsoY - headSize * 0.55}" rx="${headSize * 0.45}" ry="${headSize * 0.55}" fill="${rgb(skin)}"/>`);

  // The bib, on the chest.
  const colour = pick(random, heldOut ? BIB_COLOURS_HELD_OUT : BIB_COLOURS_TUNE);
  const dark = colour[0]! + colour[1]! + colour[2]! < 300;
  const ink = dark
    ? [250, 250, 250]
    : pick(
        random,
        heldOut
          ? [
              [0, 0, 0],
              [180, 20, 30],
              [20, 40, 120],
            ]
          : [
              [0, 0, 0],
              [30, 30, 30],
              [10, 20, 90],
            ],
      );
  const bx = x - bibW / 2;
  const by = torsoY + torsoH * 0.42 - bibH / 2;
  const bib_: string[] = [];
  bib_.push(
    `<rect x="${bx}" y="${by}" width="${bibW}" height="${bibH}" rx="${dh * 0.08}" fill="${rgb(colour)}" stroke="${rgb(colour.map((c) => c * 0.8))}" stroke-width="${dh * 0.02}"/>`,
  );
  const sponsorFont = pick(random, fonts);
  const sponsor = pick(random, heldOut ? SPONSORS_HELD_OUT : SPONSORS);
  const band = bibH * 0.22;
  const sponsorAtTop = heldOut ? random() < 0.3 : true;
  const bandY = sponsorAtTop ? by : by + bibH - band;
  const bandColour = pick(random, [
    [200, 30, 40],
    [20, 90, 180],
    [240, 150, 20],
    [30, 140, 70],
  ]);
  bib_.push(`<rect x="${bx}" y="${bandY}" width="${bibW}" height="${band}" fill="${rgb(bandColour)}"/>`);
  bib_.push(textPath(sponsorFont, sponsor, x, bandY + band * 0.75, band * 0.62, bibW * 0.86, `fill="white"`));
  let numberCx = x;
  if (heldOut && bibW > dh * (0.72 * bib.number.length + 1.3)) {
    // A logo beside the number.
    const r = dh * 0.32;
    const lx = bx + dh * 0.55;
    numberCx = x + dh * 0.35;
    bib_.push(`<circle cx="${lx}" cy="${by + bibH * (sponsorAtTop ? 0.6 : 0.4)}" r="${r}" fill="${rgb(bandColour)}"/>`);
    bib_.push(
      `<path d="M${lx - r * 0.6} ${by + bibH * 0.5} l${r * 0.6} ${-r * 0.5} l${r * 0.6} ${r * 0.5}" stroke="white" stroke-width="${r * 0.2}" fill="none"/>`,
    );
  }
  const baseline = sponsorAtTop ? by + band + (bibH - band) * 0.5 + dh * 0.5 : by + (bibH - band) * 0.5 + dh * 0.5;
  // Cap height is about 0.72 of the font size for these fonts.
  const size = dh / 0.72;
  const outline = heldOut && random() < 0.25 ? ` stroke="${rgb(bandColour)}" stroke-width="${dh * 0.04}"` : '';
  bib_.push(textPath(font, bib.number, numberCx, baseline, size, bibW * 0.9, `fill="${rgb(ink)}"${outline}`));
  // Safety pins.
  for (const [px, py] of [
    [bx + dh * 0.12, by + dh * 0.12],
    [bx + bibW - dh * 0.12, by + dh * 0.12],
    [bx + dh * 0.12, by + bibH - dh * 0.12],
    [bx + bibW - dh * 0.12, by + bibH - dh * 0.12],
  ]) {
    bib_.push(`<circle cx="${px}" cy="${py}" r="${dh * 0.03}" fill="rgb(170,170,170)"/>`);
  }
  parts.push(
    `<g transform="rotate(${tilt} ${x} ${by + bibH / 2}) translate(${x} ${by + bibH / 2}) skewX(${skew}) translate(${-x} ${-by - bibH / 2})">${bib_.join('')}</g>`,
  );

  // A hand or a passing arm in front of the bib.
  const front: string[] = [];
  if (cover !== 'none') {
    const armColour = rgb(
      pick(random, [
        [224, 180, 150],
        [140, 95, 65],
        [60, 60, 70],
      ]),
    );
    const armW = cover === 'edge' ? dh * 0.55 : dh * 0.9;
    const digitsW = dh * 0.65 * bib.number.length;
    // 'edge': across a corner of the bib, clear of the digits; 'digit': over the last digit.
    const ax = cover === 'edge' ? bx + bibW + armW * 0.2 : numberCx + digitsW / 2 - dh * 0.35;
    const ay = cover === 'edge' ? by + bibH * 0.15 : by - dh * 0.3;
    front.push(
      `<rect x="${ax - armW / 2}" y="${ay - bibH * 0.3}" width="${armW}" height="${bibH * 1.6}" rx="${armW * 0.45}" fill="${armColour}" transform="rotate(${between(random, -12, 12) + tilt} ${ax} ${ay + bibH * 0.5})"/>`,
    );
  }
  return { svg: parts.join(''), frontSvg: front.join(''), face: { left: x - headSize * 0.42, top: torsoY - headSize * 1.05, size: headSize * 0.84 } };
}

function background(random: Random, family: Family, width: number, height: number): string {
  const fonts = fontsOf(family);
  const parts: string[] = [];
  const sky = [120 + random() * 80, 150 + random() * 60, 190 + random() * 60];
  const horizon = height * between(random, 0.3, 0.5);
  parts.push(`<rect width="${width}" height="${height}" fill="${rgb(sky)}"/>`);
  // Trees or buildings along the horizon.
  for (let i = 0; i < 14; i += 1) {
    const w = width * between(random, 0.04, 0.12);
    const h = height * between(random, 0.08, 0.25);
    const cx = random() * width;
    const green = family === 'tune' || random() < 0.5;
    parts.push(
      green
        ? `<ellipse cx="${cx}" cy="${horizon - h * 0.4}" rx="${w}" ry="${h * 0.6}" fill="${rgb([30 + random() * 40, 90 + random() * 60, 40 + random() * 30])}"/>`
        : `<rect x="${cx}" y="${horizon - h}" width="${w}" height="${h}" fill="${rgb([120 + random() * 80, 110 + random() * 60, 100 + random() * 60])}"/>`,
    );
  }
  parts.push(
    `<rect y="${horizon}" width="${width}" height="${height - horizon}" fill="${rgb([80 + random() * 40, 80 + random() * 30, 85 + random() * 30])}"/>`,
  );
  // Road markings.
  for (let i = 0; i < 6; i += 1)
    parts.push(
      `<rect x="${random() * width}" y="${horizon + random() * (height - horizon)}" width="${width * 0.06}" height="${height * 0.008}" fill="rgb(235,235,235)"/>`,
    );
  // A crowd of spectators behind the barrier: heads and bodies without bibs.
  const crowdY = horizon + height * 0.02;
  for (let i = 0; i < 40; i += 1) {
    const s = height * between(random, 0.03, 0.06);
    const cx = random() * width;
    parts.push(
      `<rect x="${cx - s * 0.5}" y="${crowdY}" width="${s}" height="${s * 1.6}" rx="${s * 0.3}" fill="${rgb([random() * 255, random() * 255, random() * 255])}"/>`,
    );
    parts.push(
      `<circle cx="${cx}" cy="${crowdY - s * 0.3}" r="${s * 0.35}" fill="${rgb(
        pick(random, [
          [224, 180, 150],
          [150, 100, 70],
          [90, 60, 40],
        ]),
      )}"/>`,
    );
  }
  parts.push(
    `<rect y="${crowdY + height * 0.06}" width="${width}" height="${height * 0.035}" fill="${rgb([200 + random() * 55, 200 + random() * 55, 200 + random() * 55])}"/>`,
  );
  // Banners: words and numbers that are no BIB (a year, a distance, a clock).
  const texts =
    family === 'tune' ? ['FINISH', 'CITY MARATHON 2026', 'KM 40', '02:41:17', 'GO GO GO'] : ['ARRIVEE', 'RIVERSIDE 21K', 'SPLIT 35', '1:58:03', 'WATER 500 M'];
  for (let i = 0; i < 3; i += 1) {
    const bw = width * between(random, 0.15, 0.35);
    const bh = height * between(random, 0.04, 0.08);
    const bx = random() * (width - bw);
    const by = random() * (horizon - bh);
    parts.push(`<rect x="${bx}" y="${by}" width="${bw}" height="${bh}" fill="${rgb([random() * 255, random() * 120, random() * 255])}"/>`);
    parts.push(textPath(pick(random, fonts), pick(random, texts), bx + bw / 2, by + bh * 0.78, bh * 0.8, bw * 0.9, 'fill="white"'));
  }
  return parts.join('');
}

function bibNumber(random: Random, pattern: string | null): string {
  const digits = (n: number) => {
    const text = Array.from({ length: n }, () => String(Math.floor(random() * 10))).join('');
    // A BIB never starts with 0. The lead digit is drawn every time, so a seed always gives one scene.
    const lead = String(1 + Math.floor(random() * 9));
    return text.replace(/^0/, lead);
  };
  if (pattern === '^[A-Z]\\d{3}$') return pick(random, ['A', 'B', 'C', 'F', 'K', 'M', 'T']) + digits(3);
  if (pattern === '^\\d{4}$') return digits(4);
  return digits(2 + Math.floor(random() * 4));
}

const PATTERNS = [null, '^\\d{1,5}$', '^\\d{4}$', '^[A-Z]\\d{3}$'];

/** One photo of the given family and hard case; the same seed (and face set) always gives the same photo. */
export async function renderBibScene(family: Family, hardCase: HardCase, seed: number, width = 6000, height = 4000, withFaces = true): Promise<BibScene> {
  const random = seededRandom(seed * 7919 + (family === 'tune' ? 1 : 2));
  const pattern = pick(random, PATTERNS);
  const runners = hardCase === 'group' ? 2 + Math.floor(random() * 2) : 1;
  const bibs: Bib[] = [];
  while (bibs.length < runners) {
    const number = bibNumber(random, pattern);
    if (bibs.some((b) => b.number === number)) continue;
    const scale = hardCase === 'small' ? between(random, 0.009, 0.016) : hardCase === 'group' ? between(random, 0.02, 0.04) : between(random, 0.025, 0.06);
    bibs.push({ number, digitHeight: height * scale });
  }
  const parts = [background(random, family, width, height)];
  const front: string[] = [];
  const layers: OverlayOptions[] = [];
  // Real faces as heads when the team's face set is there (drawn heads otherwise).
  const faces = withFaces ? loadFaceSet() : null;
  const visible: string[] = [];
  const hidden: string[] = [];
  for (let i = 0; i < bibs.length; i += 1) {
    const bib = bibs[i]!;
    const slot = width / bibs.length;
    const x = slot * (i + between(random, 0.35, 0.65));
    const y = height * between(random, 0.55, 0.7);
    const tilt = hardCase === 'rotated' ? pick(random, [-1, 1]) * between(random, 10, 20) : between(random, -5, 5);
    const skew = family === 'heldout' ? between(random, -8, 8) : 0;
    const cover = hardCase === 'covered' ? (random() < 0.7 ? 'edge' : 'digit') : 'none';
    const drawn = runner(random, family, bib, x, y, tilt, skew, cover);
    parts.push(drawn.svg);
    front.push(drawn.frontSvg);
    (cover === 'digit' ? hidden : visible).push(bib.number);
    if (faces) {
      const face = pick(random, faces);
      const size = Math.max(8, Math.round(drawn.face.size));
      layers.push({
        input: await sharp(face.image).resize(size, size).toBuffer(),
        left: Math.round(drawn.face.left),
        top: Math.max(0, Math.round(drawn.face.top)),
      });
    }
  }
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`);
  const foreground = front.join('');
  let image = sharp(svg).composite([
    ...layers,
    ...(foreground
      ? [{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${foreground}</svg>`), left: 0, top: 0 }]
      : []),
  ]);
  if (hardCase === 'blur') {
    // Motion blur across the frame: the runner moved while the shutter was open.
    const length = 2 * Math.round(height * between(random, 0.002, 0.004)) + 1;
    const kernel = [...Array<number>(length).fill(0), ...Array<number>(length).fill(1), ...Array<number>(length).fill(0)];
    image = sharp(await image.png({ compressionLevel: 0 }).toBuffer()).convolve({ width: length, height: 3, kernel, scale: length });
  }
  const jpeg = await image.jpeg({ quality: Math.round(between(random, 78, 92)) }).toBuffer();
  const withList = random() < 0.6;
  const participants = withList ? [...visible, ...hidden, ...Array.from({ length: 300 }, () => bibNumber(random, pattern))] : null;
  return { image: jpeg, bibs: visible, hidden, pattern, participants, hardCase };
}
