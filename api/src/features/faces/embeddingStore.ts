import type { Db } from '../../db/db';
import { EMBEDDING_SIZE, type DetectedFace } from './engine';

/**
 * Where face embeddings live. Migration 200 makes photo_faces.embedding a pgvector vector(1024) when
 * the server has the extension, else real[]; every query here has a form for each.
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

/** Stores the faces found in one photo, replacing earlier ones, and adds them to the population sum. */
export async function saveFacesOfPhoto(tx: Db, photoId: number, eventId: number, faces: DetectedFace[]): Promise<void> {
  const kind = await embeddingColumn(tx);
  await tx.query('delete from photo_faces where photo_id = $1', [photoId]);
  if (faces.length > 0) {
    const cast = kind === 'vector' ? 'vector' : 'real[]';
    const values: unknown[] = [photoId, eventId];
    const tuples = faces.map((face) => {
      values.push(arrayLiteral(face.box), face.score, kind === 'vector' ? vectorLiteral(face.embedding) : arrayLiteral(face.embedding));
      const n = values.length;
      return `($1, $2, $${n - 2}::real[], $${n - 1}, $${n}::${cast})`;
    });
    await tx.query(`insert into photo_faces (photo_id, event_id, box, score, embedding) values ${tuples.join(', ')}`, values);
  }
  if (faces.length > 0) await addToPopulation(tx, faces.map((f) => f.embedding));
}

async function addToPopulation(tx: Db, embeddings: number[][]): Promise<void> {
  const rows = await tx.query<{ face_count: number; embedding_sum: number[] }>(
    'select face_count, embedding_sum from face_embedding_stats where id = 1 for update',
  );
  const sum = rows[0]?.embedding_sum.map(Number) ?? new Array<number>(EMBEDDING_SIZE).fill(0);
  for (const e of embeddings) for (let i = 0; i < EMBEDDING_SIZE; i += 1) sum[i]! += e[i]!;
  const count = (rows[0]?.face_count ?? 0) + embeddings.length;
  await tx.query(
    `insert into face_embedding_stats (id, face_count, embedding_sum) values (1, $1, $2::double precision[])
     on conflict (id) do update set face_count = excluded.face_count, embedding_sum = excluded.embedding_sum`,
    [count, arrayLiteral(sum)],
  );
}

/** Mean of every stored embedding and how many faces it is made of. */
export async function populationMean(db: Db): Promise<{ mean: number[]; count: number }> {
  const rows = await db.query<{ face_count: number; embedding_sum: number[] }>('select face_count, embedding_sum from face_embedding_stats where id = 1');
  const row = rows[0];
  if (!row || row.face_count === 0) return { mean: new Array<number>(EMBEDDING_SIZE).fill(0), count: 0 };
  return { mean: row.embedding_sum.map((v) => Number(v) / row.face_count), count: Number(row.face_count) };
}

export interface PhotoMatch {
  photoId: number;
  similarity: number;
}

export interface MatchOptions {
  /** Centred cosine similarity from which a face counts as the same person. */
  threshold: number;
  /**
   * Below minFaces stored faces the mean says more about those few faces than about faces in
   * general, and centring would distort; matching then uses the plain cosine and rawThreshold.
   */
  smallPopulation?: { minFaces: number; rawThreshold: number };
  /**
   * Query expansion: the query is averaged with its best `top` faces in the event that reach
   * `minSimilarity`, then searched again. The person's own photos pull in their other photos taken
   * at other angles; a standard retrieval step, measured in docs/faces.md.
   */
  expansion?: { top: number; minSimilarity: number };
}

function unit(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0)) || 1;
  return vector.map((v) => v / norm);
}

