import type { Prng } from './prng';
import type { SceneKind } from './demoData';

/**
 * SVG drawings of the demo world: race backgrounds (sky, skyline or hills, crowd, road, banner),
 * runner figures wearing a BIB card, the preview watermark, event logos and print product images.
 * Everything is drawn from a seeded PRNG, so the same inputs always give the same picture.
 */

export const PHOTO_WIDTH = 1600;
export const PHOTO_HEIGHT = 1067;

const FONT = `'DejaVu Sans', 'Liberation Sans', Arial, sans-serif`;
const BIB_FONT = `'DejaVu Sans Condensed', 'Liberation Sans Narrow', 'Arial Narrow', sans-serif`;
/** Large type that still fits the 108-unit card for BIBs up to about 9 characters. */
const bibFontSize = (bib: string) => Math.min(22, Math.floor(150 / Math.max(bib.length, 1)));
const SKIN_TONES = ['#8d5524', '#a0663a', '#c68642', '#b5774c', '#e0ac69', '#7a4a26'];
const SHIRT_COLOURS = ['#e53935', '#1e88e5', '#43a047', '#fdd835', '#8e24aa', '#fb8c00', '#00acc1', '#f4511e', '#3949ab', '#ffffff', '#212121'];
const SHORTS_COLOURS = ['#212121', '#263238', '#1a237e', '#4e342e', '#37474f'];
const HAIR_COLOURS = ['#1b1b1b', '#2b1d14', '#3b2a1e'];
const SKIES = [
  ['#5ea9e8', '#cfe8fb'], // clear morning
  ['#f7a35c', '#fde2b8'], // sunrise
  ['#9eaab5', '#dfe5ea'], // overcast
  ['#7fb6e0', '#f3e3c3'], // hazy
];

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export interface RunnerLook {
  skin: string;
  shirt: string;
  shorts: string;
  hair: string;
  /** 0..1: phase of the stride, moves arms and legs. */
  stride: number;
}

export function randomLook(rng: Prng): RunnerLook {
  return { skin: rng.pick(SKIN_TONES), shirt: rng.pick(SHIRT_COLOURS), shorts: rng.pick(SHORTS_COLOURS), hair: rng.pick(HAIR_COLOURS), stride: rng.next() };
}

/** Local runner size in SVG units before scaling (head top at 0, feet at 400). */
export const RUNNER_BOX = { width: 220, height: 410 };

/**
 * One runner facing the camera, in a 220 x 410 box. The BIB card carries the event code and the
 * number in large bold type; bib null draws an unreadable card (unlabeled photos).
 */
