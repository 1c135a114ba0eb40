import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import opentype from 'opentype.js';
import sharp, { type OverlayOptions } from 'sharp';
import { loadFaceSet, seededRandom } from './faceScenes';

/**
 * Race photos for the BIB reader's evaluation, one kind per condition that real photos bring: truncated
 * numbers (at the frame's edge, under a hand, behind another runner), narrow digits, heavy JPEG
 * compression, perspective, rotation, glare, defocus, low light, shadows, light digits on dark bibs,
 * crowds, small text and motion blur. Events have a prefixed or a numeric BIB format and a participant
 * list (every benchmark reads each photo with the list and without it).
 *
 * Two families share only this code: "tune" (its fonts, bib layouts and seeds are what the reader may be
 * adjusted on) and "frozen", a held-out family with fonts, layouts, banner texts and a seed range of its
 * own, fixed before any tuning and measured once at the end (see docs/bib-reading.md).
 *
 * Photographic look without photographs in the repository: backgrounds are multi-octave noise fields
 * (foliage, tarmac, buildings, bokeh) under drawn scenery, blurred for depth of field; bib cards are
 * rendered on their own and then creased, lit (glare, shadow), turned and put in perspective pixel by
 * pixel; heads are the team's real face photos when present. Glyphs are outlines from TTF files shipped
 * in npm font packages (opentype.js), so no system font setup changes what is drawn.
 */

export type SceneFamily = 'tune' | 'frozen';
export const CONDITIONS = [
  'plain',
  'truncated',
  'narrow',
  'jpeg',
  'perspective',
  'rotated',
  'glare',
  'defocus',
  'lowlight',
  'shadow',
  'darkbib',
  'crowded',
  'small',
  'motion',
] as const;
export type Condition = (typeof CONDITIONS)[number];
export type FormatKind = 'prefixed' | 'numeric';
export const FORMAT_KINDS: FormatKind[] = ['prefixed', 'numeric'];
/** How a truncated scene hides part of its number. */
export type Truncation = 'edge' | 'hand' | 'behind';

export interface RaceScene {
  image: Buffer;
  /** BIBs a careful person reads whole in the photo: what the reader should return. */
  bibs: string[];
  /** BIBs drawn but cut or hidden in part: returning one whole is no error, returning a part of one is. */
  hidden: string[];
  pattern: string;
  formatKind: FormatKind;
  /** The event's participant list (the benchmark reads every photo with it and without it). */
  participants: string[];
  condition: Condition;
  truncation: Truncation | null;
  width: number;
  height: number;
}

const require = createRequire(import.meta.url);

function npmFont(pkg: string, file: string): string {
  return path.join(path.dirname(require.resolve(`@expo-google-fonts/${pkg}/package.json`)), file);
}

/** Fonts per family: each family's own, wide and narrow (condensed fonts with narrow digits). */
const FONTS: Record<SceneFamily, { regular: [string, string][]; narrow: [string, string][] }> = {
  tune: {
    regular: [
      ['inter', '700Bold/Inter_700Bold.ttf'],
      ['inter', '900Black/Inter_900Black.ttf'],
      ['open-sans', '800ExtraBold/OpenSans_800ExtraBold.ttf'],
      ['open-sans', '700Bold/OpenSans_700Bold.ttf'],
      ['roboto-condensed', '700Bold/RobotoCondensed_700Bold.ttf'],
    ],
    narrow: [
      ['oswald', '700Bold/Oswald_700Bold.ttf'],
      ['oswald', '600SemiBold/Oswald_600SemiBold.ttf'],
      ['anton', '400Regular/Anton_400Regular.ttf'],
      ['roboto-condensed', '800ExtraBold/RobotoCondensed_800ExtraBold.ttf'],
    ],
  },
  frozen: {
    regular: [
      ['kanit', '700Bold/Kanit_700Bold.ttf'],
      ['rubik', '800ExtraBold/Rubik_800ExtraBold.ttf'],
      ['russo-one', '400Regular/RussoOne_400Regular.ttf'],
      ['titillium-web', '700Bold/TitilliumWeb_700Bold.ttf'],
      ['exo-2', '800ExtraBold/Exo2_800ExtraBold.ttf'],
      ['roboto-slab', '700Bold/RobotoSlab_700Bold.ttf'],
      ['work-sans', '800ExtraBold/WorkSans_800ExtraBold.ttf'],
      ['lato', '900Black/Lato_900Black.ttf'],
    ],
    narrow: [
      ['bebas-neue', '400Regular/BebasNeue_400Regular.ttf'],
      ['barlow-condensed', '700Bold/BarlowCondensed_700Bold.ttf'],
      ['barlow-condensed', '600SemiBold/BarlowCondensed_600SemiBold.ttf'],
      ['teko', '600SemiBold/Teko_600SemiBold.ttf'],
      ['pt-sans-narrow', '700Bold/PTSansNarrow_700Bold.ttf'],
    ],
  },
};

const fontCache = new Map<string, opentype.Font>();
function loadFont([pkg, file]: [string, string]): opentype.Font {
  const full = npmFont(pkg, file);
  let font = fontCache.get(full);
  if (!font) {
    const bytes = fs.readFileSync(full);
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    fontCache.set(full, font);
  }
  return font;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: Random, lo: number, hi: number) => lo + random() * (hi - lo);
const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
const rgb = (c: readonly number[]) => `rgb(${c.map(clamp).join(',')})`;

/** A line of text laid out glyph by glyph: its SVG path, and each character's extent along the line. */
function layout(
  font: opentype.Font,
  text: string,
  cx: number,
  baseline: number,
  size: number,
  maxWidth: number,
  tracking = 0,
): { d: string; boxes: [number, number][] } {
  // Glyph by glyph: some fonts' substitution tables are beyond opentype.js's text layout.
  const glyphs = [...text].map((c) => font.charToGlyph(c));
  const advances = glyphs.map((g) => (g.advanceWidth ?? 0) / font.unitsPerEm);
  const natural = advances.reduce((a, b) => a + b, 0) + tracking * (glyphs.length - 1);
  const fitted = natural * size > maxWidth ? maxWidth / natural : size;
  let x = cx - (natural * fitted) / 2;
  const d: string[] = [];
  const boxes: [number, number][] = [];
  for (const [i, g] of glyphs.entries()) {
    const p = g.getPath(x, baseline, fitted);
    d.push(p.toPathData(1));
    const bb = p.getBoundingBox();
    boxes.push(Number.isFinite(bb.x1) && bb.x2 > bb.x1 ? [bb.x1, bb.x2] : [x, x + advances[i]! * fitted]);
    x += (advances[i]! + tracking) * fitted;
  }
  return { d: d.join(' '), boxes };
}