/** Best faces of the event for a centred unit query, with their raw embeddings. */
async function bestFaces(db: Db, kind: EmbeddingColumn, eventId: number, mean: number[], unitQuery: number[], limit: number) {
  const rows =
    kind === 'vector'
      ? await db.query<{ similarity: number; embedding: string }>(
          // Rank by id first: turning every scanned vector into text would cost more than the scan.
          `select b.similarity, f.embedding::text as embedding
             from (select id, similarity from (
                     select id, 1 - ((embedding - $2::vector) <=> $3::vector) as similarity
                       from photo_faces where event_id = $1) t
                    where similarity <> 'NaN'::float8 order by similarity desc limit $4) b
             join photo_faces f on f.id = b.id
            order by b.similarity desc`,
          [eventId, vectorLiteral(mean), vectorLiteral(unitQuery), limit],
        )
      : await db.query<{ similarity: number; embedding: number[] }>(
          `select b.similarity, f.embedding
             from (select f.id, s.similarity
                     from photo_faces f
                     cross join lateral (
                       select sum((u.e - u.m) * u.q) / nullif(sqrt(sum((u.e - u.m) * (u.e - u.m))), 0) as similarity
                         from unnest(f.embedding, $2::real[], $3::real[]) as u(e, m, q)
                     ) s
                    where f.event_id = $1 and s.similarity <> 'NaN'::float8 order by s.similarity desc limit $4) b
             join photo_faces f on f.id = b.id
            order by b.similarity desc`,
          [eventId, arrayLiteral(mean), arrayLiteral(unitQuery), limit],
        );
  return rows.map((r) => ({
    similarity: Number(r.similarity),
    embedding: typeof r.embedding === 'string' ? (JSON.parse(r.embedding) as number[]) : r.embedding.map(Number),
  }));
}

/** Best similarity per photo of the event, for photos reaching threshold. */
async function photosAbove(db: Db, kind: EmbeddingColumn, eventId: number, mean: number[], unitQuery: number[], threshold: number): Promise<PhotoMatch[]> {
  const rows =
    kind === 'vector'
      ? await db.query<{ photo_id: number; similarity: number }>(
          `select photo_id, similarity from (
             select photo_id, max(1 - ((embedding - $2::vector) <=> $3::vector)) as similarity
               from photo_faces where event_id = $1
              group by photo_id) t
            where similarity >= $4 and similarity <> 'NaN'::float8`,
          [eventId, vectorLiteral(mean), vectorLiteral(unitQuery), threshold],
        )
      : await db.query<{ photo_id: number; similarity: number }>(
          `select photo_id, similarity from (
             select f.photo_id, max(s.similarity) as similarity
               from photo_faces f
               cross join lateral (
                 select sum((u.e - u.m) * u.q) / nullif(sqrt(sum((u.e - u.m) * (u.e - u.m))), 0) as similarity
                   from unnest(f.embedding, $2::real[], $3::real[]) as u(e, m, q)
               ) s
              where f.event_id = $1
              group by f.photo_id) t
            where similarity >= $4 and similarity <> 'NaN'::float8`,
          [eventId, arrayLiteral(mean), arrayLiteral(unitQuery), threshold],
        );
  return rows.map((r) => ({ photoId: r.photo_id, similarity: Number(r.similarity) })).sort((a, b) => b.similarity - a.similarity);
}

/**
 * Photos of the event holding a face of the query's person, best first. Similarity is the cosine
 * after centring (subtracting the population mean from both sides removes what all faces share).
 * The scan is exact over the event's faces (an event holds at most tens of thousands): an approximate
 * index would rank by the raw cosine across all events and lose matches to the event filter.
 */
export async function matchPhotosInEvent(db: Db, eventId: number, query: readonly number[], options: MatchOptions): Promise<PhotoMatch[]> {
  const kind = await embeddingColumn(db);
  const population = await populationMean(db);
  if (options.smallPopulation && population.count < options.smallPopulation.minFaces) {
    const zero = new Array<number>(query.length).fill(0);
    return photosAbove(db, kind, eventId, zero, unit([...query]), options.smallPopulation.rawThreshold);
  }
  const mean = population.mean;
  let unitQuery = unit(query.map((v, i) => v - mean[i]!));
  if (options.expansion) {
    const best = await bestFaces(db, kind, eventId, mean, unitQuery, options.expansion.top);
    const strong = best.filter((f) => f.similarity >= options.expansion!.minSimilarity);
    if (strong.length > 0) {
      const expanded = [...unitQuery];
      for (const face of strong) {
        const centred = unit(face.embedding.map((v, i) => v - mean[i]!));
        for (let i = 0; i < expanded.length; i += 1) expanded[i]! += centred[i]!;
      }
      unitQuery = unit(expanded);
    }
  }
  return photosAbove(db, kind, eventId, mean, unitQuery, options.threshold);
}
