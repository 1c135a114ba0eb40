/**
 * BIB reader quality and cost: `pnpm --filter @finishline/api bench:bibs`.
 *
 * Reads generated race photos with known BIBs (raceScenes.ts) in 14 conditions (plain, truncated,
 * narrow digits, JPEG 15-35, perspective, rotation, glare, defocus, low light, shadow, dark bibs, crowds,
 * small text, motion blur), half of them with a prefixed BIB format and half numeric. Every photo is
 * read twice from one detection: with the event's participant list and without it (the format alone).
 *
 * Precision counts tags: a tag is right when its BIB is drawn whole or in part in the photo and read
 * whole (a number cut by the frame or hidden in part counts as right only when read whole; its visible
 * part is a wrong tag). Recall counts the BIBs a person reads whole. The truncated condition's own
 * figure is its precision: the true answer there is "no tag" for the cut number.
 *
 * BIB_BENCH_FAMILY=tune|frozen (default tune; frozen is the held-out family, measured once at the end
 * of a piece of work, never while tuning: see docs/bib-reading.md), BIB_BENCH_PER_CONDITION (default
 * 40: 20 prefixed and 20 numeric), BIB_BENCH_CONDITIONS (a comma list, default all), BIB_BENCH_SHARDS
 * (default 1: processes reading in parallel), BIB_READER_TUNING (JSON merged over the reader's tuning,
 * to switch a cut off or on), BIB_BENCH_VERBOSE=1 lists every miss and wrong tag. Photos are kept in the
 * system's temporary folder, so a second run only reads them.
 *
 * CPU is the reading process's user + system time per photo (one detection and both decisions).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bibRulesFor, type BibRules } from '../src/models/bibs';
import { createModelBibReader, decide, DEFAULT_MODEL_TUNING, readWithSmallText, type Look, type ModelTuning, type Trace } from '../src/models/bibs/modelReader';
import type { LineText, RgbImage, TextBox } from '../src/models/bibs/ppocr';
import { groundBeyond, type Frame } from '../src/models/bibs/wholeness';
import { load } from './benchSupport';
import { CONDITIONS, FORMAT_KINDS, renderRaceScene, type Condition, type FormatKind, type RaceScene, type SceneFamily } from './raceScenes';

const CACHE = path.join(os.tmpdir(), 'finishline-bib-bench-v5');
const family: SceneFamily = process.env.BIB_BENCH_FAMILY === 'frozen' ? 'frozen' : 'tune';
const perCondition = Number(process.env.BIB_BENCH_PER_CONDITION ?? 40);
/** BIB_BENCH_FIRST_INDEX: the first photo index of each condition (a fresh draw of a family starts past the photos already read). */
const firstIndex = Number(process.env.BIB_BENCH_FIRST_INDEX ?? 0);
const conditions = (process.env.BIB_BENCH_CONDITIONS ? process.env.BIB_BENCH_CONDITIONS.split(',') : [...CONDITIONS]) as Condition[];
const shards = Math.max(1, Number(process.env.BIB_BENCH_SHARDS ?? 1));
const shard = process.env.BIB_BENCH_SHARD === undefined ? null : Number(process.env.BIB_BENCH_SHARD);
const verbose = process.env.BIB_BENCH_VERBOSE === '1';
/** BIB_BENCH_TRACE=1: every number accepted or refused as cut short, with where its characters stand. */
const tracing = process.env.BIB_BENCH_TRACE === '1';
/**
 * BIB_BENCH_REPLAY=1 (tuning only): each photo's detected lines and every look the recogniser gave are
 * stored beside it, and a later run decides over them (reading only looks not stored yet): a change to the
 * decision is measured without the detector. CPU is then not measured.
 */
const replay = process.env.BIB_BENCH_REPLAY === '1';

/** Looks at lines of the small-text detection are kept under their index plus this. */
const SMALL_TEXT_INDEX = 1000;