/** Cap height of a font as a fraction of its size (digits are about that tall). */
function capHeight(font: opentype.Font): number {
  const glyph = font.charToGlyph('8');
  const bb = glyph.getBoundingBox();
  return Math.max(0.5, (bb.y2 - Math.min(0, bb.y1)) / font.unitsPerEm);
}

// ---------------------------------------------------------------------------------------------------
// Events: formats, numbering, participant lists.

interface EventPlan {
  pattern: string;
  formatKind: FormatKind;
  next(random: Random, leadingOne: boolean): string;
  participants(random: Random, bibs: string[]): string[];
}

function eventOf(random: Random, formatKind: FormatKind): EventPlan {
  const contiguous = random() < 0.5;
  if (formatKind === 'numeric') {
    const pattern = pick(random, ['^\\d{1,5}$', '^\\d{1,5}$', '^\\d{4}$', '^\\d{3,4}$']);
    const [lo, hi] = pattern === '^\\d{4}$' ? [1000, 9999] : pattern === '^\\d{3,4}$' ? [100, 9999] : [10, pick(random, [999, 2500, 6000, 15000, 40000])];
    const number = (leadingOne: boolean) => {
      if (leadingOne && hi >= 1999) return String(1000 + Math.floor(random() * 1000));
      return String(lo + Math.floor(random() * (hi - lo + 1)));
    };
    return {
      pattern,
      formatKind,
      next: (_r, leadingOne) => number(leadingOne),
      participants: (r, bibs) => {
        const all = new Set(bibs);
        if (contiguous) {
          // Every number of the event's range (a real numbering: 3-digit BIBs begin and end 4-digit ones).
          const top = Math.min(hi, lo + 6000);
          for (let n = lo; n <= top; n += 1) all.add(String(n));
        } else {
          for (let i = 0; i < 3000; i += 1) all.add(String(lo + Math.floor(r() * (hi - lo + 1))));
        }
        return [...all];
      },
    };
  }
  const pattern = pick(random, ['^[A-Z]\\d{3,4}$', '^[A-Z]\\d{3,4}$', '^[A-Z]{2}\\d{3}$']);
  const letters = pattern === '^[A-Z]{2}\\d{3}$' ? ['HM', 'FM', 'TR', 'KM', 'UL'] : ['A', 'B', 'C', 'E', 'F', 'H', 'K', 'M', 'T'];
  const digits = pattern === '^[A-Z]{2}\\d{3}$' ? [100, 999] : [100, pick(random, [1999, 4999, 9999])];
  const number = (leadingOne: boolean) => {
    const n = leadingOne && digits[1]! >= 1999 ? 1000 + Math.floor(random() * 1000) : digits[0]! + Math.floor(random() * (digits[1]! - digits[0]! + 1));
    return pick(random, letters) + String(n);
  };
  return {
    pattern,
    formatKind,
    next: (_r, leadingOne) => number(leadingOne),
    participants: (r, bibs) => {
      const all = new Set(bibs);
      const used = [...new Set(bibs.map((b) => b.replace(/\d+$/, '')))];
      if (contiguous) {
        for (const l of used) for (let n = digits[0]!; n <= Math.min(digits[1]!, digits[0]! + 3000); n += 1) all.add(l + String(n));
      } else {
        for (let i = 0; i < 3000; i += 1) all.add(pick(r, letters) + String(digits[0]! + Math.floor(r() * (digits[1]! - digits[0]! + 1))));
      }
      return [...all];
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Backgrounds: noise fields under drawn scenery.

/** Value noise summed over octaves, as a grey field of w x h (0..1). */
function noiseField(random: Random, w: number, h: number, octaves: number, base: number): Float32Array {
  const out = new Float32Array(w * h);
  let amp = 1;
  let total = 0;
  for (let o = 0; o < octaves; o += 1) {
    const cell = Math.max(2, base / 2 ** o);
    const gw = Math.ceil(w / cell) + 2;
    const gh = Math.ceil(h / cell) + 2;
    const grid = Float32Array.from({ length: gw * gh }, () => random());
    for (let y = 0; y < h; y += 1) {
      const gy = y / cell;
      const y0 = Math.floor(gy);
      const fy = gy - y0;
      const sy = fy * fy * (3 - 2 * fy);
      for (let x = 0; x < w; x += 1) {
        const gx = x / cell;
        const x0 = Math.floor(gx);
        const fx = gx - x0;
        const sx = fx * fx * (3 - 2 * fx);
        const a = grid[y0 * gw + x0]!;
        const b = grid[y0 * gw + x0 + 1]!;
        const c = grid[(y0 + 1) * gw + x0]!;
        const d = grid[(y0 + 1) * gw + x0 + 1]!;
        out[y * w + x] += amp * ((a * (1 - sx) + b * sx) * (1 - sy) + (c * (1 - sx) + d * sx) * sy);
      }
    }
    total += amp;
    amp *= 0.55;
  }
  for (let i = 0; i < out.length; i += 1) out[i] /= total;
  return out;
}

/** The scene behind the runners, at a quarter of the photo's size (it is blurred for depth of field anyway). */
async function background(random: Random, family: SceneFamily, width: number, height: number, fonts: opentype.Font[]): Promise<Buffer> {
  const w = Math.round(width / 4);
  const h = Math.round(height / 4);
  const horizon = h * between(random, 0.3, 0.55);
  // Textured layers: foliage or buildings above the horizon, tarmac or grass below.
  const upper = noiseField(random, w, h, 5, w / 6);
  const lower = noiseField(random, w, h, 5, w / 25);
  const foliage = random() < 0.55;
  const top = foliage
    ? [between(random, 30, 80), between(random, 70, 130), between(random, 30, 70)]
    : [between(random, 110, 190), between(random, 100, 170), between(random, 90, 160)];
  const sky = [between(random, 150, 230), between(random, 170, 235), between(random, 190, 250)];
  const ground =
    random() < 0.7
      ? [between(random, 70, 120), between(random, 70, 115), between(random, 70, 115)]
      : [between(random, 60, 110), between(random, 110, 150), between(random, 50, 90)];
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const i = y * w + x;
      const n = upper[i]!;
      let c: number[];
      if (y < horizon) {
        // Sky shows through the canopy (or between buildings) where the noise is high.
        const skyShare = Math.max(0, Math.min(1, (n - 0.55) * 6 + (horizon - y) / horizon - 0.6));
        c = top.map((t, k) => t * (0.6 + n * 0.8) * (1 - skyShare) + sky[k]! * skyShare);
      } else {
        const m = lower[i]!;
        c = ground.map((g) => g * (0.75 + m * 0.5));
      }
      raw[i * 3] = clamp(c[0]!);
      raw[i * 3 + 1] = clamp(c[1]!);
      raw[i * 3 + 2] = clamp(c[2]!);
    }
  }
  const parts: string[] = [];
  if (!foliage) {
    // Windows of buildings.
    for (let i = 0; i < 40; i += 1)
      parts.push(
        `<rect x="${random() * w}" y="${random() * horizon * 0.9}" width="${w * 0.012}" height="${h * 0.02}" fill="${rgb([40, 50, 60])}" opacity="0.6"/>`,
      );
  }
  // Road markings, a barrier, spectators.
  for (let i = 0; i < 5; i += 1)
    parts.push(
      `<rect x="${random() * w}" y="${horizon + random() * (h - horizon)}" width="${w * 0.06}" height="${h * 0.006}" fill="rgb(230,230,225)" opacity="0.8"/>`,
    );
  const crowdY = horizon + h * 0.01;
  for (let i = 0; i < 45; i += 1) {
    const s = h * between(random, 0.025, 0.05);
    const cx = random() * w;
    parts.push(
      `<rect x="${cx - s * 0.5}" y="${crowdY}" width="${s}" height="${s * 1.7}" rx="${s * 0.3}" fill="${rgb([random() * 255, random() * 255, random() * 255])}"/>`,
    );
    parts.push(
      `<circle cx="${cx}" cy="${crowdY - s * 0.3}" r="${s * 0.33}" fill="${rgb(
        pick(random, [
          [224, 180, 150],
          [170, 120, 85],
          [120, 80, 55],
          [80, 55, 40],
        ]),
      )}"/>`,
    );
  }
  parts.push(
    `<rect y="${crowdY + h * 0.07}" width="${w}" height="${h * 0.03}" fill="${rgb([200 + random() * 55, 60 + random() * 190, 40 + random() * 200])}"/>`,
  );
  // Banners and signs: words and numbers that are no BIB (a year, a distance, a clock, a kilometre mark).
  const texts =
    family === 'tune'
      ? ['FINISH', 'CITY MARATHON 2026', 'KM 40', '02:41:17', 'GO GO GO', '10K', 'WATER 200M', 'START 05:30']
      : ['ARRIVEE', 'RIVERSIDE 21K', 'SPLIT 35', '1:58:03', 'ENERGY ZONE', 'KM 18', 'MUMBAI 2026', 'CHEER POINT 3'];
  for (let i = 0; i < 2 + Math.floor(random() * 3); i += 1) {
    const bw = w * between(random, 0.12, 0.35);
    const bh = h * between(random, 0.03, 0.07);
    const bx = random() * (w - bw);
    const by = random() * Math.max(1, horizon - bh);
    parts.push(`<rect x="${bx}" y="${by}" width="${bw}" height="${bh}" fill="${rgb([random() * 255, random() * 140, random() * 255])}"/>`);
    parts.push(`<path d="${layout(pick(random, fonts), pick(random, texts), bx + bw / 2, by + bh * 0.78, bh * 0.8, bw * 0.9).d}" fill="white"/>`);
  }
  // Bokeh: out-of-focus highlights.
  for (let i = 0; i < 25; i += 1)
    parts.push(
      `<circle cx="${random() * w}" cy="${random() * horizon}" r="${w * between(random, 0.005, 0.02)}" fill="white" opacity="${between(random, 0.1, 0.35)}"/>`,
    );
  const scenery = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join('')}</svg>`);
  const blur = between(random, 0.6, 2.2);
  // sharp composites after it resizes, whatever the order of the calls: the drawn scenery is put on first.
  const drawn = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .composite([{ input: scenery }])
    .removeAlpha()
    .png({ compressionLevel: 0 })
    .toBuffer();
  return sharp(drawn).blur(blur).resize(width, height, { kernel: 'cubic' }).png({ compressionLevel: 0 }).toBuffer();
}

// ---------------------------------------------------------------------------------------------------
// Bib cards: drawn flat, then creased, lit and put in the photo by a pixel warp.

const RACE_NAMES: Record<SceneFamily, string[]> = {
  tune: ['CITY MARATHON', 'HALF MARATHON', 'SUNRISE RUN', 'METRO 10K', 'HILLS TRAIL', 'NIGHT 5K'],
  frozen: ['COASTAL ULTRA', 'RIVERSIDE HALF', 'MONSOON RUN', 'HERITAGE 21K', 'LAKESIDE 10K', 'DECCAN TRAIL'],
};
const SPONSORS: Record<SceneFamily, string[]> = {
  tune: ['AQUA+', 'SPORTIFY', 'NORTHBANK', 'VOLT ENERGY', 'RUN FOR GOOD'],
  frozen: ['FASTLANE', 'PEAK FUEL', 'HARBOUR BANK', 'ZEST', 'TRUEFIT'],
};
const NAMES = ['RAHUL', 'PRIYA', 'ANIL', 'SNEHA', 'VIKRAM', 'MEERA', 'ARJUN', 'KAVYA', 'ROHAN', 'DIYA'];

interface CardSpec {
  number: string;
  /** Digit height in photo pixels. */
  digitHeight: number;
  dark: boolean;
  narrow: boolean;
  glare: boolean;
  shadow: boolean;
}

interface Card {
  /** RGBA pixels of the flat card. */
  data: Buffer;
  width: number;
  height: number;
  /** Each character of the number: its extent along the card and the digits' top and bottom. */
  digits: [number, number][];
  digitTop: number;
  digitBottom: number;
}

const LIGHT_CARDS = [
  [255, 255, 255],
  [250, 248, 240],
  [255, 235, 120],
  [210, 235, 255],
  [255, 215, 225],
  [215, 245, 215],
];
const DARK_CARDS = [
  [25, 25, 30],
  [20, 50, 130],
  [170, 25, 35],
  [20, 100, 60],
  [90, 30, 110],
  [60, 60, 65],
];

async function renderCard(random: Random, family: SceneFamily, spec: CardSpec): Promise<Card> {
  const fonts = spec.narrow ? FONTS[family].narrow : random() < 0.25 ? FONTS[family].narrow : FONTS[family].regular;
  const font = loadFont(pick(random, fonts));
  const small = loadFont(pick(random, FONTS[family].regular));
  const dh = spec.digitHeight;
  const size = dh / capHeight(font);
  const tracking = spec.narrow ? between(random, -0.02, 0.02) : between(random, 0, 0.06);
  const probe = layout(font, spec.number, 0, 0, size, Infinity, tracking);
  const numberW = probe.boxes.at(-1)![1] - probe.boxes[0]![0];
  const layoutKind =
    family === 'tune'
      ? pick(random, ['band-top', 'band-bottom-name', 'stripes'] as const)
      : pick(random, ['corner-logo', 'frame-tab', 'split-colour', 'plain-sponsor'] as const);
  const logoSide = layoutKind === 'corner-logo' || (layoutKind === 'band-top' && random() < 0.3);
  const marginX = dh * between(random, 0.35, 0.9);
  const w = Math.round(numberW + 2 * marginX + (logoSide ? dh * 0.9 : 0));
  const h = Math.round(dh * between(random, 2.0, 2.6));
  const ground = spec.dark ? pick(random, DARK_CARDS) : pick(random, LIGHT_CARDS);
  const ink = spec.dark
    ? pick(random, [
        [250, 250, 250],
        [255, 225, 60],
        [240, 240, 220],
      ])
    : pick(random, [
        [0, 0, 0],
        [25, 25, 30],
        [150, 20, 30],
        [15, 35, 110],
      ]);
  const accent = pick(random, [
    [200, 30, 40],
    [20, 90, 180],
    [240, 150, 20],
    [30, 140, 70],
    [120, 40, 140],
  ]);
  const parts: string[] = [`<rect width="${w}" height="${h}" fill="${rgb(ground)}"/>`];
  const band = h * between(random, 0.18, 0.24);
  let numberTop = band;
  let numberBottom = h;
  const text = (s: string, cx: number, base: number, sz: number, maxW: number, fill: string) =>
    `<path d="${layout(small, s, cx, base, sz, maxW).d}" fill="${fill}"/>`;
  switch (layoutKind) {
    case 'band-top':
      parts.push(
        `<rect width="${w}" height="${band}" fill="${rgb(accent)}"/>`,
        text(pick(random, RACE_NAMES[family]) + (random() < 0.3 ? ' 2026' : ''), w / 2, band * 0.75, band * 0.6, w * 0.88, 'white'),
      );
      break;
    case 'band-bottom-name':
      parts.push(
        `<rect y="${h - band}" width="${w}" height="${band}" fill="${rgb(accent)}"/>`,
        text(pick(random, NAMES), w / 2, h - band * 0.25, band * 0.62, w * 0.6, 'white'),
      );
      parts.push(text(pick(random, SPONSORS[family]), w / 2, band * 0.7, band * 0.45, w * 0.7, rgb(accent)));
      numberTop = band * 0.9;
      numberBottom = h - band;
      break;
    case 'stripes':
      for (let i = 0; i < 3; i += 1) parts.push(`<rect y="${h - band * (0.3 + i * 0.25)}" width="${w}" height="${band * 0.12}" fill="${rgb(accent)}"/>`);
      parts.push(text(pick(random, RACE_NAMES[family]), w / 2, band * 0.72, band * 0.5, w * 0.8, rgb(accent)));
      numberBottom = h - band * 0.8;
      break;
    case 'corner-logo':
      parts.push(`<circle cx="${dh * 0.55}" cy="${h * 0.5}" r="${dh * 0.33}" fill="${rgb(accent)}"/>`);
      parts.push(
        `<path d="M${dh * 0.35} ${h * 0.55} l${dh * 0.2} ${-dh * 0.2} l${dh * 0.2} ${dh * 0.2}" stroke="white" stroke-width="${dh * 0.06}" fill="none"/>`,
      );
      parts.push(text(pick(random, SPONSORS[family]), w / 2, h - band * 0.3, band * 0.55, w * 0.7, rgb(accent)));
      numberTop = band * 0.3;
      numberBottom = h - band;
      break;
    case 'frame-tab': {
      const m = dh * 0.1;
      parts.push(`<rect x="${m}" y="${m}" width="${w - 2 * m}" height="${h - 2 * m}" fill="none" stroke="${rgb(accent)}" stroke-width="${dh * 0.05}"/>`);
      // A tear-off tab along the bottom with the number printed small and a perforation.
      parts.push(
        `<line x1="${m}" y1="${h - band}" x2="${w - m}" y2="${h - band}" stroke="${rgb(ink)}" stroke-width="${dh * 0.015}" stroke-dasharray="${dh * 0.05} ${dh * 0.05}"/>`,
      );
      parts.push(text(pick(random, RACE_NAMES[family]), w / 2, band * 0.75, band * 0.5, w * 0.8, rgb(accent)));
      numberTop = band;
      numberBottom = h - band;
      break;
    }
    case 'split-colour':
      parts.push(
        `<rect width="${w}" height="${band * 1.1}" fill="${rgb(accent)}"/>`,
        `<rect y="${h - band * 0.7}" width="${w}" height="${band * 0.7}" fill="${rgb(accent)}" opacity="0.7"/>`,
      );
      parts.push(text(pick(random, SPONSORS[family]) + ' ' + pick(random, RACE_NAMES[family]), w / 2, band * 0.8, band * 0.55, w * 0.9, 'white'));
      numberTop = band * 1.1;
      numberBottom = h - band * 0.7;
      break;
    case 'plain-sponsor':
      parts.push(text(pick(random, SPONSORS[family]), w / 2, band * 0.8, band * 0.6, w * 0.6, rgb(ink)));
      break;
  }
  const baseline = (numberTop + numberBottom) / 2 + dh / 2;
  const numberCx = w / 2 + (logoSide ? dh * 0.45 : 0) + between(random, -0.05, 0.05) * dh;
  const number = layout(font, spec.number, numberCx, baseline, size, Infinity, tracking);
  const outline = !spec.dark && random() < 0.15 ? ` stroke="${rgb(accent)}" stroke-width="${dh * 0.03}"` : '';
  parts.push(`<path d="${number.d}" fill="${rgb(ink)}"${outline}/>`);
  // Safety pins at the corners.
  for (const [px, py] of [
    [dh * 0.15, dh * 0.15],
    [w - dh * 0.15, dh * 0.15],
    [dh * 0.15, h - dh * 0.15],
    [w - dh * 0.15, h - dh * 0.15],
  ]) {
    if (random() < 0.15) continue;
    const a = between(random, -0.6, 0.6);
    const l = dh * 0.28;
    parts.push(
      `<line x1="${px! - (Math.cos(a) * l) / 2}" y1="${py! - (Math.sin(a) * l) / 2}" x2="${px! + (Math.cos(a) * l) / 2}" y2="${py! + (Math.sin(a) * l) / 2}" stroke="rgb(185,185,190)" stroke-width="${dh * 0.035}" stroke-linecap="round"/>`,
    );
    parts.push(`<circle cx="${px}" cy="${py}" r="${dh * 0.04}" fill="rgb(150,150,155)"/>`);
  }
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join('')}</svg>`);
  const { data } = await sharp(svg).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  // Creases: soft light and dark ridges across the card (paper bent by the body and the pins).
  const creases = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
    a: between(random, 0, Math.PI),
    off: between(random, -0.5, 0.5),
    width: between(random, 0.02, 0.08) * h,
    depth: between(random, 0.08, 0.22),
  }));
  const glare = spec.glare
    ? {
        x: between(random, 0.2, 0.8) * w,
        y: between(random, 0.3, 0.7) * h,
        rx: between(random, 0.25, 0.6) * w,
        ry: between(random, 0.3, 0.7) * h,
        k: between(random, 0.6, 0.92),
      }
    : null;
  const shade = spec.shadow
    ? {
        a: between(random, -0.5, 0.5) + Math.PI / 2,
        off: between(random, -0.25, 0.25) * w,
        k: between(random, 0.45, 0.75),
        soft: between(random, 0.01, 0.05) * w,
      }
    : null;
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      let light = 1;
      for (const c of creases) {
        const d = (x - w / 2) * Math.sin(c.a) - (y - h / 2) * Math.cos(c.a) - c.off * w;
        const t = d / c.width;
        if (Math.abs(t) < 3) light *= 1 - c.depth * Math.exp(-t * t) * Math.sign(t || 1) * 0.6;
      }
      let add = 0;
      if (glare) {
        const gx = (x - glare.x) / glare.rx;
        const gy = (y - glare.y) / glare.ry;
        add = glare.k * Math.exp(-(gx * gx + gy * gy) * 2);
      }
      if (shade) {
        const d = (x - w / 2) * Math.cos(shade.a) + (y - h / 2) * Math.sin(shade.a) - shade.off;
        const s = 1 / (1 + Math.exp(-d / shade.soft));
        light *= 1 - shade.k * s;
      }
      const i = (y * w + x) * 4;
      for (let k = 0; k < 3; k += 1) data[i + k] = clamp(data[i + k]! * light * (1 - add) + 255 * add);
    }
  }
  const top = baseline - dh;
  return { data, width: w, height: h, digits: number.boxes, digitTop: top, digitBottom: baseline };
}

