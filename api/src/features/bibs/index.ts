/**
 * BIB reading: finds rows of characters in a race photo and reads them with tesseract.js, keeping only
 * readings that fit the event's BIB format and, when the event has a participant list, name a real
 * participant. See docs/bib-reading.md.
 */

/** What a reading must satisfy. pattern null: the default format /^[A-Z0-9]{1,12}$/. */
export interface BibRules {
  pattern: RegExp | null;
  participants: ReadonlySet<string> | null;
}

/** One BIB seen in a photo: trimmed, upper case; confidence 0..1. */
export interface BibReading {
  bib: string;
  confidence: number;
}

export interface BibReader {
  /** Distinct BIBs in a JPEG or PNG (orientation already applied), best first. */
  read(image: Buffer, rules: BibRules): Promise<BibReading[]>;
  /** Stops the OCR workers and frees their memory. */
  close(): Promise<void>;
}

export { createBibReader } from './reader';
export { bibRulesFor } from './rules';