export function runnerGroup(look: RunnerLook, bib: string | null, eventCode: string): string {
  const swing = Math.sin(look.stride * Math.PI * 2);
  const lArmX = 38 - 8 * swing;
  const rArmX = 182 + 8 * swing;
  const lKneeY = 300 - 22 * Math.max(0, swing);
  const rKneeY = 300 - 22 * Math.max(0, -swing);
  const lFootY = 392 - 40 * Math.max(0, swing);
  const rFootY = 392 - 40 * Math.max(0, -swing);
  const shirtText = look.shirt === '#ffffff' || look.shirt === '#fdd835' ? '#333' : '#fff';
  const card = bib
    ? `<rect x="56" y="112" width="108" height="62" rx="4" fill="#fff" stroke="#222" stroke-width="2"/>
       <rect x="56" y="112" width="108" height="14" rx="3" fill="#d32f2f"/>
       <text x="110" y="123" font-family="${FONT}" font-size="10" font-weight="bold" fill="#fff" text-anchor="middle">${escapeXml(eventCode)}</text>
       <text x="110" y="159" font-family="${BIB_FONT}" font-size="${bibFontSize(bib)}" font-weight="bold" fill="#111" text-anchor="middle">${escapeXml(bib)}</text>`
    : `<rect x="62" y="112" width="96" height="62" rx="4" fill="#f2f2f2" stroke="#888" stroke-width="2" transform="skewX(-8) translate(18 0)"/>
       <rect x="80" y="140" width="60" height="10" fill="#c9c9c9"/>`;
  return `
    <line x1="88" y1="238" x2="${84 - 10 * swing}" y2="${lKneeY}" stroke="${look.skin}" stroke-width="24" stroke-linecap="round"/>
    <line x1="${84 - 10 * swing}" y1="${lKneeY}" x2="80" y2="${lFootY}" stroke="${look.skin}" stroke-width="20" stroke-linecap="round"/>
    <line x1="132" y1="238" x2="${136 + 10 * swing}" y2="${rKneeY}" stroke="${look.skin}" stroke-width="24" stroke-linecap="round"/>
    <line x1="${136 + 10 * swing}" y1="${rKneeY}" x2="140" y2="${rFootY}" stroke="${look.skin}" stroke-width="20" stroke-linecap="round"/>
    <ellipse cx="76" cy="${lFootY + 6}" rx="20" ry="9" fill="#fafafa" stroke="#333" stroke-width="2"/>
    <ellipse cx="144" cy="${rFootY + 6}" rx="20" ry="9" fill="#fafafa" stroke="#333" stroke-width="2"/>
    <rect x="66" y="196" width="88" height="56" rx="10" fill="${look.shorts}"/>
    <line x1="66" y1="92" x2="${lArmX}" y2="150" stroke="${look.skin}" stroke-width="18" stroke-linecap="round"/>
    <line x1="${lArmX}" y1="150" x2="${lArmX + 16}" y2="${190 - 20 * swing}" stroke="${look.skin}" stroke-width="16" stroke-linecap="round"/>
    <line x1="154" y1="92" x2="${rArmX}" y2="150" stroke="${look.skin}" stroke-width="18" stroke-linecap="round"/>
    <line x1="${rArmX}" y1="150" x2="${rArmX - 16}" y2="${190 + 20 * swing}" stroke="${look.skin}" stroke-width="16" stroke-linecap="round"/>
    <path d="M62 86 Q110 70 158 86 L160 206 Q110 214 60 206 Z" fill="${look.shirt}" stroke="rgba(0,0,0,0.25)" stroke-width="2"/>
    <text x="110" y="104" font-family="${FONT}" font-size="9" fill="${shirtText}" text-anchor="middle" opacity="0.8">RUN INDIA</text>
    ${card}
    <rect x="98" y="62" width="24" height="22" fill="${look.skin}"/>
    <circle cx="110" cy="40" r="30" fill="${look.skin}"/>
    <path d="M80 38 Q82 6 110 8 Q140 6 140 38 Q132 22 110 22 Q88 22 80 38 Z" fill="${look.hair}"/>
    <circle cx="100" cy="42" r="3" fill="#1a1a1a"/><circle cx="120" cy="42" r="3" fill="#1a1a1a"/>
    <path d="M100 54 Q110 60 120 54" stroke="#3a1f12" stroke-width="2.5" fill="none"/>`;
}

/** A standalone SVG of one runner at scale, for compositing onto a background. */
export function runnerSvg(
  look: RunnerLook,
  bib: string | null,
  eventCode: string,
  scale: number,
  mirrored = false,
): { svg: string; width: number; height: number } {
  const width = Math.ceil(RUNNER_BOX.width * scale);
  const height = Math.ceil(RUNNER_BOX.height * scale);
  // Mirroring flips the figure only, never the BIB text.
  const body = runnerGroup(look, bib, eventCode);
  const flip = mirrored && !bib ? `translate(${RUNNER_BOX.width} 0) scale(-1 1)` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${RUNNER_BOX.width} ${RUNNER_BOX.height}"><g transform="${flip}">${body}</g></svg>`;
  return { svg, width, height };
}