/** How a flat card lies in the photo: centre, tilt (radians), yaw (perspective, radians) and scale 1. */
interface Pose {
  cx: number;
  cy: number;
  tilt: number;
  yaw: number;
  /** Distance of the camera in card widths (nearer: stronger perspective). */
  focal: number;
}

/** Maps a point of the flat card to the photo. */
function cardToPhoto(card: { width: number; height: number }, pose: Pose, u: number, v: number): [number, number] {
  const f = card.width * pose.focal;
  const up = u - card.width / 2;
  const vp = v - card.height / 2;
  const z = up * Math.sin(pose.yaw);
  const s = f / (f + z);
  const x = up * Math.cos(pose.yaw) * s;
  const y = vp * s;
  return [pose.cx + x * Math.cos(pose.tilt) - y * Math.sin(pose.tilt), pose.cy + x * Math.sin(pose.tilt) + y * Math.cos(pose.tilt)];
}

/** The card warped into the photo: an RGBA overlay and where it goes. */
function warpCard(card: Card, pose: Pose): { input: Buffer; left: number; top: number; width: number; height: number } {
  const corners = [
    [0, 0],
    [card.width, 0],
    [0, card.height],
    [card.width, card.height],
  ].map(([u, v]) => cardToPhoto(card, pose, u!, v!));
  const left = Math.floor(Math.min(...corners.map((c) => c[0]))) - 1;
  const top = Math.floor(Math.min(...corners.map((c) => c[1]))) - 1;
  const width = Math.ceil(Math.max(...corners.map((c) => c[0]))) - left + 2;
  const height = Math.ceil(Math.max(...corners.map((c) => c[1]))) - top + 2;
  const out = Buffer.alloc(width * height * 4);
  const f = card.width * pose.focal;
  const cos = Math.cos(pose.tilt);
  const sin = Math.sin(pose.tilt);
  const cy = Math.cos(pose.yaw);
  const sy = Math.sin(pose.yaw);
  for (let py = 0; py < height; py += 1) {
    for (let px = 0; px < width; px += 1) {
      const dx = left + px + 0.5 - pose.cx;
      const dy = top + py + 0.5 - pose.cy;
      const x = dx * cos + dy * sin;
      const y = -dx * sin + dy * cos;
      const up = (x * f) / (f * cy - x * sy);
      const s = f / (f + up * sy);
      const u = up + card.width / 2 - 0.5;
      const v = y / s + card.height / 2 - 0.5;
      if (u < -0.5 || v < -0.5 || u > card.width - 0.5 || v > card.height - 0.5) continue;
      const u0 = Math.max(0, Math.min(card.width - 2, Math.floor(u)));
      const v0 = Math.max(0, Math.min(card.height - 2, Math.floor(v)));
      const fu = Math.max(0, Math.min(1, u - u0));
      const fv = Math.max(0, Math.min(1, v - v0));
      const i = (v0 * card.width + u0) * 4;
      const j = i + card.width * 4;
      const o = (py * width + px) * 4;
      for (let k = 0; k < 3; k += 1) {
        const a = card.data[i + k]! * (1 - fu) + card.data[i + 4 + k]! * fu;
        const b = card.data[j + k]! * (1 - fu) + card.data[j + 4 + k]! * fu;
        out[o + k] = clamp(a * (1 - fv) + b * fv);
      }
      out[o + 3] = 255;
    }
  }
  return { input: out, left, top, width, height };
}

