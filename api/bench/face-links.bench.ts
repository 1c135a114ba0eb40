/**
 * Face and BIB together: `pnpm --filter @finishline/api bench:face-links`.
 *
 * Generated events where runners' bibs are hidden in some photos: does a search for a runner's BIB
 * find the photos of them whose bib is hidden (photosLinkedByFace, the code the BIB search runs),
 * and never another person's?
 *
 * Faces: the face set (../shared/data/faces, or FACES_DIR) pasted into race scenes in four conditions
 * (clean, heavy JPEG, a crowd of 40-80 px faces, sunglasses: faceVariants.ts; BENCH_CONDITIONS names
 * others), each scene analysed by the real face engine as the indexing job does; every face found
 * becomes one *appearance* of its person (its descriptor as the job would store it). Appearances
 * from each person's photos 1-3 make the tuning events, from photos 4-5 the held-out events.
 *
 * Events: PHOTOS photos, each showing one to three of the five people (a fresh appearance each
 * time); four people are runners with a BIB, which is read in a photo with probability BIB_SEEN
 * (hidden or unread otherwise); the fifth is a runner whose bib is never read (no search may find
 * them). Photos, tags and faces are stored through the product's save path in a PGlite database.
 * Counted per runner: the photos showing them with their bib not read (the truth), against the
 * photos the link adds. Tuning events (seeds 1-8) chose FACE_LINK; the held-out events (seeds
 * 101-108, other photos of the people) are measured with it and printed last.
 */
import fs from 'node:fs';
import { openDb, type Db } from '../src/db/db';
import { migrate } from '../src/db/migrate';
import { FaceEngine, type DetectedFace } from '../src/models/faces/engine';
import { saveFacesOfPhoto } from '../src/features/faces/embeddingStore';
import { FACE_LINK, photosLinkedByFace, type FaceLinkSettings } from '../src/features/faces/bibFaceLinks';
import { createSelfieEvent, FACES_DIR, loadFaceSet, seededRandom } from './faceScenes';
import { personAt, variantScenes, type Variant } from './faceVariants';
import { runBench } from './benchSupport';

const CONDITIONS: Variant[] = (process.env.BENCH_CONDITIONS?.split(',') as Variant[] | undefined) ?? ['clean', 'jpeg', 'crowd', 'sunglasses'];
/** Photos 1-3 of each person make the tuning events' appearances, photos 4-5 the held-out events'. */
const HELD_OUT_FILE = /[45]\.(png|jpe?g)$/i;
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 40);
const BIB_SEEN = 0.6;
const TUNING_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const HELD_OUT_SEEDS = [101, 102, 103, 104, 105, 106, 107, 108];

interface Appearance {
  person: string;
  variant: Variant;
  face: DetectedFace;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

const recall = (c: Counts) => (c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn));
const precision = (c: Counts) => (c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp));

