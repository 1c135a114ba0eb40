/**
 * BIB reader quality and cost: `pnpm --filter @finishline/api bench:bibs`.
 *
 * Reads generated 24-megapixel race photos with known BIBs (bibScenes.ts) in six conditions: plain,
 * rotated 10 to 20 degrees, motion blur, bib partly covered, small bibs, and two or three runners.
 * The reader was tuned on the "tune" family; the figures that count come from the "held-out" family,
 * made from other seeds, other fonts and other bib layouts.
 *
 * Precision counts tags: a tag is right when its BIB is drawn in the photo (a BIB with a digit hidden
 * under an arm counts as right when read whole, and wrong when read in part). Recall counts the BIBs
 * a person can read. CPU time is the process's user + system time spent in read(), all threads.
 *
 * BIB_BENCH_FAMILY=tune|heldout|both (default heldout), BIB_BENCH_PER_CASE (default 50, so 300
 * photos), BIB_BENCH_SEED_OFFSET (default 0; another number draws a fresh set of photos from the same
 * families), BIB_BENCH_VERBOSE=1 lists every miss and wrong tag. Generated photos are kept in the
 * system's temporary folder so a second run only reads (BIB_BENCH_GENERATE_ONLY=1 only makes them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBibReader, bibRulesFor } from '../src/features/bibs';
import { modelProcessStats } from '../src/workers/serialWorker';
import { procFigures } from './benchSupport';
import { HARD_CASES, renderBibScene, tallyReading, type BibScene, type BibTally, type Family, type HardCase } from './bibScenes';

// The reader's processes stay for the whole run: their CPU is read from /proc by pid (one let go when idle would lose its figures).
process.env.BIB_READER_IDLE_SECONDS ??= '0';

const SEED_BASE: Record<Family, number> = { tune: 1, heldout: 100_000 };
/** Another draw of photos from the same families: photos the reader was never adjusted on. */
const SEED_OFFSET = Number(process.env.BIB_BENCH_SEED_OFFSET ?? 0);
const CACHE = path.join(os.tmpdir(), 'finishline-bib-bench-v4');

async function scene(family: Family, hardCase: HardCase, index: number): Promise<BibScene> {
  const seed = SEED_BASE[family] + SEED_OFFSET + index * 17 + HARD_CASES.indexOf(hardCase);
  const base = path.join(CACHE, `${family}-${hardCase}-${seed}`);
  if (fs.existsSync(`${base}.json`)) {
    const meta = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8')) as Omit<BibScene, 'image'>;
    return { ...meta, image: fs.readFileSync(`${base}.jpg`) };
  }
  const made = await renderBibScene(family, hardCase, seed);
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(`${base}.jpg`, made.image);
  const { image: _image, ...meta } = made;
  fs.writeFileSync(`${base}.json`, JSON.stringify(meta));
  return made;
}

interface Tally extends BibTally {
  cpuMs: number;
}

const empty = (): Tally => ({ photos: 0, expected: 0, found: 0, tags: 0, wrong: 0, cpuMs: 0 });
const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(3));

function line(label: string, t: Tally): string {
  return [
    label.padEnd(10),
    String(t.photos).padStart(6),
    String(t.expected).padStart(8),
    String(t.tags).padStart(6),
    String(t.wrong).padStart(6),
    ratio(t.tags - t.wrong, t.tags).padStart(10),
    ratio(t.found, t.expected).padStart(8),
    (t.cpuMs / Math.max(1, t.photos) / 1000).toFixed(3).padStart(10),
  ].join(' ');
}

const modelPeaks: ReturnType<typeof modelProcessStats> = [];

/** CPU seconds used so far by the model processes (the reader's child), from /proc. */
function modelProcessCpu(): number {
  return modelProcessStats().reduce((sum, stats) => sum + (stats.pid === null ? 0 : (procFigures(stats.pid)?.cpu ?? 0)), 0);
}

async function run(family: Family, perCase: number, verbose: boolean): Promise<Tally> {
  const reader = process.env.BIB_BENCH_READER === 'tesseract' ? await createBibReader({ workers: 1, engine: 'tesseract' }) : await createBibReader();
  const byCase = new Map<HardCase, Tally>(HARD_CASES.map((c) => [c, empty()]));
  try {
    for (let i = 0; i < perCase; i += 1) {
      for (const hardCase of HARD_CASES) {
        const photo = await scene(family, hardCase, i);
        const rules = bibRulesFor(photo.pattern, photo.participants);
        const before = process.cpuUsage();
        const modelsBefore = modelProcessCpu();
        const readings = await reader.read(photo.image, rules);
        const used = process.cpuUsage(before);
        const t = byCase.get(hardCase)!;
        // The PP-OCR reader runs in a child process: its CPU counts with this process's.
        t.cpuMs += (used.user + used.system) / 1000 + (modelProcessCpu() - modelsBefore) * 1000;
        const { wrong, missed } = tallyReading(t, photo, readings.map((r) => r.bib));
        if (verbose && (wrong.length > 0 || missed.length > 0)) {
          console.log(`  ${family} ${hardCase} #${i}: drawn ${[...photo.bibs, ...photo.hidden.map((h) => `(${h})`)].join(' ')} read ${readings.map((r) => `${r.bib}@${r.confidence}`).join(' ') || '-'} pattern ${photo.pattern ?? 'default'}${photo.participants ? ' with list' : ''}`);
        }
      }
    }
  } finally {
    modelPeaks.push(...modelProcessStats()); // before close: a closed handle is no longer listed
    await reader.close();
  }
  const total = empty();
  console.log(`\n${family === 'heldout' ? 'HELD-OUT' : 'TUNING'} family (${perCase} photos per case, 24 MP JPEG)`);
  console.log('case       photos    BIBs   tags  wrong  precision  recall  CPU s/photo');
  for (const [hardCase, t] of byCase) {
    console.log(line(hardCase, t));
    for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += t[key];
  }
  console.log(line('overall', total));
  // Peak resident memory of this process (the reader, sharp's decoding and the photo buffers).
  const models = modelPeaks.map((stats) => `, ${stats.name} process ${(stats.peakRss / 1024 / 1024).toFixed(0)} MB`).join('');
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB${models}`);
  return total;
}

const family = process.env.BIB_BENCH_FAMILY ?? 'heldout';
const perCase = Number(process.env.BIB_BENCH_PER_CASE ?? 50);
const verbose = process.env.BIB_BENCH_VERBOSE === '1';
const families: Family[] = family === 'both' ? ['tune', 'heldout'] : [family === 'tune' ? 'tune' : 'heldout'];
if (process.env.BIB_BENCH_GENERATE_ONLY === '1') {
  // Fills the photo cache only (to generate while something else is measured).
  for (const f of families) for (let i = 0; i < perCase; i += 1) for (const c of HARD_CASES) await scene(f, c, i);
} else {
  for (const f of families) await run(f, perCase, verbose);
}