// ---------------------------------------------------------------------------------------------------
// Runners.

const SKINS = [
  [224, 180, 150],
  [198, 150, 112],
  [160, 110, 75],
  [120, 80, 55],
  [85, 58, 40],
];

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A runner's body (legs, arms, torso, neck) as SVG in photo coordinates, and where the head goes. */
function body(
  random: Random,
  cx: number,
  chestY: number,
  torsoW: number,
  lean: number,
): { svg: string; head: { left: number; top: number; size: number }; box: Box; skin: number[] } {
  const torsoH = torsoW * between(random, 1.3, 1.55);
  const skin = pick(random, SKINS);
  const shirt = [random() * 255, random() * 255, random() * 255];
  const shorts = pick(random, [
    [20, 20, 30],
    [40, 60, 120],
    [200, 200, 200],
    [120, 20, 30],
  ]);
  const x = cx - torsoW / 2;
  const y = chestY - torsoH * 0.42;
  const p: string[] = [];
  const g = `transform="rotate(${lean} ${cx} ${y + torsoH})"`;
  p.push(`<g ${g}>`);
  p.push(
    `<rect x="${x + torsoW * 0.1}" y="${y + torsoH * 0.95}" width="${torsoW * 0.32}" height="${torsoH * 1.3}" rx="${torsoW * 0.12}" fill="${rgb(skin)}" transform="rotate(${between(random, -18, 10)} ${x + torsoW * 0.26} ${y + torsoH})"/>`,
  );
  p.push(
    `<rect x="${x + torsoW * 0.58}" y="${y + torsoH * 0.95}" width="${torsoW * 0.32}" height="${torsoH * 1.3}" rx="${torsoW * 0.12}" fill="${rgb(skin)}" transform="rotate(${between(random, -10, 18)} ${x + torsoW * 0.74} ${y + torsoH})"/>`,
  );
  p.push(`<rect x="${x}" y="${y + torsoH * 0.85}" width="${torsoW}" height="${torsoH * 0.35}" rx="${torsoW * 0.08}" fill="${rgb(shorts)}"/>`);
  p.push(
    `<rect x="${x - torsoW * 0.22}" y="${y + torsoH * 0.04}" width="${torsoW * 0.22}" height="${torsoH * 0.75}" rx="${torsoW * 0.1}" fill="${rgb(skin)}" transform="rotate(${between(random, 8, 40)} ${x} ${y})"/>`,
  );
  p.push(
    `<rect x="${x + torsoW}" y="${y + torsoH * 0.04}" width="${torsoW * 0.22}" height="${torsoH * 0.75}" rx="${torsoW * 0.1}" fill="${rgb(skin)}" transform="rotate(${between(random, -40, -8)} ${x + torsoW} ${y})"/>`,
  );
  p.push(`<rect x="${x}" y="${y}" width="${torsoW}" height="${torsoH}" rx="${torsoW * 0.2}" fill="${rgb(shirt)}"/>`);
  if (random() < 0.5)
    p.push(
      `<rect x="${x}" y="${y + torsoH * between(random, 0.05, 0.25)}" width="${torsoW}" height="${torsoH * 0.08}" fill="${rgb(shirt.map((c) => 255 - c))}" opacity="0.8"/>`,
    );
  // Folds of the shirt.
  for (let i = 0; i < 3; i += 1)
    p.push(
      `<path d="M${x + torsoW * random()} ${y + torsoH * random()} q${torsoW * 0.2} ${torsoH * 0.1} ${torsoW * 0.35} ${torsoH * 0.3}" stroke="black" stroke-opacity="0.18" stroke-width="${torsoW * 0.02}" fill="none"/>`,
    );
  const headSize = torsoW * 0.55;
  p.push(`<rect x="${cx - headSize * 0.17}" y="${y - headSize * 0.25}" width="${headSize * 0.34}" height="${headSize * 0.4}" fill="${rgb(skin)}"/>`);
  p.push(`<ellipse cx="${cx}" cy="${y - headSize * 0.55}" rx="${headSize * 0.45}" ry="${headSize * 0.55}" fill="${rgb(skin)}"/>`);
  p.push('</g>');
  return {
    svg: p.join(''),
    head: { left: cx - headSize * 0.42, top: y - headSize * 1.05, size: headSize * 0.84 },
    box: { x0: x - torsoW * 0.5, y0: y - headSize * 1.2, x1: x + torsoW * 1.5, y1: y + torsoH * 2.4 },
    skin,
  };
}

