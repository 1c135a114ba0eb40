import { bibFormatRegExp } from '@finishline/shared/pure';
import type { BibRules } from './index';

/** BIBs of an event without a format of its own (the same default the organiser's form states). */
export const DEFAULT_BIB_PATTERN = /^[A-Z0-9]{1,12}$/i;

// At least two digits: a word with an O read as 0 (DEM0, G0) is not a BIB.
const DEFAULT_SHAPE = /^[A-Z]{0,3}\d{2,}$/;

/** Matches nothing: an unusable stored format tags no photo rather than every reading. */
const NOTHING = /(?!)/;

export function bibRulesFor(bibPattern: string | null, participants: Iterable<string> | null): BibRules {
  const pattern = bibPattern && bibPattern.trim() ? (bibFormatRegExp(bibPattern) ?? NOTHING) : null;
  const list = participants ? new Set([...participants].map((bib) => bib.trim().toUpperCase()).filter((bib) => bib.length > 0)) : null;
  return { pattern, participants: list };
}

/** Whether a reading (trimmed, upper case) may tag a photo of the event. */
export function allowed(bib: string, rules: BibRules): boolean {
  const pattern = rules.pattern ?? DEFAULT_BIB_PATTERN;
  pattern.lastIndex = 0; // a pattern built with the g or y flag keeps state between tests
  if (!pattern.test(bib)) return false;
  // Without a format of its own, a BIB is two or more digits after at most three letters (A123, TT1234): words,
  // distances (21K) and phrases (WATER500M) on bibs and banners are not.
  if (rules.pattern === null && !DEFAULT_SHAPE.test(bib)) return false;
  return rules.participants === null || rules.participants.has(bib);
}

const DIGITS = '0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The characters OCR may answer with. A format that can only hold digits (no letter, class escape
 * other than \d, dot or negated class in it) reads digits only: an O can then never stand for a 0.
 */
export function whitelistFor(rules: BibRules): string {
  const source = (rules.pattern ?? DEFAULT_BIB_PATTERN).source.replace(/\\d/g, '');
  const mayHoldLetters = /[A-Za-z.]|\[\^/.test(source);
  return mayHoldLetters ? DIGITS + LETTERS : DIGITS;
}
