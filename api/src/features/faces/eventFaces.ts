import type { Db } from '../../db/db';
import { FACE_DESCRIPTOR_LENGTH } from '@finishline/shared/pure';

/**
 * An event's faces held in this process's memory, for matching a selfie in a few milliseconds
 * whatever the database (PGlite or a PostgreSQL server, with or without pgvector): 100,000 faces are
 * 51 MB of descriptors and one pass over them. Each search asks the database two cheap questions (the
 * event's face version and its largest face id): new faces are fetched incrementally; a deleted or
 * changed face (re-indexing, an opt-out, the organiser deleting the event's face data) bumps the
 * version and the event is loaded again. Several API processes each keep their own copy, kept right
 * the same way. Past about a million faces per event, pgvector's HNSW index with iterative scans is
 * the way on (docs/faces.md).
 */

interface Held {
  version: number;
  maxId: number;
  count: number;
  photoIds: Int32Array;
  descriptors: Float32Array;
  usedAt: number;
}

/** Faces held across all events before the least recently searched events are dropped. */
export const MAX_HELD_FACES = 1_000_000;
const PAGE = 20_000;

const held = new WeakMap<Db, Map<number, Held>>();

function grow(entry: Held, needed: number): void {
  if (needed <= entry.photoIds.length) return;
  const capacity = Math.max(needed, entry.photoIds.length * 2, 1024);
  const ids = new Int32Array(capacity);
  ids.set(entry.photoIds.subarray(0, entry.count));
  const descriptors = new Float32Array(capacity * FACE_DESCRIPTOR_LENGTH);
  descriptors.set(entry.descriptors.subarray(0, entry.count * FACE_DESCRIPTOR_LENGTH));
  entry.photoIds = ids;
  entry.descriptors = descriptors;
}

function parseDescriptor(value: unknown): ArrayLike<number> {
  if (typeof value === 'string') return JSON.parse(value.startsWith('{') ? `[${value.slice(1, -1)}]` : value) as number[];
  return value as number[];
}

async function loadNewFaces(db: Db, eventId: number, entry: Held, upTo: number): Promise<void> {
  while (entry.maxId < upTo) {
    const rows = await db.query<{ id: string | number; photo_id: number; embedding: unknown }>(
      `select id, photo_id, embedding::real[] as embedding from photo_faces
        where event_id = $1 and id > $2 and id <= $3 order by id limit ${PAGE}`,
      [eventId, entry.maxId, upTo],
    );
    if (rows.length === 0) break;
    grow(entry, entry.count + rows.length);
    for (const row of rows) {
      const descriptor = parseDescriptor(row.embedding);
      entry.photoIds[entry.count] = row.photo_id;
      for (let i = 0; i < FACE_DESCRIPTOR_LENGTH; i += 1) entry.descriptors[entry.count * FACE_DESCRIPTOR_LENGTH + i] = Number(descriptor[i]);
      entry.count += 1;
    }
    entry.maxId = Number(rows[rows.length - 1]!.id);
  }
}

function evict(events: Map<number, Held>, keep: number): void {
  let total = [...events.values()].reduce((s, e) => s + e.count, 0);
  const oldestFirst = [...events.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt);
  for (const [eventId, entry] of oldestFirst) {
    if (total <= MAX_HELD_FACES) break;
    if (eventId === keep) continue;
    events.delete(eventId);
    total -= entry.count;
  }
}

/** The event's faces as they are in the database now. */
export async function eventFaces(db: Db, eventId: number): Promise<Pick<Held, 'count' | 'photoIds' | 'descriptors'>> {
  let events = held.get(db);
  if (!events) held.set(db, (events = new Map()));
  const [state] = await db.query<{ version: string | number; max_id: string | number }>(
    `select coalesce((select version from face_event_versions where event_id = $1), 0) as version,
            coalesce((select max(id) from photo_faces where event_id = $1), 0) as max_id`,
    [eventId],
  );
  const version = Number(state!.version);
  let entry = events.get(eventId);
  if (!entry || entry.version !== version) {
    entry = { version, maxId: 0, count: 0, photoIds: new Int32Array(0), descriptors: new Float32Array(0), usedAt: 0 };
    events.set(eventId, entry);
  }
  entry.usedAt = Date.now();
  await loadNewFaces(db, eventId, entry, Number(state!.max_id));
  evict(events, eventId);
  return entry;
}

/** Best (smallest) distance per photo among the event's faces closer than `threshold` to the query. */
export function closestPhotos(faces: Pick<Held, 'count' | 'photoIds' | 'descriptors'>, query: readonly number[], threshold: number): Map<number, number> {
  const limit = threshold * threshold;
  const q = Float32Array.from(query);
  const best = new Map<number, number>();
  const d = faces.descriptors;
  for (let f = 0, at = 0; f < faces.count; f += 1, at += FACE_DESCRIPTOR_LENGTH) {
    let sum = 0;
    for (let i = 0; i < FACE_DESCRIPTOR_LENGTH && sum < limit; i += 1) {
      const diff = d[at + i]! - q[i]!;
      sum += diff * diff;
    }
    if (sum < limit) {
      const photoId = faces.photoIds[f]!;
      const distance = Math.sqrt(sum);
      if (!(best.get(photoId)! <= distance)) best.set(photoId, distance);
    }
  }
  return best;
}
