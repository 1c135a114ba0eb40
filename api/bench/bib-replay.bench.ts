/**
 * The BIB reader's decision replayed over recorded detections and readings:
 * `pnpm --filter @finishline/api bench:bibs:replay`.
 *
 * The detector (about 80 % of a read's CPU) runs once per photo; its lines and every view the
 * recogniser was asked for are stored next to the benchmark's photos (rec-<family>-<offset>.json in
 * the same cache folder), and `decide` runs over them. A view not recorded yet is read on demand (the
 * photo is decoded again, the detector is not run) and stored, so a change to the decision is measured
 * in seconds and a new view costs only its recognitions. The tally is bib-reader.bench.ts's; with
 * BIB_BENCH_VERBOSE=1 each missed BIB is listed with what happened to the lines that read something
 * like it (not found at all, misread, unsure, the views disagreeing, or which check refused it).
 *
 * Same env as bib-reader.bench.ts (BIB_BENCH_FAMILY, BIB_BENCH_PER_CASE, BIB_BENCH_SEED_OFFSET,
 * BIB_BENCH_VERBOSE); BIB_REPLAY_TUNING: JSON merged over the reader's tuning (to compare a change).
 * CPU per photo is not measured here: use bib-reader.bench.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bibRulesFor } from '../src/models/bibs';
import { createModelBibReader, decide, DEFAULT_MODEL_TUNING, type Look, type ModelTuning, type View } from '../src/models/bibs/modelReader';
import type { LineText, RgbImage, TextBox } from '../src/models/bibs/ppocr';
import { HARD_CASES, renderBibScene, tallyReading, type BibScene, type BibTally, type Family, type HardCase } from './bibScenes';

const SEED_BASE: Record<Family, number> = { tune: 1, heldout: 100_000 };
const SEED_OFFSET = Number(process.env.BIB_BENCH_SEED_OFFSET ?? 0);
const CACHE = path.join(os.tmpdir(), 'finishline-bib-bench-v4');

interface Recorded {
  lines: TextBox[];
  /** Line index, then the view's key: what the recogniser read. */
  reads: Record<number, Record<string, LineText>>;
}

const viewKey = (v: View) => `${v.name}:${v.alongMargin}:${v.acrossMargin}:${(v.turn ?? 0).toFixed(4)}`;

async function scene(family: Family, hardCase: HardCase, index: number): Promise<{ key: string; scene: BibScene }> {
  const seed = SEED_BASE[family] + SEED_OFFSET + index * 17 + HARD_CASES.indexOf(hardCase);
  const key = `${family}-${hardCase}-${seed}`;
  const base = path.join(CACHE, key);
  if (fs.existsSync(`${base}.json`)) {
    const meta = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8')) as Omit<BibScene, 'image'>;
    return { key, scene: { ...meta, image: fs.readFileSync(`${base}.jpg`) } };
  }
  const made = await renderBibScene(family, hardCase, seed);
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(`${base}.jpg`, made.image);
  const { image: _image, ...meta } = made;
  fs.writeFileSync(`${base}.json`, JSON.stringify(meta));
  return { key, scene: made };
}

const levenshtein = (a: string, b: string): number => {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) d[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  return d[a.length]![b.length]!;
};

const family: Family = process.env.BIB_BENCH_FAMILY === 'tune' ? 'tune' : 'heldout';
const perCase = Number(process.env.BIB_BENCH_PER_CASE ?? 20);
const verbose = process.env.BIB_BENCH_VERBOSE === '1';
const tuning: ModelTuning = { ...DEFAULT_MODEL_TUNING, ...(JSON.parse(process.env.BIB_REPLAY_TUNING ?? '{}') as Partial<ModelTuning>) };
const recordFile = path.join(CACHE, `rec-${family}-${SEED_OFFSET}.json`);
const record: Record<string, Recorded> = fs.existsSync(recordFile) ? (JSON.parse(fs.readFileSync(recordFile, 'utf8')) as Record<string, Recorded>) : {};

