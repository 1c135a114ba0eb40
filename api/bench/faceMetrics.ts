import { descriptorDistance } from '@finishline/shared/pure';
import type { DetectedFace } from '../src/models/faces/engine';
import { personAt, type VariantScene } from './faceVariants';

/** Counting photos found by selfies against the truth, shared by the face quality benchmarks. */
export interface GalleryPhoto {
  scene: VariantScene;
  /** People pasted into the photo (the truth), found or not. */
  people: Set<string>;
  faces: Array<{ descriptor: number[]; person: string | null }>;
}

export interface Query {
  person: string;
  file: string;
  /** null when the selfie was refused (no usable face): a miss for every photo of the person. */
  descriptor: number[] | null;
  refusal?: string;
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
export const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });
export const add = (a: Counts, b: Counts): Counts => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn });
export const recallOf = (c: Counts) => (c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn));
export const precisionOf = (c: Counts) => (c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp));
export const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
export const sd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

/** Photos the queries find at a threshold, counted against the truth. `exclude` drops a person's faces. */
export function score(queries: Query[], gallery: GalleryPhoto[], threshold: number, exclude: string | null = null): Counts {
  const counts = zero();
  for (const q of queries) {
    for (const photo of gallery) {
      const expected = photo.people.has(q.person);
      const found =
        q.descriptor !== null &&
        photo.faces.some((f) => (f.person === null || f.person !== exclude) && descriptorDistance(q.descriptor!, f.descriptor) < threshold);
      if (found && expected) counts.tp += 1;
      else if (found) counts.fp += 1;
      else if (expected) counts.fn += 1;
    }
  }
  return counts;
}

/**
 * The match threshold from some people only: their selfies against every face of another of these
 * people give the distribution of different-person distances; the threshold sits 3 standard
 * deviations below its mean (about one false match in 700 face pairs if it were normal).
 */
export function tuneThreshold(queries: Query[], gallery: GalleryPhoto[], people: ReadonlySet<string>): number {
  const distances: number[] = [];
  for (const q of queries) {
    if (!q.descriptor || !people.has(q.person)) continue;
    for (const photo of gallery)
      for (const f of photo.faces)
        if (f.person && people.has(f.person) && f.person !== q.person) distances.push(descriptorDistance(q.descriptor, f.descriptor));
  }
  return mean(distances) - 3 * sd(distances);
}

export function labelled(faces: DetectedFace[], scene: VariantScene): GalleryPhoto {
  return {
    scene,
    people: new Set(scene.faces.map((f) => f.person)),
    faces: faces.map((f) => ({ descriptor: f.descriptor, person: personAt(f.box, scene.faces)?.person ?? null })),
  };
}