function skyline(rng: Prng, kind: SceneKind, horizon: number): string {
  if (kind === 'hills') {
    const layers: string[] = [];
    const colours = ['#6f8f72', '#557a5a', '#3f6b47'];
    colours.forEach((colour, layer) => {
      let d = `M0 ${horizon}`;
      for (let x = 0; x <= PHOTO_WIDTH; x += 100) d += ` L${x} ${horizon - 80 - layer * 20 - rng.int(0, 160 - layer * 40)}`;
      d += ` L${PHOTO_WIDTH} ${horizon} Z`;
      layers.push(`<path d="${d}" fill="${colour}"/>`);
    });
    const trees = Array.from({ length: 26 }, () => {
      const x = rng.int(0, PHOTO_WIDTH);
      const h = rng.int(50, 110);
      return `<path d="M${x} ${horizon - h} L${x - h / 3} ${horizon} L${x + h / 3} ${horizon} Z" fill="#2f5233"/>`;
    });
    return layers.join('') + trees.join('');
  }
  const parts: string[] = [];
  if (kind === 'coast') parts.push(`<rect x="0" y="${horizon - 40}" width="${PHOTO_WIDTH}" height="40" fill="#4f8fbf"/>`);
  for (let x = 0; x < PHOTO_WIDTH;) {
    const w = rng.int(50, 130);
    const h = rng.int(kind === 'coast' ? 60 : 120, kind === 'coast' ? 200 : 340);
    const shade = rng.pick(['#8a96a3', '#9aa5b1', '#7d8894', '#a9b3bd']);
    const base = kind === 'coast' ? horizon - 40 : horizon;
    parts.push(`<rect x="${x}" y="${base - h}" width="${w}" height="${h}" fill="${shade}"/>`);
    for (let wy = base - h + 14; wy < base - 14; wy += 26) {
      parts.push(`<rect x="${x + 8}" y="${wy}" width="${w - 16}" height="8" fill="rgba(255,255,255,0.25)"/>`);
    }
    x += w + rng.int(4, 30);
  }
  if (kind === 'coast') {
    for (let x = 40; x < PHOTO_WIDTH; x += rng.int(160, 260)) {
      parts.push(`<line x1="${x}" y1="${horizon}" x2="${x + 8}" y2="${horizon - 150}" stroke="#5d4037" stroke-width="10"/>`);
      parts.push(`<ellipse cx="${x + 8}" cy="${horizon - 155}" rx="50" ry="16" fill="#2e7d32"/>`);
    }
  }
  return parts.join('');
}

function crowd(rng: Prng, y: number): string {
  const people: string[] = [];
  for (let x = 10; x < PHOTO_WIDTH; x += rng.int(26, 40)) {
    const h = rng.int(0, 20);
    people.push(`<circle cx="${x}" cy="${y - 56 - h}" r="12" fill="${rng.pick(SKIN_TONES)}"/>`);
    people.push(`<rect x="${x - 14}" y="${y - 44 - h}" width="28" height="${44 + h}" rx="8" fill="${rng.pick(SHIRT_COLOURS)}"/>`);
  }
  return `${people.join('')}<rect x="0" y="${y - 26}" width="${PHOTO_WIDTH}" height="30" fill="#eceff1" stroke="#90a4ae" stroke-width="3"/>`;
}

/**
 * A race background without the main runner: sky, skyline or hills, spectators behind barriers,
 * the road, a few distant runners and the event banner. Variant picks sky and layout.
 */
