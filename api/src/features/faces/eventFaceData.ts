import type { Db } from '../../db/db';
import { deleteFacesOfEvent } from './embeddingStore';

/**
 * Deletes an event's face data on request (privacy law): every face embedding of its photos and every
 * indexing job, in one transaction that also turns selfie search off, so neither the sweep nor an
 * upload queues the event's photos again. The caller records who asked (the event's audit trail).
 * Turning selfie search on again later indexes the photos afresh.
 */
export async function deleteEventFaceData(tx: Db, eventId: number): Promise<{ faces: number; jobs: number }> {
  await tx.query('update events set selfiesearch = false, updated_at = now() where id = $1', [eventId]);
  // Jobs first: a photo being indexed right now holds its job row until its faces are saved, so
  // this waits for it, and the faces deleted next include them; a later save finds no job and stops.
  const jobs = await tx.query<{ n: number }>('with gone as (delete from face_index_jobs where event_id = $1 returning 1) select count(*)::int as n from gone', [
    eventId,
  ]);
  const faces = await deleteFacesOfEvent(tx, eventId);
  return { faces, jobs: jobs[0]?.n ?? 0 };
}