interface Recorded {
  lines: TextBox[];
  /** The small-text detection's lines, when the photo needed it. */
  larger?: TextBox[];
  frame: Frame;
  reads: Record<string, LineText>;
}

const tuning: ModelTuning = { ...DEFAULT_MODEL_TUNING, ...(JSON.parse(process.env.BIB_READER_TUNING ?? '{}') as Partial<ModelTuning>) };

async function scene(condition: Condition, index: number): Promise<RaceScene> {
  const base = path.join(CACHE, `${family}-${condition}-${index}`);
  if (fs.existsSync(`${base}.json`)) {
    const meta = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8')) as Omit<RaceScene, 'image'>;
    return { ...meta, image: fs.readFileSync(`${base}.jpg`) };
  }
  const made = await renderRaceScene(family, condition, index);
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(`${base}.jpg`, made.image);
  const { image: _image, ...meta } = made;
  fs.writeFileSync(`${base}.json`, JSON.stringify(meta));
  return made;
}

/** One photo's outcome, with the list and without it. */
interface PhotoResult {
  condition: Condition;
  index: number;
  formatKind: FormatKind;
  bibs: string[];
  hidden: string[];
  withList: string[];
  withoutList: string[];
  cpuMs: number;
  /** Whether the photo got the small-text detection (with or without the list). */
  smallText: boolean;
}

interface Tally {
  photos: number;
  expected: number;
  found: number;
  tags: number;
  wrong: number;
}

const empty = (): Tally => ({ photos: 0, expected: 0, found: 0, tags: 0, wrong: 0 });

function add(t: Tally, r: PhotoResult, tags: string[]): { wrong: string[]; missed: string[] } {
  const wrong = tags.filter((b) => !r.bibs.includes(b) && !r.hidden.includes(b));
  const missed = r.bibs.filter((b) => !tags.includes(b));
  t.photos += 1;
  t.expected += r.bibs.length;
  t.found += r.bibs.length - missed.length;
  t.tags += tags.length;
  t.wrong += wrong.length;
  return { wrong, missed };
}

const ratio = (a: number, b: number) => (b === 0 ? '  n/a' : (a / b).toFixed(3));
const cell = (t: Tally) =>
  `${ratio(t.tags - t.wrong, t.tags).padStart(6)} ${ratio(t.found, t.expected).padStart(6)} ${String(t.wrong).padStart(3)}/${String(t.tags).padEnd(4)}`;

