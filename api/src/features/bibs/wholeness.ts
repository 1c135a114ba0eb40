import type { LineText, TextBox } from './ppocr';

/**
 * Whether a number read from a line is whole: the rules that keep a visible part of a BIB (a digit lost at
 * the frame's edge, under a hand, behind another runner, a narrow leading 1 dropped) from tagging a photo,
 * and the participant list's part in it. See docs/bib-reading.md, "Whole numbers".
 */

/** The size of the image lines were found in. */
export interface Frame {
  width: number;
  height: number;
}

const partsCache = new WeakMap<ReadonlySet<string>, Set<string>>();

/**
 * Whether `bib` is the beginning or the end of another participant's BIB (148 of 1486, 753 of 7531): then
 * reading it says nothing about which of them is in the photo until the number is known to be whole.
 */
export function partOfAnother(bib: string, participants: ReadonlySet<string>): boolean {
  let parts = partsCache.get(participants);
  if (!parts) {
    parts = new Set<string>();
    for (const p of participants) {
      for (let k = 2; k < p.length; k += 1) {
        parts.add(p.slice(0, k));
        parts.add(p.slice(p.length - k));
      }
    }
    partsCache.set(participants, parts);
  }
  return parts.has(bib);
}

/**
 * Whether a line reaches the frame's edge: its box grown by `along` line heights beyond each end and
 * `across` beyond each side is not inside the image. A number cut by the frame ends at the edge.
 */
export function touchesFrame(line: TextBox, frame: Frame, along: number, across: number): boolean {
  const halfW = line.width / 2 + along * line.height;
  const halfH = line.height / 2 + across * line.height;
  const cos = Math.cos(line.angle);
  const sin = Math.sin(line.angle);
  for (const [u, v] of [[-halfW, -halfH], [halfW, -halfH], [-halfW, halfH], [halfW, halfH]] as const) {
    const x = line.cx + u * cos - v * sin;
    const y = line.cy + u * sin + v * cos;
    if (x < 0 || y < 0 || x > frame.width || y > frame.height) return true;
  }
  return false;
}

/** Where a reading's characters lie once marks at its ends (a bib's edge read as -, a pin as .) are left off. */
export function coreSpan(chars: string[]): [number, number] {
  let start = 0;
  let end = chars.length;
  while (start < end && !/[A-Z0-9]/.test(chars[start]!)) start += 1;
  while (end > start && !/[A-Z0-9]/.test(chars[end - 1]!)) end -= 1;
  return [start, end];
}

/** Where `bib` stands in a reading's characters (after marks at its ends), or null. */
function spanOf(text: LineText, bib: string): [number, number] | null {
  const at = text.text.toUpperCase().indexOf(bib);
  return at < 0 ? null : [at, at + bib.length];
}

/**
 * Where the recogniser put the characters of `bib` in a cut (their CTC frames), in character pitches: the
 * room before the first character's centre and after the last one's (less the cut's `margin` beyond the
 * box, in line heights), and the widest step between two characters. `widthOverHeight` is the cut's width
 * over the line's height. Null when the frames are unknown.
 */
export function glyphRoom(text: LineText, bib: string, widthOverHeight: number, margin: number): { lead: number; trail: number; step: number } | null {
  const span = spanOf(text, bib);
  if (!span || !text.frames || !text.steps || bib.length < 2) return null;
  const perFrame = widthOverHeight / text.steps;
  const at = text.frames.slice(span[0], span[1]).map((f) => (f + 0.5) * perFrame);
  const pitch = (at.at(-1)! - at[0]!) / (at.length - 1);
  if (!(pitch > 0)) return null;
  let step = 0;
  for (let i = 1; i < at.length; i += 1) step = Math.max(step, (at[i]! - at[i - 1]!) / pitch);
  return { lead: (at[0]! - margin) / pitch, trail: (widthOverHeight - at.at(-1)! - margin) / pitch, step };
}

/**
 * Unread print at an end of the number or a gap inside it: more room than `endRoom` pitches before the
 * first or after the last character (something there the recogniser could not read: half a digit under a
 * hand), or a step of more than `gapRoom` pitches between two characters (a glyph missing).
 */
export function glyphGap(text: LineText, bib: string, widthOverHeight: number, margin: number, endRoom: number, gapRoom: number): string | null {
  const room = glyphRoom(text, bib, widthOverHeight, margin);
  if (!room) return null;
  if (room.lead > endRoom) return `room before ${room.lead.toFixed(2)}`;
  if (room.trail > endRoom) return `room after ${room.trail.toFixed(2)}`;
  if (room.step > gapRoom) return `gap ${room.step.toFixed(2)}`;
  return null;
}

/**
 * Whether a wider cut reads `bib` with one more character joined to it (no space): a narrow leading 1 the
 * first cuts left out, or a digit half under a hand. A character joined must be at least `sure`.
 */
export function readsLonger(wide: LineText, bib: string, sure: number): string | null {
  const text = wide.text.toUpperCase();
  for (let at = text.indexOf(bib); at >= 0; at = text.indexOf(bib, at + 1)) {
    const before = at > 0 ? text[at - 1]! : ' ';
    const after = at + bib.length < text.length ? text[at + bib.length]! : ' ';
    const beforeP = at > 0 ? wide.probs[at - 1]! : 0;
    const afterP = at + bib.length < text.length ? wide.probs[at + bib.length]! : 0;
    if (/[A-Z0-9]/.test(before) && beforeP >= sure) return `wider cut reads ${before}${bib}`;
    if (/[A-Z0-9]/.test(after) && afterP >= sure) return `wider cut reads ${bib}${after}`;
  }
  return null;
}

/**
 * The one participant a reading can be when exactly one of its characters is doubtful (below `doubt`, or
 * not a character the event prints) and every other is sure (each at least `minChar`, their mean at
 * least `minMean`): the participants of the same length that agree on every sure character. Null when
 * none or more than one do, or more than one character is doubtful.
 */
export function participantFor(
  text: LineText,
  participants: ReadonlySet<string>,
  whitelist: string,
  doubt: number,
  minChar: number,
  minMean: number,
): { bib: string; confidence: number; position: number } | null {
  const chars = [...text.text.toUpperCase()];
  const [start, end] = coreSpan(chars);
  const core = chars.slice(start, end);
  const probs = text.probs.slice(start, end);
  if (core.length < 2 || core.some((c) => /\s/.test(c))) return null;
  const doubtful = core.map((c, i) => probs[i]! < doubt || !whitelist.includes(c));
  const position = doubtful.indexOf(true);
  if (position < 0 || doubtful.lastIndexOf(true) !== position) return null;
  const sure = probs.filter((_, i) => i !== position);
  if (Math.min(...sure) < minChar || sure.reduce((a, b) => a + b, 0) / sure.length < minMean) return null;
  let match: string | null = null;
  for (const p of participants) {
    if (p.length !== core.length) continue;
    let same = true;
    for (let i = 0; i < core.length && same; i += 1) if (i !== position && p[i] !== core[i]) same = false;
    if (!same) continue;
    if (match !== null) return null; // two participants fit: the doubtful character decides, and it is doubtful
    match = p;
  }
  if (match === null) return null;
  return { bib: match, confidence: Math.round((sure.reduce((a, b) => a + b, 0) / sure.length) * 0.95 * 100) / 100, position };
}
