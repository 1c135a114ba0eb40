/**
 * Out-of-sample quality of selfie search: `pnpm --filter @finishline/api bench:faces:quality`.
 *
 * The face set (../shared/data/faces: people x photos, outside the repository) is turned into event
 * photos in eight conditions (faceVariants.ts) and selfies. Leave-one-person-out cross-validation:
 * the match threshold is chosen on four people (their selfies against the photos with the fifth
 * person's faces removed) and measured on the fifth person's selfies against every photo; the five
 * folds give a mean and a spread. Recall and precision count photos, as the runner sees them.
 *
 * Part 1 runs the face engine directly (the code of the indexing worker and the selfie path). Part 2
 * runs the product's own paths (photos added, the indexing job, searchBySelfie), each fold with its
 * own threshold, on a clean PGlite database, on PGlite holding the demo seed (drawn runners) with the
 * photos added to the demo event, and on a PostgreSQL server when BENCH_DATABASE_URL is set.
 * BENCH_PARTS=1 runs part 1 only.
 */
import fs from 'node:fs';
import os from 'node:os';
import { faceDetector } from '../src/models/faces/detector';
import { FaceEngine } from '../src/models/faces/engine';
import { embeddingColumn } from '../src/features/faces/embeddingStore';
import { startFaceIndexer } from '../src/pipeline/faces';
import { chooseSelfieFace, searchBySelfie } from '../src/features/faces/selfieSearch';
import { AppError } from '../src/http/envelope';
import { seedDemo } from '../src/seed/seedDemo';
import { addEventPhoto, createSelfieEvent, FACES_DIR, loadFaceSet, renderSelfie, seededRandom, type FaceImage } from './faceScenes';
import { VARIANTS, variantScenes, type Variant, type VariantScene } from './faceVariants';
import { add, labelled, mean, precisionOf, recallOf, score, sd, tuneThreshold, zero, type Counts, type GalleryPhoto, type Query } from './faceMetrics';
import { runBench } from './benchSupport';
import { withFaceBenchContext } from './benchApp';

interface SelfieQuery extends Query {
  selfie: Buffer;
}

/** The threshold from the people other than `heldOut` (leave-one-person-out). */
function tune(queries: Query[], gallery: GalleryPhoto[], heldOut: string): number {
  const people = new Set(queries.map((q) => q.person).filter((p) => p !== heldOut));
  return tuneThreshold(queries, gallery, people);
}

const fmt = (xs: number[]) => `${mean(xs).toFixed(3)} ± ${sd(xs).toFixed(3)} (min ${Math.min(...xs).toFixed(3)})`;

async function main(): Promise<void> {
  const faceSet = loadFaceSet();
  if (!faceSet) {
    console.log(`face quality benchmark skipped: no face photos at ${FACES_DIR}`);
    return;
  }
  const people = [...new Set(faceSet.map((f) => f.person))];
  console.log(`face set: ${people.length} people, ${faceSet.length} photos; machine: ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
  const random = seededRandom(2027);
  const scenes: VariantScene[] = [];
  for (const variant of VARIANTS) scenes.push(...(await variantScenes(faceSet, variant, random)));

  // Part 1: the engine directly.
  const engine = await FaceEngine.load();
  const started = performance.now();
  const gallery: GalleryPhoto[] = [];
  for (const scene of scenes) gallery.push(labelled((await engine.analyse(scene.jpeg, 'index')).faces, scene));
  const queries: SelfieQuery[] = [];
  for (const face of faceSet as FaceImage[]) {
    const selfie = await renderSelfie(face.image, 'jpeg');
    try {
      queries.push({ person: face.person, file: face.file, selfie, descriptor: chooseSelfieFace(await engine.analyse(selfie, 'selfie')).descriptor });
    } catch (error) {
      queries.push({ person: face.person, file: face.file, selfie, descriptor: null, refusal: error instanceof Error ? error.message : String(error) });
    }
  }
  console.log(`analysed ${scenes.length} photos and ${queries.length} selfies in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const q of queries.filter((x) => x.refusal)) console.log(`  selfie ${q.file} refused: ${q.refusal}`);

  if (process.env.BENCH_DUMP) {
    const dump = {
      gallery: gallery.map((g) => ({ variant: g.scene.variant, name: g.scene.name, people: [...g.people], faces: g.faces })),
      queries: queries.map((q) => ({ person: q.person, file: q.file, descriptor: q.descriptor })),
    };
    fs.writeFileSync(process.env.BENCH_DUMP, JSON.stringify(dump));
  }
  console.log('\nfaces found and kept by the indexing gate, per condition:');
  for (const variant of VARIANTS) {
    const photos = gallery.filter((g) => g.scene.variant === variant);
    const pasted = photos.reduce((s, g) => s + g.scene.faces.length, 0);
    const found = new Set(photos.flatMap((g) => g.faces.filter((f) => f.person).map((f) => `${g.scene.name}/${f.person}`))).size;
    const stray = photos.reduce((s, g) => s + g.faces.filter((f) => !f.person).length, 0);
    console.log(`  ${variant.padEnd(10)} ${found}/${pasted} faces${stray ? `, ${stray} stray detections` : ''}`);
  }

  // Leave-one-person-out: tune on the whole gallery without the held-out person's faces and queries.
  const thresholds = new Map<string, number>();
  for (const person of people)
    thresholds.set(
      person,
      tune(
        queries.filter((q) => q.person !== person),
        gallery,
        person,
      ),
    );
  console.log(`\nthresholds chosen per fold: ${people.map((p) => `${p} ${thresholds.get(p)!.toFixed(3)}`).join(', ')}`);
  console.log(`threshold tuned the same way on all ${people.length} people (the one deployed: MATCH_THRESHOLD): ${tune(queries, gallery, '').toFixed(3)}`);

  const report = (label: string, photos: GalleryPhoto[]) => {
    const recalls: number[] = [];
    const precisions: number[] = [];
    let pooled = zero();
    for (const person of people) {
      const c = score(
        queries.filter((q) => q.person === person),
        photos,
        thresholds.get(person)!,
      );
      recalls.push(recallOf(c));
      precisions.push(precisionOf(c));
      pooled = add(pooled, c);
    }
    console.log(
      `  ${label.padEnd(18)} recall ${fmt(recalls)}  precision ${fmt(precisions)}  pooled ${recallOf(pooled).toFixed(3)} / ${precisionOf(pooled).toFixed(3)} (${pooled.tp} right, ${pooled.fp} wrong, ${pooled.fn} missed)`,
    );
  };
  console.log('\nout-of-sample (held-out person, per fold mean ± sd (min); pooled):');
  for (const variant of VARIANTS)
    report(
      variant,
      gallery.filter((g) => g.scene.variant === variant),
    );
  report('all conditions', gallery);
  report(
    'clean+several',
    gallery.filter((g) => g.scene.variant === 'clean'),
  );

  if (process.env.BENCH_PARTS === '1') return;

  // Part 2: the product's paths on real databases, each fold with its own threshold.
  const productScenes = scenes.filter((s) => (['clean', 'crowd'] as Variant[]).includes(s.variant));
  const targets: Array<{ label: string; url: string | null; demo: boolean }> = [
    { label: 'PGlite, clean database', url: null, demo: false },
    { label: 'PGlite, demo deployment (seed + these photos in its event)', url: null, demo: true },
  ];
  if (process.env.BENCH_DATABASE_URL) targets.push({ label: 'PostgreSQL server, clean database', url: process.env.BENCH_DATABASE_URL, demo: false });
  for (const target of targets) await productRun(target, productScenes, queries, thresholds);
}

