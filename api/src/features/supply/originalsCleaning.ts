import type { AppContext } from '../../context';
import { cleanOriginal } from '../../media/jpegMetadata';

/**
 * Originals stored before they were cleaned on arrival (migration 540 left them unstamped) still
 * carry the camera's metadata. Two ways clean them, both through cleanOriginal (lossless):
 * - the clean-originals job (jobs/backgroundJobs.ts) works through them in the background, oldest
 *   first, a batch at a time, until none is left;
 * - a download cleans the photos it is about to deliver first, if the job has not reached them,
 *   so no original leaves with its metadata meanwhile.
 * Photos still processing are left to the pipeline, which cleans (and may turn) them itself.
 */

interface UncleanedRow {
  [column: string]: unknown;
  id: number;
  original_key: string;
}

type CleanOutcome = 'rewritten' | 'clean' | 'missing' | 'unreadable';

/**
 * Cleans one stored original (rewritten only when something was removed) and stamps its row. An
 * original missing from storage, or not a JPEG either way can read, is left unstamped: the download
 * then reports the missing file as before, and the job logs it and tries again on its next run.
 * Storage errors (busy, unreachable) are thrown, as every storage call's are.
 */
async function cleanOne(ctx: AppContext, photo: UncleanedRow): Promise<CleanOutcome> {
  if (!(await ctx.storage.exists(photo.original_key))) return 'missing';
  const stored = await ctx.storage.getBuffer(photo.original_key);
  let clean: Buffer;
  try {
    clean = await cleanOriginal(stored);
  } catch {
    return 'unreadable';
  }
  const changed = !clean.equals(stored);
  if (changed) await ctx.storage.put(photo.original_key, clean, 'image/jpeg');
  await ctx.db.query('update photos set metadata_cleaned_at = now() where id = $1 and metadata_cleaned_at is null', [photo.id]);
  return changed ? 'rewritten' : 'clean';
}

/** Cleans the not yet cleaned originals among these photos (the download path calls this first), four at a time. */
export async function ensureOriginalsClean(ctx: AppContext, photoIds: number[], log: (message: string) => void = () => undefined): Promise<void> {
  if (photoIds.length === 0) return;
  const rows = await ctx.db.query<UncleanedRow>(
    `select id, original_key from photos where id = any($1::int[]) and kind = 'image' and metadata_cleaned_at is null order by id`,
    [photoIds],
  );
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      const outcome = await cleanOne(ctx, row);
      if (outcome === 'unreadable') log(`photo ${row.id} (${row.original_key}) could not be cleaned of metadata; delivered as stored`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, rows.length) }, worker));
}

export interface CleaningReport {
  checked: number;
  rewritten: number;
  failed: number;
  left: number;
}

/**
 * One run of the clean-originals job: batches of uncleaned originals until none is left or the
 * time budget is spent. A photo whose original cannot be read or cleaned is logged and skipped
 * (it stays unstamped: the next run tries again, and its download cleans or refuses it).
 */
export async function cleanStoredOriginals(
  ctx: AppContext,
  options: { batch?: number; budgetMs?: number; log?: (message: string) => void } = {},
): Promise<CleaningReport> {
  const batch = options.batch ?? 25;
  const until = Date.now() + (options.budgetMs ?? 240_000);
  const report: CleaningReport = { checked: 0, rewritten: 0, failed: 0, left: 0 };
  let after = 0;
  while (Date.now() < until) {
    const rows = await ctx.db.query<UncleanedRow>(
      `select id, original_key from photos
        where kind = 'image' and metadata_cleaned_at is null and status <> 'processing' and id > $1
        order by id limit $2`,
      [after, batch],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.id;
      report.checked += 1;
      try {
        const outcome = await cleanOne(ctx, row);
        if (outcome === 'rewritten') report.rewritten += 1;
        if (outcome === 'missing' || outcome === 'unreadable') {
          report.failed += 1;
          options.log?.(`clean originals: photo ${row.id} (${row.original_key}): ${outcome}`);
        }
      } catch (error) {
        report.failed += 1;
        options.log?.(`clean originals: photo ${row.id} (${row.original_key}): ${String(error)}`);
      }
    }
  }
  const [left] = await ctx.db.query<{ n: number }>(
    `select count(*)::int as n from photos where kind = 'image' and metadata_cleaned_at is null and status <> 'processing'`,
  );
  report.left = left?.n ?? 0;
  return report;
}