/** One generated event: photos stored, and per runner the truth of their hidden-bib photos. */
async function buildEvent(db: Db, seed: number, pool: Map<string, Appearance[]>) {
  const random = seededRandom(seed);
  const people = [...pool.keys()];
  const unread = people[seed % people.length]!;
  const bibs = new Map(people.filter((p) => p !== unread).map((p, i) => [p, String(1000 + seed * 10 + i)]));
  const eventId = await createSelfieEvent(db, `Face link run ${seed}`);
  const hidden = new Map<string, Set<number>>([...bibs.keys()].map((p) => [p, new Set<number>()]));
  const tagged = new Map<string, number[]>([...bibs.keys()].map((p) => [p, []]));
  for (let n = 0; n < PHOTOS; n += 1) {
    const count = 1 + Math.floor(random() * 3);
    const shown = [...people].sort(() => random() - 0.5).slice(0, count);
    const [row] = await db.query<{ id: number }>(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height)
       values ($1, $2, 'image', 'o', 'p', 't', 960, 600) returning id`,
      [eventId, `FL-${seed}-${n}`],
    );
    const photoId = row!.id;
    const faces: DetectedFace[] = [];
    for (const person of shown) {
      const choices = pool.get(person)!;
      faces.push(choices[Math.floor(random() * choices.length)]!.face);
      const bib = bibs.get(person);
      if (!bib) continue;
      if (random() < BIB_SEEN) {
        await db.query(`insert into photo_bibs (photo_id, event_id, bib_number, source) values ($1, $2, $3, 'ocr')`, [photoId, eventId, bib]);
        tagged.get(person)!.push(photoId);
      } else hidden.get(person)!.add(photoId);
    }
    await saveFacesOfPhoto(db, photoId, eventId, faces);
  }
  return { eventId, bibs, hidden, tagged };
}

async function measure(db: Db, events: Array<Awaited<ReturnType<typeof buildEvent>>>, settings: FaceLinkSettings): Promise<Counts> {
  const counts: Counts = { tp: 0, fp: 0, fn: 0 };
  for (const event of events) {
    for (const [person, bib] of event.bibs) {
      const truth = event.hidden.get(person)!;
      const linked = new Set(await photosLinkedByFace(db, event.eventId, bib, event.tagged.get(person)!, settings));
      for (const id of linked) {
        if (truth.has(id)) counts.tp += 1;
        else counts.fp += 1;
      }
      for (const id of truth) if (!linked.has(id)) counts.fn += 1;
    }
  }
  return counts;
}

const row = (label: string, c: Counts) =>
  `${label.padEnd(52)} recall ${recall(c).toFixed(3)}  precision ${precision(c).toFixed(3)}  (found ${c.tp} of ${c.tp + c.fn} hidden-bib photos, ${c.fp} wrong)`;

async function appearances(faceSet: NonNullable<ReturnType<typeof loadFaceSet>>): Promise<Array<Map<string, Appearance[]>>> {
  const engine = await FaceEngine.load();
  // Two pools of appearances: the people's photos 1-3 for tuning events, 4-5 for held-out ones.
  const pools = [new Map<string, Appearance[]>(), new Map<string, Appearance[]>()];
  const random = seededRandom(500);
  for (const variant of CONDITIONS) {
    for (const scene of await variantScenes(faceSet, variant, random)) {
      for (const face of (await engine.analyse(scene.jpeg, 'index')).faces) {
        const pasted = personAt(face.box, scene.faces);
        if (!pasted) continue;
        const pool = pools[HELD_OUT_FILE.test(pasted.file) ? 1 : 0]!;
        const list = pool.get(pasted.person) ?? [];
        list.push({ person: pasted.person, variant, face });
        pool.set(pasted.person, list);
      }
    }
  }
  return pools;
}

runBench(async () => {
  const faceSet = loadFaceSet();
  if (!faceSet) {
    console.log(`The face set is not at ${FACES_DIR} (set FACES_DIR): nothing to measure.`);
    return;
  }
  const started = performance.now();
  // BENCH_APPEARANCES: a file keeping the engine's appearances between runs (read when present).
  const cache = process.env.BENCH_APPEARANCES;
  const pools =
    cache && fs.existsSync(cache)
      ? (JSON.parse(fs.readFileSync(cache, 'utf8')) as Array<Array<[string, Appearance[]]>>).map((p) => new Map(p))
      : await appearances(faceSet);
  if (cache && !fs.existsSync(cache)) fs.writeFileSync(cache, JSON.stringify(pools.map((p) => [...p.entries()])));
  console.log(
    `appearances (faces found by the engine in ${CONDITIONS.join(', ')} scenes): ${pools.map((pool) => [...pool.values()].reduce((s, l) => s + l.length, 0)).join(' and ')} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  const db = await openDb({ url: null, dataDir: null });
  try {
    await migrate(db);
    const tuning = [];
    for (const seed of TUNING_SEEDS) tuning.push(await buildEvent(db, seed, pools[0]!));
    const heldOut = [];
    for (const seed of HELD_OUT_SEEDS) heldOut.push(await buildEvent(db, seed, pools[1]!));
    console.log(
      `\n${TUNING_SEEDS.length} + ${HELD_OUT_SEEDS.length} events of ${PHOTOS} photos, 1-3 of 5 people each, bib read with probability ${BIB_SEEN}; one person per event never read.`,
    );

    console.log('\nTuning events: settings tried');
    for (const rivalShare of [0.7, 0.85, 1]) {
      for (const minCoverage of [0.4, 0.5, 0.6, 0.7]) {
        for (const anchorDistance of [0.45, 0.5, 0.55, 0.6]) {
          for (const linkDistance of [0.42, 0.46, 0.5]) {
            const label = `rival ${rivalShare}, cover ${minCoverage}, anchor ${anchorDistance}, link ${linkDistance}`;
            console.log(row(label, await measure(db, tuning, { anchorDistance, linkDistance, minCoverage, rivalShare })));
          }
        }
      }
    }
    const chosen = FACE_LINK;
    console.log(`\nChosen (FACE_LINK): rival ${chosen.rivalShare}, cover ${chosen.minCoverage}, anchor ${chosen.anchorDistance}, link ${chosen.linkDistance}`);
    console.log(row('tuning events', await measure(db, tuning, FACE_LINK)));
    if (process.env.BENCH_HELD_OUT !== 'false') console.log(row('HELD-OUT events (measured once)', await measure(db, heldOut, FACE_LINK)));
  } finally {
    await db.close();
  }
});
