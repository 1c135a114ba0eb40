/**
 * Selfie search on faces the tuning never saw: `pnpm --filter @finishline/api bench:faces:heldout`
 * (the successor of face-quality.bench.ts for the selfie's quality gates and the held-out figure).
 *
 * The face set (FACES_DIR: one folder of photos per person, outside the repository) is split once by
 * a frozen rule (selfieVariants.ts, splitPeople: people sorted by the SHA-256 of their folder name,
 * the first 40% held out). Everything chosen here is chosen on the tuning people only:
 *
 * 1. Selfies in good conditions (clean, dim, soft, compressed, off-centre) and bad ones (dark,
 *    overexposed, blurred, turned away, sunglasses, too far, two faces) go through the real selfie
 *    path (the face engine, then chooseSelfieFace with the shared gates). For each gate the
 *    benchmark prints, on the tuning people only, the range of the good selfies and of the bad ones
 *    of that condition, the midpoint between the worst good one and the mildest bad one, and the
 *    deployed constant. The rule: a deployed threshold lies in the gap between the two ranges, so no
 *    good tuning selfie is refused; where the ranges overlap (blur), below every good tuning selfie.
 * 2. On the held-out people: what each gate says to each condition, and how many good selfies it
 *    refuses (the false refusal rate).
 * 3. Matching: race photos in nine conditions hold all the people's faces. The match threshold is
 *    tuned on the tuning people's selfies against the tuning people's faces only (3 standard
 *    deviations below their mean different-person distance); recall and precision are then
 *    measured once on the held-out people's selfies against every photo, with the deployed
 *    MATCH_THRESHOLD.
 */
import fs from 'node:fs';
import os from 'node:os';
import {
  SELFIE_MAX_BRIGHTNESS,
  SELFIE_MAX_EYE_LIGHT,
  SELFIE_MAX_YAW,
  SELFIE_MESSAGES,
  SELFIE_MIN_BRIGHTNESS,
  SELFIE_MIN_FACE_PX,
  SELFIE_MIN_SHARPNESS,
  type SelfieHintQuality,
} from '@finishline/shared/pure';
import { FaceEngine, type ImageFaces } from '../src/models/faces/engine';
import { MATCH_THRESHOLD } from '../src/features/faces/embeddingStore';
import { chooseSelfieFace } from '../src/features/faces/selfieSearch';
import { AppError } from '../src/http/envelope';
import { FACES_DIR, loadFaceSet, seededRandom, type FaceImage } from './faceScenes';
import { TURNED, VARIANTS, variantScenes, type Variant, type VariantScene } from './faceVariants';
import { add, labelled, precisionOf, recallOf, score, tuneThreshold, zero, type GalleryPhoto, type Query } from './faceMetrics';
import { BAD_SELFIES, GOOD_SELFIES, splitPeople, variantSelfie, type SelfieVariant } from './selfieVariants';
import { runBench } from './benchSupport';

interface SelfieRecord {
  person: string;
  file: string;
  variant: SelfieVariant;
  found: ImageFaces;
  /** The searched face's descriptor, or null when the gates refused the selfie. */
  descriptor: number[] | null;
  /** The message the runner is shown when refused. */
  message: string | null;
}

/** The message each bad condition should get. */
const EXPECTED: Record<(typeof BAD_SELFIES)[number], string> = {
  dark: SELFIE_MESSAGES.tooDark,
  bright: SELFIE_MESSAGES.tooBright,
  blurred: SELFIE_MESSAGES.tooBlurred,
  turned: SELFIE_MESSAGES.turnedAway,
  sunglasses: SELFIE_MESSAGES.eyesCovered,
  far: SELFIE_MESSAGES.tooSmall,
  two: SELFIE_MESSAGES.severalFaces,
};

const SHORT = new Map<string, string>(Object.entries(SELFIE_MESSAGES).map(([key, text]) => [text, key]));

/** What was measured of a selfie's face: the one face found, else the weakly seen face or the middle. */
function measured(found: ImageFaces): SelfieHintQuality | null {
  if (found.faces.length === 1) return found.faces[0]!.quality;
  return found.faces.length === 0 ? (found.hint ?? null) : null;
}

interface Gate {
  name: string;
  variant: (typeof BAD_SELFIES)[number];
  value: (q: SelfieHintQuality) => number | undefined;
  /** Bad selfies lie below ('low') or above ('high') the threshold. */
  bad: 'low' | 'high';
  deployed: number;
}