async function productRun(
  target: { label: string; url: string | null; demo: boolean },
  scenes: VariantScene[],
  queries: SelfieQuery[],
  thresholds: Map<string, number>,
): Promise<void> {
  await withFaceBenchContext(target.url, async (ctx, db) => {
    let eventId: number;
    if (target.demo) {
      await seedDemo(ctx, { photos: 'small' });
      eventId = (await db.query<{ id: number }>(`select id from events where name = 'Mumbai Coastal Marathon 2026'`))[0]!.id;
    } else eventId = await createSelfieEvent(db, 'Face Quality Run 2026');
    const truth = new Map<number, Set<string>>();
    for (const scene of scenes)
      truth.set(await addEventPhoto(db, ctx.storage, eventId, `FQ-${scene.name}`, scene.jpeg), new Set(scene.faces.map((f) => f.person)));
    const started = performance.now();
    const indexer = startFaceIndexer({ db, storage: ctx.storage });
    await indexer.whenIdle();
    await indexer.stop();
    const [stats] = await db.query<{ photos: number; faces: number; all_faces: number }>(
      `select (select count(*)::int from face_index_jobs where status = 'done') as photos,
              (select count(*)::int from photo_faces where event_id = $1) as faces,
              (select count(*)::int from photo_faces) as all_faces`,
      [eventId],
    );
    console.log(
      `\n${target.label} (${(await embeddingColumn(db)) === 'vector' ? 'pgvector' : 'real[]'}): indexed ${stats!.photos} photos in ${((performance.now() - started) / 1000).toFixed(0)} s; ${stats!.faces} faces in the event, ${stats!.all_faces} in the database`,
    );
    const counts = new Map<string, Counts>();
    for (const q of queries) {
      let found: number[] = [];
      try {
        const result = await searchBySelfie(
          ctx,
          faceDetector(),
          { eventID: eventId, selfieimg: q.selfie.toString('base64') },
          null,
          async () => undefined,
          thresholds.get(q.person)!,
        );
        found = result.photo.map((p) => p.id);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
      const c = counts.get(q.person) ?? zero();
      for (const [photoId, people] of truth) {
        const expected = people.has(q.person);
        const hit = found.includes(photoId);
        if (hit && expected) c.tp += 1;
        else if (hit) c.fp += 1;
        else if (expected) c.fn += 1;
      }
      // Any other photo of the event returned (a seed photo) is a wrong one too.
      c.fp += found.filter((id) => !truth.has(id)).length;
      counts.set(q.person, c);
    }
    const all = [...counts.values()];
    const pooled = all.reduce(add, zero());
    console.log(
      `  out-of-sample over ${scenes.length} photos (clean and crowd): recall ${fmt(all.map(recallOf))}, precision ${fmt(all.map(precisionOf))}; pooled ${recallOf(pooled).toFixed(3)} / ${precisionOf(pooled).toFixed(3)} (${pooled.tp} right, ${pooled.fp} wrong, ${pooled.fn} missed)`,
    );
  });
}

runBench(main);
