/**
 * The common BIB formats an organiser picks by example instead of writing a regular expression; the
 * expression stays available as the advanced choice. Each yields the anchored pattern the reader,
 * the search and the participants import check (null: any 1 to 12 letters and digits).
 */
export type BibFormatChoice = 'any' | 'digits' | 'prefixed' | 'advanced';

export const BIB_FORMAT_CHOICES: Array<{ value: BibFormatChoice; label: string }> = [
  { value: 'any', label: 'Any letters and digits' },
  { value: 'digits', label: 'Digits only, 1 to 5 (like 1486)' },
  { value: 'prefixed', label: 'Letters then digits, like TT20608' },
  { value: 'advanced', label: 'Advanced: a regular expression' },
];

export const DIGITS_ONLY_FORMAT = '^\\d{1,5}$';

/** "Letters then digits" from one real BIB of the race: TT20608 -> ^TT\d{5}$ (null when it is not letters then digits). */
export function prefixedFormatOf(example: string): string | null {
  const match = /^([A-Za-z]{1,6})(\d{1,8})$/.exec(example.trim());
  return match ? `^${match[1].toUpperCase()}\\d{${match[2].length}}$` : null;
}

/** Which choice a stored pattern reads as, and the example that makes it (for the prefixed choice). */
export function bibFormatChoiceOf(pattern: string | null | undefined): { choice: BibFormatChoice; example: string } {
  const p = pattern?.trim() ?? '';
  if (!p) return { choice: 'any', example: '' };
  if (p === DIGITS_ONLY_FORMAT) return { choice: 'digits', example: '' };
  const prefixed = /^\^([A-Z]{1,6})\\d\{(\d)\}\$$/.exec(p);
  if (prefixed) return { choice: 'prefixed', example: `${prefixed[1]}${'20608135'.slice(0, Number(prefixed[2]))}` };
  return { choice: 'advanced', example: '' };
}
