import { FACE_DESCRIPTOR_LENGTH } from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { closestPhotos, eventFaces } from './eventFaces';

/**
 * Face and BIB together: the photos of one runner are linked by face. A runner's face is learnt from
 * the photos tagged with their BIB, and a photo whose bib is hidden or unread, but which shows that
 * face, is found by a search for the BIB. Only sure links: a doubtful face is never linked.
 *
 * Which face in a BIB's photos is the runner's? A tagged photo often shows several runners. The
 * runner's face shows in nearly all of their BIB's photos (with a face), someone beside them in some:
 * the face with the largest *coverage* of those photos (faces within anchorDistance are one person)
 * is the runner's when it covers at least minCoverage, when no other face covers nearly as many
 * (rivalShare of it: a companion or a double makes it doubtful, and nothing is linked), and when the
 * tagged photos showing it carry this BIB more often than any other one BIB. A photo is linked when
 * one of its faces lies within linkDistance of one of the runner's faces: stricter than the selfie
 * search (0.56), since nobody chose to look. Set on the benchmark's tuning events (bench:face-links),
 * measured once on its held-out ones (docs/faces.md).
 */
export interface FaceLinkSettings {
  /** Faces this close are one person when deciding which face of a BIB's photos is the runner's. */
  anchorDistance: number;
  /** A photo's face this close to one of the runner's faces links the photo to their BIB. */
  linkDistance: number;
  /** Share of the BIB's photos (with a face) a face must show in to be the runner's. */
  minCoverage: number;
  /** Another face showing in this share of the runner's coverage (and in minCoverage) makes the runner's face doubtful. */
  rivalShare: number;
}

export const FACE_LINK: Readonly<FaceLinkSettings> = {
  anchorDistance: 0.55,
  linkDistance: 0.46,
  minCoverage: 0.6,
  rivalShare: 0.85,
};

interface Faces {
  count: number;
  photoIds: Int32Array;
  descriptors: Float32Array;
}

const descriptorAt = (faces: Faces, f: number) => Array.from(faces.descriptors.subarray(f * FACE_DESCRIPTOR_LENGTH, (f + 1) * FACE_DESCRIPTOR_LENGTH));

async function bibsOf(db: Db, eventId: number, photoIds: number[]): Promise<Map<number, string[]>> {
  const rows = await db.query<{ photo_id: number; bibs: string[] }>(
    `select photo_id, array_agg(bib_number) as bibs from photo_bibs where event_id = $1 and photo_id = any($2::int[]) group by photo_id`,
    [eventId, photoIds],
  );
  return new Map(rows.map((r) => [r.photo_id, r.bibs]));
}

/** The runner's faces (descriptors) among the faces of the photos tagged with bib; none when in doubt. */
async function anchorFaces(db: Db, eventId: number, bib: string, faces: Faces, tagged: Set<number>, settings: FaceLinkSettings): Promise<number[][]> {
  const candidates: number[] = [];
  const facesPerPhoto = new Map<number, number>();
  for (let f = 0; f < faces.count; f += 1) {
    const photoId = faces.photoIds[f]!;
    facesPerPhoto.set(photoId, (facesPerPhoto.get(photoId) ?? 0) + 1);
    if (tagged.has(photoId)) candidates.push(f);
  }
  if (candidates.length === 0) return [];
  const taggedWithFaces = new Set(candidates.map((f) => faces.photoIds[f]!));
  const neighbours = candidates.map((f) => [...closestPhotos(faces, descriptorAt(faces, f), settings.anchorDistance).keys()]);
  // Coverage: the share of the BIB's photos (with a face) that show this face. The runner shows in
  // nearly all of them; someone beside them in some.
  const coverage = neighbours.map((photos) => photos.filter((id) => taggedWithFaces.has(id)).length / taggedWithFaces.size);
  const order = candidates.map((_, i) => i).sort((a, b) => coverage[b]! - coverage[a]!);
  const best = order[0]!;
  const onlyFace = taggedWithFaces.size === 1 && facesPerPhoto.get(faces.photoIds[candidates[best]!]!) === 1;
  if (!onlyFace && (taggedWithFaces.size < 2 || coverage[best]! < settings.minCoverage)) return [];
  const sameAsBest = new Set(neighbours[best]!);
  const bestDescriptor = descriptorAt(faces, candidates[best]!);
  const isBest = (i: number) =>
    sameAsBest.has(faces.photoIds[candidates[i]!]!) &&
    closestPhotos(
      {
        count: 1,
        photoIds: Int32Array.of(0),
        descriptors: faces.descriptors.subarray(candidates[i]! * FACE_DESCRIPTOR_LENGTH, (candidates[i]! + 1) * FACE_DESCRIPTOR_LENGTH),
      },
      bestDescriptor,
      settings.anchorDistance,
    ).size > 0;
  // Another face nearly as common in the BIB's photos: a companion or a double, so nobody is sure.
  if (order.some((i) => !isBest(i) && coverage[i]! >= settings.minCoverage && coverage[i]! >= coverage[best]! * settings.rivalShare)) return [];
  // The runner's faces must also be theirs by the tags: more of the tagged photos showing them carry this BIB than any other.
  const bibs = await bibsOf(db, eventId, [...sameAsBest]);
  const votes = new Map<string, number>();
  for (const photoId of sameAsBest) for (const b of bibs.get(photoId) ?? []) votes.set(b, (votes.get(b) ?? 0) + 1);
  const mine = votes.get(bib) ?? 0;
  if ([...votes.entries()].some(([b, n]) => b !== bib && n >= mine)) return [];
  return order.filter(isBest).map((i) => descriptorAt(faces, candidates[i]!));
}

/**
 * Photos of the event not tagged with bib whose face is the runner's, as learnt from the photos
 * tagged with it (taggedPhotoIds); nearest first.
 */
export async function photosLinkedByFace(
  db: Db,
  eventId: number,
  bib: string,
  taggedPhotoIds: readonly number[],
  settings: FaceLinkSettings = FACE_LINK,
): Promise<number[]> {
  if (taggedPhotoIds.length === 0) return [];
  const faces = await eventFaces(db, eventId);
  const tagged = new Set(taggedPhotoIds);
  const anchors = await anchorFaces(db, eventId, bib, faces, tagged, settings);
  const best = new Map<number, number>();
  for (const anchor of anchors) {
    for (const [photoId, distance] of closestPhotos(faces, anchor, settings.linkDistance)) {
      if (tagged.has(photoId)) continue;
      if (!(best.get(photoId)! <= distance)) best.set(photoId, distance);
    }
  }
  return [...best.entries()].sort((a, b) => a[1] - b[1]).map(([photoId]) => photoId);
}

/**
 * The BIB a selfie's runner wears, from the photos the selfie found: the BIB most of its tagged
 * photos carry, when at least two carry it and no other BIB is as common; else none.
 */
export function runnerBibOf(matchedBibs: ReadonlyArray<readonly string[]>): string | null {
  const counts = new Map<string, number>();
  for (const bibs of matchedBibs) for (const b of new Set(bibs)) counts.set(b, (counts.get(b) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first || first[1] < 2 || (second && second[1] >= first[1])) return null;
  const taggedPhotos = matchedBibs.filter((bibs) => bibs.length > 0).length;
  return first[1] * 2 > taggedPhotos ? first[0] : null;
}