const reader = await createModelBibReader(tuning);
let recognised = 0;
let detected = 0;
const tally = new Map<HardCase, BibTally>(HARD_CASES.map((c) => [c, { photos: 0, expected: 0, found: 0, tags: 0, wrong: 0 }]));
const causes = new Map<string, number>();
try {
  for (let i = 0; i < perCase; i += 1) {
    for (const hardCase of HARD_CASES) {
      const { key, scene: photo } = await scene(family, hardCase, i);
      let decoded: RgbImage | null = null;
      let rec = record[key];
      if (!rec) {
        const { photo: image, lines } = await reader.lines(photo.image);
        decoded = image;
        rec = { lines, reads: {} };
        record[key] = rec;
        detected += 1;
      }
      const recorded = rec;
      const look: Look = async (line, index, view) => {
        const k = viewKey(view);
        const reads = (recorded.reads[index] ??= {});
        if (!reads[k]) {
          decoded ??= await reader.photo(photo.image);
          reads[k] = await reader.look(decoded)(line, index, view);
          recognised += 1;
        }
        return reads[k];
      };
      const traces = new Map<number, string>();
      const readings = await decide(rec.lines, look, bibRulesFor(photo.pattern, photo.participants), tuning, (index, outcome) => traces.set(index, outcome));
      const { wrong, missed } = tallyReading(
        tally.get(hardCase)!,
        photo,
        readings.map((r) => r.bib),
      );
      if (!verbose || (wrong.length === 0 && missed.length === 0)) continue;
      console.log(
        `  ${family} ${hardCase} #${i} (${key}): drawn ${[...photo.bibs, ...photo.hidden.map((h) => `(${h})`)].join(' ')} read ${readings.map((r) => `${r.bib}@${r.confidence}`).join(' ') || '-'} pattern ${photo.pattern ?? 'default'}${photo.participants ? ' with list' : ''}`,
      );
      for (const bib of missed) {
        // The lines whose first view read something within two edits of the BIB, and what became of them.
        const near = [...traces.entries()]
          .map(([index, outcome]) => ({
            index,
            outcome,
            text: rec.reads[index]?.[viewKey({ name: 'first', alongMargin: 0.1, acrossMargin: 0.05 })]?.text ?? '',
          }))
          .filter((l) => l.text && levenshtein(l.text.replace(/[^A-Z0-9]/gi, '').toUpperCase(), bib) <= 2);
        const cause =
          near.length === 0
            ? 'not found (no line reads it)'
            : near
                .map((l) =>
                  l.outcome
                    .split(' ')
                    .slice(0, 2)
                    .join(' ')
                    .replace(/"[^"]*"/, ''),
                )
                .join(' | ');
        causes.set(cause.split(' | ')[0]!, (causes.get(cause.split(' | ')[0]!) ?? 0) + 1);
        console.log(
          `    missed ${bib}: ${near.length === 0 ? 'no line reads it' : near.map((l) => `line ${l.index} h ${rec.lines[l.index]!.height.toFixed(0)} angle ${((rec.lines[l.index]!.angle * 180) / Math.PI).toFixed(1)}: ${l.outcome}`).join('; ')}`,
        );
      }
      for (const bib of wrong) console.log(`    wrong ${bib}`);
    }
  }
} finally {
  await reader.close();
  fs.writeFileSync(recordFile, JSON.stringify(record));
}
const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(3));
console.log(`\n${family} offset ${SEED_OFFSET}, ${perCase} per case (replay; ${detected} photos detected, ${recognised} lines read now)`);
console.log('case       photos    BIBs   tags  wrong  precision  recall');
const total: BibTally = { photos: 0, expected: 0, found: 0, tags: 0, wrong: 0 };
for (const [label, t] of [...tally.entries(), ['overall', total] as const]) {
  if (label !== 'overall') for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += t[k];
  console.log(
    [
      label.padEnd(10),
      String(t.photos).padStart(6),
      String(t.expected).padStart(7),
      String(t.tags).padStart(6),
      String(t.wrong).padStart(6),
      ratio(t.tags - t.wrong, t.tags).padStart(10),
      ratio(t.found, t.expected).padStart(7),
    ].join(' '),
  );
}
if (verbose) console.log('first cause of each miss:', Object.fromEntries(causes));