/** An arm and hand across a line from (x0, y0) to (x1, y1), `w` thick (a hand over the bib, an arm swinging past). */
function armAcross(skin: number[], x0: number, y0: number, x1: number, y1: number, w: number): string {
  const len = Math.hypot(x1 - x0, y1 - y0);
  const angle = (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI;
  return `<g transform="translate(${x0} ${y0}) rotate(${angle})"><rect x="0" y="${-w / 2}" width="${len}" height="${w}" rx="${w * 0.45}" fill="${rgb(skin)}"/><ellipse cx="${len}" cy="0" rx="${w * 0.75}" ry="${w * 0.62}" fill="${rgb(skin.map((c) => c * 0.93))}"/><path d="M${len - w * 0.3} ${-w * 0.4} l${w * 0.5} ${w * 0.1}" stroke="black" stroke-opacity="0.2" stroke-width="${w * 0.05}"/></g>`;
}

const svgOf = (width: number, height: number, inner: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${inner}</svg>`);

/** An SVG overlay cut to the part of the photo it covers (drawing full-size overlays costs seconds). */
function localSvg(width: number, height: number, box: Box, inner: string): OverlayOptions | null {
  const x0 = Math.max(0, Math.floor(box.x0));
  const y0 = Math.max(0, Math.floor(box.y0));
  const x1 = Math.min(width, Math.ceil(box.x1));
  const y1 = Math.min(height, Math.ceil(box.y1));
  if (x1 - x0 < 2 || y1 - y0 < 2) return null;
  return { input: svgOf(x1 - x0, y1 - y0, `<g transform="translate(${-x0} ${-y0})">${inner}</g>`), left: x0, top: y0 };
}

/** An RGBA overlay clipped to the photo (sharp refuses overlays that reach beyond it). */
async function clipped(
  width: number,
  height: number,
  o: { input: Buffer; left: number; top: number; width: number; height: number },
): Promise<OverlayOptions | null> {
  const x0 = Math.max(0, o.left);
  const y0 = Math.max(0, o.top);
  const x1 = Math.min(width, o.left + o.width);
  const y1 = Math.min(height, o.top + o.height);
  if (x1 - x0 < 2 || y1 - y0 < 2) return null;
  const input = await sharp(o.input, { raw: { width: o.width, height: o.height, channels: 4 } })
    .extract({ left: x0 - o.left, top: y0 - o.top, width: x1 - x0, height: y1 - y0 })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { input, left: x0, top: y0 };
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

// ---------------------------------------------------------------------------------------------------
// Scenes.

const SIZES: [number, number][] = [
  [6000, 4000],
  [4500, 3000],
  [3000, 2000],
  [2400, 1600],
  [4000, 6000],
  [2000, 3000],
];
const SMALL_SIZES: [number, number][] = [
  [4500, 3000],
  [4000, 2667],
  [3000, 2000],
  [2400, 1600],
  [2048, 1365],
  [2000, 3000],
];

const SEED_BASE: Record<SceneFamily, number> = { tune: 10_000_000, frozen: 70_000_000 };

/** The seed of a family's n-th photo of a condition (the frozen family's range is its own). */
export function sceneSeed(family: SceneFamily, condition: Condition, index: number): number {
  return SEED_BASE[family] + index * 97 + CONDITIONS.indexOf(condition);
}

/**
 * One photo of a family and condition. The same family, condition and index always give the same photo
 * (for the same face set). Even indices are prefixed formats, odd ones numeric.
 */
export async function renderRaceScene(family: SceneFamily, condition: Condition, index: number, withFaces = true): Promise<RaceScene> {
  const random = seededRandom(sceneSeed(family, condition, index) * 7919 + (family === 'tune' ? 3 : 5));
  const formatKind: FormatKind = index % 2 === 0 ? 'prefixed' : 'numeric';
  const event = eventOf(random, formatKind);
  let [width, height] = condition === 'small' ? pick(random, SMALL_SIZES) : pick(random, SIZES);
  const fonts = [...FONTS[family].regular, ...FONTS[family].narrow].map(loadFont);
  const truncationOf: Truncation | null = condition === 'truncated' ? pick(random, ['edge', 'hand', 'behind'] as const) : null;
  const count =
    condition === 'crowded'
      ? 5 + Math.floor(random() * 6)
      : condition === 'truncated'
        ? (random() < 0.5 ? 2 : 1) + (truncationOf === 'behind' ? 1 : 0)
        : 1 + Math.floor(random() * (condition === 'plain' ? 3 : 2));
  const truncation = truncationOf;
  const short = Math.min(width, height);
  const numbers: string[] = [];
  while (numbers.length < count) {
    const n = event.next(random, condition === 'narrow' || random() < 0.15);
    if (!numbers.includes(n)) numbers.push(n);
  }
  const layers: OverlayOptions[] = [];
  const faces = withFaces ? loadFaceSet() : null;
  const visible: string[] = [];
  const hidden: string[] = [];
  /** Number boxes in the photo, to hide a number that a runner in front covers. */
  const numberBoxes: { number: string; box: Box }[] = [];
  const digitHeights: number[] = [];
  const rows = condition === 'crowded' ? 2 : 1;
  let cropLeft = 0;
  let cropRight = width;
  for (let i = 0; i < count; i += 1) {
    const row = rows === 2 ? (i < Math.ceil(count / 2) ? 0 : 1) : 0;
    const inRow = rows === 2 ? (row === 0 ? Math.ceil(count / 2) : count - Math.ceil(count / 2)) : count;
    const k = rows === 2 ? (row === 0 ? i : i - Math.ceil(count / 2)) : i;
    const slot = width / inRow;
    // The truncated runner is the first; in 'behind' the second stands in front of it.
    const behindFront = truncation === 'behind' && i === 1;
    let dhFrac: number;
    if (condition === 'small') dhFrac = between(random, 12, 20) / height;
    else if (condition === 'crowded') dhFrac = row === 0 ? between(random, 0.012, 0.02) : between(random, 0.018, 0.03);
    else if (condition === 'jpeg' || condition === 'perspective' || condition === 'rotated') dhFrac = between(random, 0.013, 0.035) * (short / height);
    else dhFrac = between(random, 0.015, 0.045) * (short / height);
    const digitHeight = Math.max(12, dhFrac * height);
    const number = numbers[i]!;
    const spec: CardSpec = {
      number,
      digitHeight,
      dark: condition === 'darkbib' || (condition !== 'plain' && random() < 0.08),
      narrow: condition === 'narrow',
      glare: condition === 'glare',
      shadow: condition === 'shadow',
    };
    const card = await renderCard(random, family, spec);
    digitHeights.push(digitHeight);
    const torsoW = card.width * between(random, 1.35, 1.7);
    let cx = behindFront ? 0 : slot * (k + between(random, 0.3, 0.7));
    const chestY = behindFront
      ? numberBoxes[0]!.box.y1 + between(random, -0.3, 0.3) * card.height
      : height * (row === 0 ? between(random, 0.5, 0.62) : between(random, 0.62, 0.72));
    const tiltDeg = condition === 'rotated' ? pick(random, [-1, 1]) * between(random, 15, 30) : between(random, -6, 6);
    const yawDeg = condition === 'perspective' ? pick(random, [-1, 1]) * between(random, 30, 60) : between(random, -12, 12);
    if (behindFront) {
      // The runner in front stands beside the first, so its arm and side cover one or two of its digits.
      const first = numberBoxes[0]!;
      const side = random() < 0.5 ? -1 : 1;
      const coverDigits = 1 + Math.floor(random() * Math.min(2, Math.max(1, first.number.length - 1)));
      const digitW = (first.box.x1 - first.box.x0) / first.number.length;
      const edge = side < 0 ? first.box.x0 + digitW * coverDigits : first.box.x1 - digitW * coverDigits;
      cx = edge + side * torsoW * 0.5;
    }
    const drawn = body(random, cx, chestY, torsoW, between(random, -4, 4));
    const over = localSvg(width, height, drawn.box, drawn.svg);
    if (over) layers.push(over);
    if (faces) {
      const face = pick(random, faces);
      const size = Math.max(8, Math.round(drawn.head.size));
      const left = Math.round(drawn.head.left);
      const top = Math.round(drawn.head.top);
      if (left >= 0 && top >= 0 && left + size <= width && top + size <= height)
        layers.push({ input: await sharp(face.image).resize(size, size).toBuffer(), left, top });
    }
    const pose: Pose = {
      cx,
      cy: chestY + between(random, -0.05, 0.05) * card.height,
      tilt: (tiltDeg * Math.PI) / 180,
      yaw: (yawDeg * Math.PI) / 180,
      focal: condition === 'perspective' ? between(random, 1.1, 2.2) : 2.2,
    };
    const warped = warpCard(card, pose);
    const placed = await clipped(width, height, warped);
    if (placed) layers.push(placed);
    const digitCorners = card.digits.flatMap(([a, b]) => [
      cardToPhoto(card, pose, a, card.digitTop),
      cardToPhoto(card, pose, b, card.digitBottom),
      cardToPhoto(card, pose, a, card.digitBottom),
      cardToPhoto(card, pose, b, card.digitTop),
    ]);
    const numberBox: Box = {
      x0: Math.min(...digitCorners.map((c) => c[0])),
      y0: Math.min(...digitCorners.map((c) => c[1])),
      x1: Math.max(...digitCorners.map((c) => c[0])),
      y1: Math.max(...digitCorners.map((c) => c[1])),
    };
    // A number partly beyond the frame is not whole.
    const inFrame = numberBox.x0 >= 0 && numberBox.y0 >= 0 && numberBox.x1 <= width && numberBox.y1 <= height;
    let whole = inFrame;
    if (i === 0 && truncation === 'hand') {
      // A hand over one or two digits at one end (whole digits, or most of one).
      const n = number.length;
      const cover = Math.min(n - 1, 1 + Math.floor(random() * 2));
      const fromStart = random() < 0.45;
      const [a, b] = fromStart
        ? [card.digits[0]![0], card.digits[cover - 1]![1] - (card.digits[cover - 1]![1] - card.digits[cover - 1]![0]) * between(random, 0, 0.3)]
        : [card.digits[n - cover]![0] + (card.digits[n - cover]![1] - card.digits[n - cover]![0]) * between(random, 0, 0.3), card.digits[n - 1]![1]];
      const mid = (a + b) / 2;
      const [hx, hy] = cardToPhoto(card, pose, mid, (card.digitTop + card.digitBottom) / 2);
      const armW = Math.abs(b - a) * between(random, 1.05, 1.3);
      const from = between(random, -0.5, 0.5) + (random() < 0.5 ? Math.PI / 2 : -Math.PI / 2);
      const reach = card.height * 2.2;
      // The fist lies over the digits (the arm's end goes a little past their centre).
      const [ex, ey] = [hx - Math.cos(from) * armW * 0.45, hy - Math.sin(from) * armW * 0.45];
      const svg = armAcross(drawn.skin, hx + Math.cos(from) * reach, hy + Math.sin(from) * reach, ex, ey, armW);
      const overlay = localSvg(
        width,
        height,
        {
          x0: Math.min(hx, hx + Math.cos(from) * reach) - armW * 2,
          y0: Math.min(hy, hy + Math.sin(from) * reach) - armW * 2,
          x1: Math.max(hx, hx + Math.cos(from) * reach) + armW * 2,
          y1: Math.max(hy, hy + Math.sin(from) * reach) + armW * 2,
        },
        svg,
      );
      if (overlay) layers.push(overlay);
      whole = false;
    }
    if (i === 0 && truncation === 'edge') {
      // The frame's edge through one or two digits (the photo is cut there at the end).
      const n = number.length;
      const cut = Math.min(n - 1, 1 + Math.floor(random() * 2));
      const left = random() < 0.5;
      const digit = left ? card.digits[cut - 1]! : card.digits[n - cut]!;
      const at = digit[0] + (digit[1] - digit[0]) * (left ? between(random, 0.6, 1.0) : between(random, 0, 0.4));
      const [ex] = cardToPhoto(card, pose, at, (card.digitTop + card.digitBottom) / 2);
      if (left) cropLeft = Math.max(0, Math.round(ex));
      else cropRight = Math.min(width, Math.round(ex));
      whole = false;
    }
    if (truncation === 'behind' && i === 0) whole = false;
    // A number that an earlier (farther) runner's bib had is hidden if this runner stands over it.
    for (const other of numberBoxes)
      if (overlaps(other.box, drawn.box) && visible.includes(other.number)) {
        visible.splice(visible.indexOf(other.number), 1);
        hidden.push(other.number);
      }
    numberBoxes.push({ number, box: numberBox });
    (whole ? visible : hidden).push(number);
  }
  if (truncation === 'edge') {
    // Cut the photo so that its edge runs through the first runner's number; the other runner stays whole or is hidden.
    const keep = numberBoxes.slice(1).filter((nb) => nb.box.x0 < cropLeft || nb.box.x1 > cropRight);
    for (const nb of keep)
      if (visible.includes(nb.number)) {
        visible.splice(visible.indexOf(nb.number), 1);
        hidden.push(nb.number);
      }
  }
  let image = sharp(await background(random, family, width, height, fonts)).composite(layers);
  let buffer = await image.raw().toBuffer({ resolveWithObject: true });
  if (cropLeft > 0 || cropRight < width) {
    const extracted = await sharp(buffer.data, { raw: { width, height, channels: buffer.info.channels } })
      .extract({ left: cropLeft, top: 0, width: cropRight - cropLeft, height })
      .raw()
      .toBuffer({ resolveWithObject: true });
    buffer = extracted;
    width = cropRight - cropLeft;
  }
  const channels = buffer.info.channels;
  const pixels = buffer.data;
  if (condition === 'lowlight') {
    // Dusk or a shaded street: dark, flat and noisy (sensor noise at high ISO).
    const gain = between(random, 0.12, 0.3);
    const noise = between(random, 6, 16);
    for (let i = 0; i < pixels.length; i += channels) {
      const n = (random() + random() + random() - 1.5) * noise * 1.4;
      for (let c = 0; c < 3; c += 1) pixels[i + c] = clamp(pixels[i + c]! * gain + 6 + n);
    }
  }
  image = sharp(pixels, { raw: { width, height, channels } });
  // Blur in proportion to the smallest number drawn, so that every number counted as readable still is.
  const mainDigit = Math.min(...digitHeights);
  // Every lens is a little soft; defocus is much more.
  const sigma = condition === 'defocus' ? mainDigit * between(random, 0.08, 0.17) : between(random, 0.4, 1.1);
  image = sharp(await image.blur(Math.max(0.4, sigma)).raw().toBuffer(), { raw: { width, height, channels } });
  if (condition === 'motion') {
    const length = 2 * Math.round(mainDigit * between(random, 0.08, 0.22)) + 1;
    const kernel = [...Array<number>(length).fill(0), ...Array<number>(length).fill(1), ...Array<number>(length).fill(0)];
    image = sharp(await image.convolve({ width: length, height: 3, kernel, scale: length }).raw().toBuffer(), { raw: { width, height, channels } });
  }
  let quality = Math.round(between(random, 80, 93));
  if (condition === 'jpeg') {
    // Photos passed through a messenger or a social site: shrunk and compressed hard.
    quality = Math.round(between(random, 15, 35));
    const scale = between(random, 1000, 2000) / Math.max(width, height);
    const w2 = Math.round(width * scale);
    image = sharp(
      await image
        .resize(w2)
        .raw()
        .toBuffer({ resolveWithObject: true })
        .then((r) => ((height = r.info.height), r.data)),
      { raw: { width: w2, height, channels } },
    );
    width = w2;
  }
  const jpeg = await image.removeAlpha().jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
  const participants = event.participants(random, [...visible, ...hidden]);
  return { image: jpeg, bibs: visible, hidden, pattern: event.pattern, formatKind, participants, condition, truncation, width, height };
}
