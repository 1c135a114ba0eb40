/**
 * BIB reading: finds lines of text in a race photo and reads them with PaddleOCR's PP-OCRv4 models
 * (onnxruntime-node; the earlier tesseract.js reader behind engine 'tesseract'), keeping only readings
 * that fit the event's BIB format and, when the event has a participant list, name a real participant.
 * See docs/bib-reading.md.
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
  /** Releases the models (or stops the OCR workers) and frees their memory. */
  close(): Promise<void>;
}

export { createBibReader } from './reader';
export { defaultReaderProcesses } from './threadedReader';
export { bibRulesFor } from './rules';
