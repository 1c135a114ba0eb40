import { bibFormatRegExp } from '../schemas/organiser';

/** The spec's example BIB, used when an event gives nothing better. */
export const SPEC_EXAMPLE_BIB = 'TT20608';

// The spec's example digits first, so a BIB shaped like TT20608 reads exactly as the spec's hint.
const EXAMPLE_DIGITS = '20608135792468013579';
const EXAMPLE_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * An example BIB that fits an event's BIB format (an anchored pattern such as ^TT\d{5}$), for the
 * search box's hint; null for a pattern too elaborate to read here (groups, alternatives).
 * Reads literal letters and digits, \d, [0-9], [A-Z], [A-Z0-9] and the quantifiers {n}, {n,m}, +, ?, *.
 */
export function bibExampleOf(pattern: string | null | undefined): string | null {
  if (!pattern || !pattern.trim()) return null;
  const source = pattern.trim().replace(/^\^/, '').replace(/\$$/, '');
  let example = '';
  let digits = 0;
  let letters = 0;
  let i = 0;
  while (i < source.length) {
    let make: () => string;
    const rest = source.slice(i);
    const klass = /^\[(A-Z|0-9|A-Z0-9|0-9A-Z|a-zA-Z|A-Za-z)\]/.exec(rest);
    if (rest.startsWith('\\d')) {
      make = () => EXAMPLE_DIGITS[digits++ % EXAMPLE_DIGITS.length];
      i += 2;
    } else if (klass) {
      make = klass[1] === '0-9' ? () => EXAMPLE_DIGITS[digits++ % EXAMPLE_DIGITS.length] : () => EXAMPLE_LETTERS[letters++ % EXAMPLE_LETTERS.length];
      i += klass[0].length;
    } else if (/^[A-Za-z0-9-]/.test(rest)) {
      const literal = rest[0].toUpperCase();
      make = () => literal;
      i += 1;
    } else {
      return null;
    }
    const quantifier = /^(\{(\d+)(,\d*)?\}|\+|\?|\*)/.exec(source.slice(i));
    // {n} and {n,m} give n characters; +, ? and * give one (the shortest example that reads well).
    let times = 1;
    if (quantifier) {
      i += quantifier[0].length;
      if (quantifier[2] !== undefined) times = Number(quantifier[2]);
    }
    for (let n = 0; n < times; n++) example += make();
  }
  const format = bibFormatRegExp(pattern);
  return example && format && format.test(example) ? example : null;
}

/** An example shaped like one of the event's BIBs: its letters kept, its digits replaced (no real BIB shown). */
export function bibExampleLike(bib: string | null | undefined): string | null {
  if (!bib || !bib.trim()) return null;
  let digits = 0;
  return bib
    .trim()
    .toUpperCase()
    .replace(/\d/g, () => EXAMPLE_DIGITS[digits++ % EXAMPLE_DIGITS.length]);
}

/** The BIB field's hint for an event: the spec's sentence with the event's own example. */
export function bibPlaceholderFor(example: string | null | undefined): string {
  return `Enter your BIB number (ex: ${example || SPEC_EXAMPLE_BIB})`;
}