const GATES: Gate[] = [
  { name: 'too dark (brightness)', variant: 'dark', value: (q) => q.brightness, bad: 'low', deployed: SELFIE_MIN_BRIGHTNESS },
  { name: 'too bright (brightness)', variant: 'bright', value: (q) => q.brightness, bad: 'high', deployed: SELFIE_MAX_BRIGHTNESS },
  { name: 'too far (face px)', variant: 'far', value: (q) => (q.yaw === undefined ? undefined : q.size), bad: 'low', deployed: SELFIE_MIN_FACE_PX },
  {
    name: 'blurred (sharpness)',
    variant: 'blurred',
    value: (q) => (q.yaw === undefined ? undefined : q.sharpness),
    bad: 'low',
    deployed: SELFIE_MIN_SHARPNESS,
  },
  { name: 'turned (|yaw|)', variant: 'turned', value: (q) => (q.yaw === undefined ? undefined : Math.abs(q.yaw)), bad: 'high', deployed: SELFIE_MAX_YAW },
  { name: 'sunglasses (eye light)', variant: 'sunglasses', value: (q) => q.eyeLight, bad: 'high', deployed: SELFIE_MAX_EYE_LIGHT },
];

const f3 = (x: number) => x.toFixed(3);

async function main(): Promise<void> {
  const faceSet = loadFaceSet();
  if (!faceSet) {
    console.log(`held-out face benchmark skipped: no face photos at ${FACES_DIR} (set FACES_DIR to a folder of one folder per person)`);
    return;
  }
  const { tuning, heldOut } = splitPeople(faceSet.map((f) => f.person));
  const tuningSet = new Set(tuning);
  console.log(`face set: ${faceSet.length} photos; tuning family: ${tuning.join(', ')}; held-out family: ${heldOut.join(', ')}`);
  console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
  const engine = await FaceEngine.load();
  const started = performance.now();

  // 1. Selfies through the real selfie path.
  const records: SelfieRecord[] = [];
  const byPerson = (person: string) => faceSet.filter((f) => f.person === person);
  for (const face of faceSet as FaceImage[]) {
    const family = tuningSet.has(face.person) ? tuning : heldOut;
    const partner = family.find((p) => p !== face.person) ?? face.person;
    const other = byPerson(partner)[0];
    let cleanYaw = 0;
    for (const variant of [...GOOD_SELFIES, ...BAD_SELFIES]) {
      const selfie = await variantSelfie(face, variant, { other, towards: cleanYaw >= 0 ? 'right' : 'left' });
      const found = await engine.analyse(selfie, 'selfie');
      if (variant === 'clean' && found.faces.length === 1) cleanYaw = found.faces[0]!.quality.yaw;
      let descriptor: number[] | null = null;
      let message: string | null = null;
      try {
        descriptor = chooseSelfieFace(found).descriptor;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        message = error.message;
      }
      records.push({ person: face.person, file: face.file, variant, found, descriptor, message });
    }
  }
  console.log(`analysed ${records.length} selfies in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  // 2. Thresholds by the rule, on the tuning people only.
  console.log('\ngate thresholds from the tuning people (halfway between the worst good selfie and the mildest bad one):');
  const tuningRecords = records.filter((r) => tuningSet.has(r.person));
  const goodVariants = new Set<SelfieVariant>(GOOD_SELFIES);
  for (const gate of GATES) {
    const values = (rs: SelfieRecord[]) =>
      rs
        .map((r) => measured(r.found))
        .filter((q): q is SelfieHintQuality => q !== null)
        .map(gate.value)
        .filter((v): v is number => v !== undefined);
    const good = values(tuningRecords.filter((r) => goodVariants.has(r.variant)));
    const bad = values(tuningRecords.filter((r) => r.variant === gate.variant));
    const worstGood = gate.bad === 'low' ? Math.min(...good) : Math.max(...good);
    const mildestBad = gate.bad === 'low' ? Math.max(...bad) : Math.min(...bad);
    const rule = (worstGood + mildestBad) / 2;
    const range = (xs: number[]) => (xs.length ? `${f3(Math.min(...xs))}-${f3(Math.max(...xs))} (${xs.length})` : 'none measured');
    console.log(
      `  ${gate.name.padEnd(24)} good ${range(good).padEnd(22)} ${gate.variant.padEnd(10)} ${range(bad).padEnd(22)} rule ${f3(rule)}  deployed ${gate.deployed}`,
    );
  }

  // 3. What the gates say, per family and condition.
  const verdicts = (family: string[], label: string) => {
    console.log(`\ngate verdicts, ${label} (${family.join(', ')}):`);
    let goodRefused = 0;
    let goodTotal = 0;
    for (const variant of [...GOOD_SELFIES, ...BAD_SELFIES]) {
      const rs = records.filter((r) => family.includes(r.person) && r.variant === variant);
      const accepted = rs.filter((r) => r.descriptor).length;
      const tally = new Map<string, number>();
      for (const r of rs) if (r.message) tally.set(SHORT.get(r.message) ?? r.message, (tally.get(SHORT.get(r.message) ?? r.message) ?? 0) + 1);
      const messages = [...tally].map(([k, n]) => `${k} ${n}`).join(', ');
      if (goodVariants.has(variant)) {
        goodRefused += rs.length - accepted;
        goodTotal += rs.length;
        console.log(
          `  good ${variant.padEnd(11)} ${rs.length} selfies: accepted ${accepted}, refused ${rs.length - accepted}${messages ? ` (${messages})` : ''}`,
        );
      } else {
        const right = rs.filter((r) => r.message === EXPECTED[variant as keyof typeof EXPECTED]).length;
        console.log(
          `  bad  ${variant.padEnd(11)} ${rs.length} selfies: told the right thing ${right}, accepted ${accepted}${messages ? ` (${messages})` : ''}`,
        );
      }
    }
    console.log(`  false refusal rate (good selfies refused): ${goodRefused}/${goodTotal} = ${f3(goodRefused / Math.max(1, goodTotal))}`);
  };
  verdicts(tuning, 'tuning people (in-sample)');
  verdicts(heldOut, 'HELD-OUT people');

  // 4. Matching on race photos holding everyone's faces.
  const random = seededRandom(2027);
  const scenes: VariantScene[] = [];
  const conditions: Variant[] = [...VARIANTS, TURNED];
  for (const variant of conditions) scenes.push(...(await variantScenes(faceSet, variant, random)));
  const gallery: GalleryPhoto[] = [];
  for (const scene of scenes) gallery.push(labelled((await engine.analyse(scene.jpeg, 'index')).faces, scene));
  console.log(`\nrace photos: ${scenes.length} in ${conditions.length} conditions, analysed by ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const asQuery = (r: SelfieRecord): Query => ({ person: r.person, file: r.file, descriptor: r.descriptor });
  const tuningQueries = tuningRecords.filter((r) => r.variant === 'clean').map(asQuery);
  const tuned = tuneThreshold(tuningQueries, gallery, tuningSet);
  console.log(`match threshold tuned on the tuning people only: ${f3(tuned)}; deployed MATCH_THRESHOLD ${MATCH_THRESHOLD}`);

  if (process.env.BENCH_DUMP) {
    const dump = {
      gallery: gallery.map((g) => ({ variant: g.scene.variant, people: [...g.people], faces: g.faces })),
      selfies: records.map(({ found, ...r }) => ({ ...r, faces: found.faces.length, quality: measured(found) })),
    };
    fs.writeFileSync(process.env.BENCH_DUMP, JSON.stringify(dump));
  }
  const report = (label: string, queries: Query[], threshold: number) => {
    console.log(`\n${label}: ${queries.length} selfies (${queries.filter((q) => q.descriptor).length} accepted by the gates), threshold ${f3(threshold)}`);
    let all = zero();
    let hard = zero();
    for (const variant of conditions) {
      const c = score(
        queries,
        gallery.filter((g) => g.scene.variant === variant),
        threshold,
      );
      all = add(all, c);
      if (['blur', 'dark', 'bright', 'sunglasses', 'cap', TURNED, 'crowd', 'jpeg'].includes(variant)) hard = add(hard, c);
      console.log(`  photos ${variant.padEnd(10)} recall ${f3(recallOf(c))} precision ${f3(precisionOf(c))} (${c.tp} right, ${c.fp} wrong, ${c.fn} missed)`);
    }
    console.log(`  hard conditions together  recall ${f3(recallOf(hard))} precision ${f3(precisionOf(hard))}`);
    console.log(
      `  ALL conditions            recall ${f3(recallOf(all))} precision ${f3(precisionOf(all))} (${all.tp} right, ${all.fp} wrong, ${all.fn} missed)`,
    );
  };
  const held = records.filter((r) => heldOut.includes(r.person));
  // Measured once, at the threshold tuned above and at the deployed one (the tuned value rounded).
  for (const threshold of [...new Set([tuned, MATCH_THRESHOLD])]) {
    report(
      'HELD-OUT, clean selfies (the selfie a runner sends once the gates are satisfied)',
      held.filter((r) => r.variant === 'clean').map(asQuery),
      threshold,
    );
    report('HELD-OUT, every good selfie (clean, dim, soft, compressed, off-centre)', held.filter((r) => goodVariants.has(r.variant)).map(asQuery), threshold);
    const slipped = held.filter((r) => !goodVariants.has(r.variant) && r.descriptor);
    if (slipped.length) report('HELD-OUT, bad selfies the gates let through', slipped.map(asQuery), threshold);
  }
}

runBench(main);
