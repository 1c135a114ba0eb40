import type { Db } from '../../db/db';
import type { DetectedFace } from '../../models/faces/engine';
import { closestPhotos, eventFaces } from './eventFaces';

/**
 * Where face descriptors live. Migration 210 makes photo_faces.embedding a pgvector vector(128) when
 * the database has the extension, else real[]; every query here has a form for each.
 *
 * A match is decided by one number, the Euclidean distance between the selfie's descriptor and a
 * stored face's, against a fixed threshold: the answer for a selfie and a photo is the same whatever
 * else the event or the database holds.
 */
export type EmbeddingColumn = 'vector' | 'array';

const columnKinds = new WeakMap<Db, Promise<EmbeddingColumn>>();

export function embeddingColumn(db: Db): Promise<EmbeddingColumn> {
  let kind = columnKinds.get(db);
  if (!kind) {
    kind = db
      .query<{ type: string }>(
        `select format_type(atttypid, atttypmod) as type from pg_attribute
          where attrelid = 'photo_faces'::regclass and attname = 'embedding'`,
      )
      .then((rows) => (rows[0]?.type.startsWith('vector') ? 'vector' : 'array'));
    columnKinds.set(db, kind);
  }
  return kind;
}

const vectorLiteral = (v: readonly number[]) => `[${v.join(',')}]`;
const arrayLiteral = (v: readonly number[]) => `{${v.join(',')}}`;
const literal = (kind: EmbeddingColumn, v: readonly number[]) => (kind === 'vector' ? vectorLiteral(v) : arrayLiteral(v));
const cast = (kind: EmbeddingColumn) => (kind === 'vector' ? 'vector' : 'real[]');

/** SQL for the distance between `column` and the query parameter `param`, in either storage. */
function distanceSql(kind: EmbeddingColumn, column: string, param: string): string {
  return kind === 'vector'
    ? `(${column} <-> ${param}::vector)`
    : `(select sqrt(sum((u.e - u.q) * (u.e - u.q))) from unnest(${column}, ${param}::real[]) as u(e, q))`;
}

/** Does this face belong to a runner who asked to be left out of face search? */
export async function isOptedOut(db: Db, descriptor: readonly number[], threshold: number): Promise<boolean> {
  const kind = await embeddingColumn(db);
  const rows = await db.query(`select 1 from face_optouts where ${distanceSql(kind, 'embedding', '$1')} < $2 limit 1`, [literal(kind, descriptor), threshold]);
  return rows.length > 0;
}

/**
 * Stores the faces found in one photo, replacing earlier ones. Nothing is stored of a runner who
 * opted out of face search (an event whose face data the organiser deleted has no jobs left: see
 * eventFaceData.ts).
 */
export async function saveFacesOfPhoto(tx: Db, photoId: number, eventId: number, faces: DetectedFace[], threshold = MATCH_THRESHOLD): Promise<void> {
  const kind = await embeddingColumn(tx);
  await tx.query('delete from photo_faces where photo_id = $1', [photoId]);
  if (faces.length === 0) return;
  const kept: DetectedFace[] = [];
  for (const face of faces) if (!(await isOptedOut(tx, face.descriptor, threshold))) kept.push(face);
  if (kept.length === 0) return;
  const values: unknown[] = [photoId, eventId];
  const tuples = kept.map((face) => {
    values.push(arrayLiteral(face.box), face.score, literal(kind, face.descriptor), face.quality.size, face.quality.brightness, face.quality.sharpness);
    const n = values.length;
    return `($1, $2, $${n - 5}::real[], $${n - 4}, $${n - 3}::${cast(kind)}, $${n - 2}, $${n - 1}, $${n})`;
  });
  await tx.query(`insert into photo_faces (photo_id, event_id, box, score, embedding, size, brightness, sharpness) values ${tuples.join(', ')}`, values);
}

/**
 * Distance under which two descriptors are the same person. Chosen by the benchmark's rule
 * (api/bench/face-quality.bench.ts): 3 standard deviations below the mean distance between
 * different people's faces, here over all five people of the face set (0.562). In leave-one-person-out
 * cross-validation the same rule chose 0.52 to 0.61 and gave the out-of-sample figures in docs/faces.md.
 */
export const MATCH_THRESHOLD = 0.56;

export interface PhotoMatch {
  photoId: number;
  /** Distance of the photo's closest face to the selfie. */
  distance: number;
}

/** Photos of the event holding a face within `threshold` of the query, closest first (faces held in memory, eventFaces.ts). */
export async function matchPhotosInEvent(db: Db, eventId: number, query: readonly number[], threshold = MATCH_THRESHOLD): Promise<PhotoMatch[]> {
  const found = closestPhotos(await eventFaces(db, eventId), query, threshold);
  return [...found].map(([photoId, distance]) => ({ photoId, distance })).sort((a, b) => a.distance - b.distance);
}

/** The same answer computed by the database (an exact scan of the event's rows); the benchmark compares both. */
export async function matchPhotosInEventSql(db: Db, eventId: number, query: readonly number[], threshold = MATCH_THRESHOLD): Promise<PhotoMatch[]> {
  const kind = await embeddingColumn(db);
  const rows = await db.query<{ photo_id: number; distance: number }>(
    `select photo_id, min(d) as distance from (
       select photo_id, ${distanceSql(kind, 'embedding', '$2')} as d from photo_faces where event_id = $1) t
      where d < $3
      group by photo_id
      order by distance`,
    [eventId, literal(kind, query), threshold],
  );
  return rows.map((r) => ({ photoId: r.photo_id, distance: Number(r.distance) }));
}

/**
 * A runner's opt-out: their face's descriptor is kept (for this purpose only) and every stored face
 * of theirs is deleted, in every event. Returns how many stored faces were removed.
 */
export async function optOutOfFaceSearch(db: Db, userId: number, descriptor: readonly number[], threshold = MATCH_THRESHOLD): Promise<{ removed: number }> {
  const kind = await embeddingColumn(db);
  return db.transaction(async (tx) => {
    await tx.query(`insert into face_optouts (user_id, embedding) values ($1, $2::${cast(kind)})`, [userId, literal(kind, descriptor)]);
    const rows = await tx.query<{ n: number }>(
      `with gone as (delete from photo_faces where ${distanceSql(kind, 'embedding', '$1')} < $2 returning 1) select count(*)::int as n from gone`,
      [literal(kind, descriptor), threshold],
    );
    return { removed: rows[0]?.n ?? 0 };
  });
}

/** Withdraws a runner's opt-out (their face is matched again once photos are indexed anew). */
export async function withdrawOptOut(db: Db, userId: number): Promise<number> {
  const rows = await db.query<{ n: number }>('with gone as (delete from face_optouts where user_id = $1 returning 1) select count(*)::int as n from gone', [
    userId,
  ]);
  return rows[0]?.n ?? 0;
}

export async function hasOptedOut(db: Db, userId: number): Promise<boolean> {
  return (await db.query('select 1 from face_optouts where user_id = $1 limit 1', [userId])).length > 0;
}

/** Deletes every face found in the event's photos, in the caller's transaction; returns how many. */
export async function deleteFacesOfEvent(tx: Db, eventId: number): Promise<number> {
  const rows = await tx.query<{ n: number }>('with gone as (delete from photo_faces where event_id = $1 returning 1) select count(*)::int as n from gone', [
    eventId,
  ]);
  return rows[0]?.n ?? 0;
}
