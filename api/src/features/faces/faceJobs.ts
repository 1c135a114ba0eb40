import type { Db } from '../../db/db';
import type { FaceIndexStatus } from '@finishline/shared/pure';

/**
 * Which photos need their faces found: face_index_jobs holds one row per image photo of a
 * selfie-search event (status, attempts, error, faces found). Photos are found by a sweep, so any
 * code that adds photos (the demo seed, uploads) gets them indexed without calling in here;
 * queuePhotosForFaces() only hurries it. The indexing itself is the pipeline's (pipeline/faces.ts),
 * which listens here to start at once.
 */

const queuedListeners = new Set<() => void>();

/** Called whenever photos are queued for faces in this process (the pipeline's indexer wakes up). */
export function onFacesQueued(listener: () => void): () => void {
  queuedListeners.add(listener);
  return () => queuedListeners.delete(listener);
}

/** Queues image photos of selfie-search events that have no job yet; returns how many were queued. */
export async function sweepNewPhotos(db: Db): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with queued as (
       insert into face_index_jobs (photo_id, event_id)
       select p.id, p.event_id from photos p join events e on e.id = p.event_id
        where p.kind = 'image' and p.status = 'ready' and e.selfiesearch
          and not exists (select 1 from face_index_jobs j where j.photo_id = p.id)
       on conflict (photo_id) do nothing
       returning 1)
     select count(*)::int as n from queued`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Queues the given photos (again) for indexing, e.g. right after they were added or replaced; only
 * photos of selfie-search events (an event whose face data was deleted has selfie search off).
 */
export async function queuePhotosForFaces(db: Db, photoIds: number[]): Promise<void> {
  if (photoIds.length === 0) return;
  await db.query(
    `insert into face_index_jobs (photo_id, event_id, priority)
     select p.id, p.event_id, 1 from photos p join events e on e.id = p.event_id
      where p.id = any($1::int[]) and p.kind = 'image' and p.status = 'ready' and e.selfiesearch
     on conflict (photo_id) do update set status = 'pending', priority = 1, attempts = 0, error = null, claim_job = null, claim_retry = null, finished_at = null, queued_at = null`,
    [photoIds],
  );
  for (const listener of queuedListeners) listener();
}

export async function faceIndexStatus(db: Db, eventId: number | null): Promise<FaceIndexStatus> {
  const rows = await db.query<{ status: string; n: number; faces: number }>(
    `select status, count(*)::int as n, coalesce(sum(face_count), 0)::int as faces
       from face_index_jobs where ($1::int is null or event_id = $1) group by status`,
    [eventId],
  );
  const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  const total = rows.reduce((s, r) => s + r.n, 0);
  const done = count('done');
  const failed = count('failed');
  return {
    eventId,
    total,
    pending: count('pending'),
    running: count('running'),
    done,
    failed,
    faces: rows.reduce((s, r) => s + r.faces, 0),
    percent: total === 0 ? 100 : Math.floor(((done + failed) * 100) / total),
  };
}