export function backgroundSvg(rng: Prng, eventName: string, eventCode: string, colour: string, kind: SceneKind, variant: number): string {
  const [skyTop, skyBottom] = SKIES[variant % SKIES.length];
  const horizon = 560;
  const roadTop = 640;
  const distant: string[] = [];
  for (let i = 0; i < rng.int(3, 6); i++) {
    const scale = rng.float(0.32, 0.5);
    const x = rng.int(80, PHOTO_WIDTH - 160);
    const y = roadTop - 120 + rng.int(0, 60);
    distant.push(`<g transform="translate(${x} ${y}) scale(${scale.toFixed(3)})">${runnerGroup(randomLook(rng), null, eventCode)}</g>`);
  }
  const bannerY = 70 + rng.int(0, 40);
  const kmMark = rng.pick(['FINISH', '21 KM', '10 KM', '5 KM', '42 KM']);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}" viewBox="0 0 ${PHOTO_WIDTH} ${PHOTO_HEIGHT}">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/></linearGradient>
  <linearGradient id="road" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6b6f73"/><stop offset="1" stop-color="#3f4347"/></linearGradient></defs>
  <rect width="${PHOTO_WIDTH}" height="${horizon}" fill="url(#sky)"/>
  <circle cx="${rng.int(200, 1400)}" cy="${rng.int(90, 200)}" r="46" fill="#fff6d5" opacity="0.85"/>
  ${skyline(rng, kind, horizon)}
  <rect x="0" y="${horizon}" width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT - horizon}" fill="${kind === 'hills' ? '#7a8b4f' : '#9e9e9e'}"/>
  ${crowd(rng, roadTop)}
  <path d="M0 ${PHOTO_HEIGHT} L380 ${roadTop} L1220 ${roadTop} L${PHOTO_WIDTH} ${PHOTO_HEIGHT} Z" fill="url(#road)"/>
  <path d="M800 ${roadTop} L800 ${PHOTO_HEIGHT}" stroke="#f5f5f5" stroke-width="10" stroke-dasharray="50 40"/>
  ${distant.join('')}
  <rect x="150" y="${bannerY}" width="22" height="${roadTop - bannerY}" fill="#37474f"/>
  <rect x="${PHOTO_WIDTH - 172}" y="${bannerY}" width="22" height="${roadTop - bannerY}" fill="#37474f"/>
  <rect x="150" y="${bannerY}" width="${PHOTO_WIDTH - 300}" height="110" rx="8" fill="${colour}" stroke="#fff" stroke-width="4"/>
  <text x="${PHOTO_WIDTH / 2}" y="${bannerY + 58}" font-family="${FONT}" font-size="46" font-weight="bold" fill="#fff" text-anchor="middle">${escapeXml(eventName.toUpperCase())}</text>
  <text x="${PHOTO_WIDTH / 2}" y="${bannerY + 96}" font-family="${FONT}" font-size="28" fill="#fff" text-anchor="middle" opacity="0.9">${kmMark}</text>
</svg>`;
}

export { watermarkSvg } from '../media/renditions';

export function logoSvg(eventCode: string, eventName: string, colour: string): string {
  const initials = eventCode.replace(/\d+$/, '');
  const year = eventName.match(/\d{4}/)?.[0] ?? '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
  <circle cx="128" cy="128" r="122" fill="${colour}" stroke="#fff" stroke-width="8"/>
  <path d="M40 170 Q128 120 216 170" stroke="#fff" stroke-width="8" fill="none" opacity="0.7"/>
  <text x="128" y="128" font-family="${FONT}" font-size="64" font-weight="bold" fill="#fff" text-anchor="middle">${escapeXml(initials)}</text>
  <text x="128" y="205" font-family="${FONT}" font-size="34" fill="#fff" text-anchor="middle">${year}</text>
</svg>`;
}

/** A light shade over the hero scene; the page draws its own headline over it, so the image has no text. */
export function heroShadeSvg(width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="rgba(0,0,0,0.35)"/></svg>`;
}

export function printProductSvg(slug: string, label: string, colour: string): string {
  const shapes: Record<string, string> = {
    magnet: `<rect x="80" y="90" width="240" height="170" rx="14" fill="#fff" stroke="#333" stroke-width="6"/><rect x="98" y="108" width="204" height="134" fill="${colour}"/>`,
    frame: `<rect x="70" y="50" width="260" height="260" fill="#6d4c41"/><rect x="95" y="75" width="210" height="210" fill="#fff"/><rect x="110" y="90" width="180" height="180" fill="${colour}"/>`,
    mug: `<rect x="110" y="80" width="160" height="200" rx="16" fill="#fafafa" stroke="#333" stroke-width="6"/><path d="M270 130 Q330 140 330 180 Q330 220 270 230" stroke="#333" stroke-width="14" fill="none"/><rect x="130" y="120" width="120" height="110" fill="${colour}"/>`,
    poster: `<rect x="60" y="80" width="280" height="215" fill="#fff" stroke="#333" stroke-width="4"/><rect x="74" y="94" width="252" height="187" fill="${colour}"/>`,
  };
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
  <rect width="400" height="400" fill="#f1f3f5"/>${shapes[slug] ?? ''}
  <text x="200" y="360" font-family="${FONT}" font-size="26" font-weight="bold" fill="#333" text-anchor="middle">${escapeXml(label)}</text>
</svg>`;
}