async function readShard(index: number, count: number, out: string): Promise<void> {
  const reader = await createModelBibReader(tuning);
  const lines: string[] = [];
  try {
    for (let i = firstIndex; i < firstIndex + perCondition; i += 1) {
      for (const [c, condition] of conditions.entries()) {
        if ((i * conditions.length + c) % count !== index) continue;
        const photo = await scene(condition, i);
        const before = process.cpuUsage();
        const recordFile = path.join(CACHE, `${family}-${condition}-${i}.rec-${tuning.detSide}-${tuning.detectorContrast ? 'eq' : 'plain'}.json`);
        const recorded: Recorded | null = replay && fs.existsSync(recordFile) ? (JSON.parse(fs.readFileSync(recordFile, 'utf8')) as Recorded) : null;
        let decoded: RgbImage | null = null;
        let found: TextBox[];
        let frame: Frame;
        if (recorded) {
          found = recorded.lines;
          frame = { width: recorded.frame.width, height: recorded.frame.height };
        } else {
          const read = await reader.lines(photo.image);
          decoded = read.photo;
          found = read.lines;
          frame = { width: decoded.width, height: decoded.height };
        }
        const reads: Record<string, LineText> = recorded?.reads ?? {};
        frame.beyond = async (line, at) => {
          const key = `${at}:beyond-median:${tuning.groundReach}:${tuning.groundTolerance}`;
          decoded ??= reads[key] ? null : await reader.photo(photo.image);
          reads[key] ??= { text: '', probs: groundBeyond(decoded!, line, tuning.groundReach, tuning.groundTolerance) };
          return reads[key].probs as [number, number];
        };
        // Both decisions share the recogniser's looks at each line (and a replay reads only looks not yet recorded).
        const seen = new Map<string, Promise<LineText>>();
        const look: Look = (line, at, view) => {
          const key = `${at}:${view.name}:${view.alongMargin}:${view.acrossMargin}:${view.turn ?? 0}:${view.normalise ? 1 : 0}:${tuning.rectify ? 1 : 0}`;
          if (reads[key]) return Promise.resolve(reads[key]);
          let read = seen.get(key);
          if (!read) {
            read = (async () => {
              decoded ??= await reader.photo(photo.image);
              return (reads[key] = await reader.look(decoded)(line, at, view));
            })();
            seen.set(key, read);
          }
          return read;
        };
        const traces: { list: boolean; outcome: string }[] = [];
        const traceOf = (list: boolean): Trace | undefined => (tracing ? (_at, outcome) => traces.push({ list, outcome }) : undefined);
        // As ModelBibReader.read: a photo in which nothing was read gets the small-text detection.
        let larger: Promise<TextBox[]> | null = null;
        const second = (): Promise<TextBox[]> =>
          (larger ??= recorded?.larger
            ? Promise.resolve(recorded.larger)
            : (async () => reader.detect((decoded ??= await reader.photo(photo.image)), tuning.smallTextSide))());
        const largerLook: Look = (line, at, view) => look(line, SMALL_TEXT_INDEX + at, view);
        const largerFrame: Frame = { ...frame, beyond: (line, at) => frame.beyond!(line, SMALL_TEXT_INDEX + at) };
        const decideBoth = (rules: BibRules, list: boolean) =>
          readWithSmallText(tuning, frame, found, second, (set, isSecond) =>
            isSecond ? decide(set, largerLook, rules, tuning, traceOf(list), largerFrame) : decide(set, look, rules, tuning, traceOf(list), frame),
          );
        const withList = await decideBoth(bibRulesFor(photo.pattern, photo.participants), true);
        const withoutList = await decideBoth(bibRulesFor(photo.pattern, null), false);
        for (const t of traces) {
          // Each number accepted or refused as cut short, marked right (drawn whole), part (of a number cut or hidden) or other.
          const m = /^(accepted|cut short) ([A-Z0-9]+)/.exec(t.outcome);
          if (!m) continue;
          const bib = m[2]!;
          const kind = photo.bibs.includes(bib)
            ? 'RIGHT'
            : photo.hidden.includes(bib)
              ? 'HIDDEN-WHOLE'
              : [...photo.bibs, ...photo.hidden].some((b) => b.includes(bib))
                ? 'PART'
                : 'OTHER';
          console.log(`TRACE ${condition} #${i} ${t.list ? 'list' : 'none'} ${kind} ${t.outcome}`);
        }
        const used = process.cpuUsage(before);
        if (replay)
          fs.writeFileSync(
            recordFile,
            JSON.stringify({
              lines: found,
              ...(larger ? { larger: await larger } : {}),
              frame: { width: frame.width, height: frame.height },
              reads,
            } satisfies Recorded),
          );
        const result: PhotoResult = {
          condition,
          index: i,
          formatKind: photo.formatKind,
          bibs: photo.bibs,
          hidden: photo.hidden,
          withList: withList.map((r) => r.bib),
          withoutList: withoutList.map((r) => r.bib),
          cpuMs: recorded ? Number.NaN : (used.user + used.system) / 1000,
          smallText: larger !== null,
        };
        lines.push(JSON.stringify(result));
        if (verbose) {
          const wl = result.withList.filter((b) => !photo.bibs.includes(b) && !photo.hidden.includes(b));
          const wo = result.withoutList.filter((b) => !photo.bibs.includes(b) && !photo.hidden.includes(b));
          const ml = photo.bibs.filter((b) => !result.withList.includes(b));
          const mo = photo.bibs.filter((b) => !result.withoutList.includes(b));
          if (wl.length + wo.length + ml.length + mo.length > 0) {
            console.log(
              `  ${condition} #${i} ${photo.pattern}${photo.truncation ? ` (${photo.truncation})` : ''}: drawn ${[...photo.bibs, ...photo.hidden.map((h) => `(${h})`)].join(' ')}; list: ${result.withList.join(' ') || '-'}; no list: ${result.withoutList.join(' ') || '-'}`,
            );
          }
        }
      }
    }
  } finally {
    await reader.close();
  }
  fs.writeFileSync(out, lines.join('\n') + '\n');
}

function summarise(results: PhotoResult[]): void {
  const key = (c: string, f: FormatKind | 'all', l: 'list' | 'none') => `${c}|${f}|${l}`;
  const tallies = new Map<string, Tally>();
  const get = (k: string) => tallies.get(k) ?? (tallies.set(k, empty()), tallies.get(k)!);
  let cpu = 0;
  let timed = 0;
  for (const r of results) {
    if (Number.isFinite(r.cpuMs)) {
      cpu += r.cpuMs;
      timed += 1;
    }
    for (const list of ['list', 'none'] as const) {
      const tags = list === 'list' ? r.withList : r.withoutList;
      for (const c of [r.condition, 'overall']) for (const f of [r.formatKind, 'all'] as const) add(get(key(c, f, list)), r, tags);
    }
  }
  console.log(
    `\n${family === 'frozen' ? 'FROZEN HELD-OUT' : 'TUNING'} family: ${results.length} photos (${perCondition} per condition from index ${firstIndex}), load ${load()}`,
  );
  console.log('each cell: precision recall wrong/tags');
  const header = [
    'condition'.padEnd(12),
    ...FORMAT_KINDS.flatMap((f) => [`${f} list`.padEnd(21), `${f} no list`.padEnd(21)]),
    'all list'.padEnd(21),
    'all no list'.padEnd(21),
    'BIBs',
  ].join(' ');
  console.log(header);
  for (const c of [...conditions, 'overall']) {
    const cells = [...FORMAT_KINDS, 'all' as const].flatMap((f) => [cell(get(key(c, f, 'list'))), cell(get(key(c, f, 'none')))]);
    console.log([c.padEnd(12), ...cells.map((x) => x.padEnd(21)), String(get(key(c, 'all', 'list')).expected)].join(' '));
  }
  console.log(
    timed === 0
      ? 'CPU not measured (replayed from recorded detections)'
      : `CPU ${(cpu / timed / 1000).toFixed(3)} s a photo over ${timed} photos read afresh (one detection, both decisions, one thread)`,
  );
  console.log(`small-text detection (smallTextSide ${tuning.smallTextSide}) on ${results.filter((r) => r.smallText).length} of ${results.length} photos`);
  console.log(`tuning ${JSON.stringify(tuning)}`);
}

const out = process.env.BIB_BENCH_OUT ?? path.join(CACHE, `results-${family}-${process.pid}`);
fs.mkdirSync(CACHE, { recursive: true });
if (shard !== null) {
  await readShard(shard, shards, `${out}-${shard}.jsonl`);
} else {
  const started = Date.now();
  if (shards === 1) await readShard(0, 1, `${out}-0.jsonl`);
  else {
    const self = fileURLToPath(import.meta.url);
    await Promise.all(
      Array.from(
        { length: shards },
        (_, k) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', self], {
              env: { ...process.env, BIB_BENCH_SHARD: String(k), BIB_BENCH_OUT: out },
              stdio: 'inherit',
            });
            child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`shard ${k} exited ${code}`))));
          }),
      ),
    );
  }
  const files = Array.from({ length: shards }, (_, k) => `${out}-${k}.jsonl`);
  const results = files.flatMap((f) =>
    fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as PhotoResult),
  );
  for (const f of files) fs.rmSync(f, { force: true });
  summarise(results);
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
}
