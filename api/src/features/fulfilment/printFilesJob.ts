import type { AppContext } from '../../context';
import { officialTime, raceDate, renderCollage, renderPrintFile, type PrintFile } from '../../media/printFiles';
import { ObjectNotFoundError } from '../../storage/errors';
import { materialisePrintLines, type PrintLineRow } from './printLines';

/**
 * The print-files job: every queued line still pending gets its print-ready file made and stored
 * (`print-files/<order>/<line>.jpg`, private), or is held with the reason (an original missing or
 * too small, a product without a print size). A storage that does not answer leaves the line
 * pending for the next run; see preparePrintFiles for the order and the time budget.
 */
export const MISSING_ORIGINAL_REASON = 'An original photo of this line is missing from our storage.';
export const NO_PRINT_SIZE_REASON = 'This product has no print size: set it in the print catalogue.';
export const printFileKey = (orderRef: string, lineId: number) => `print-files/${orderRef}/${lineId}.jpg`;

interface PendingLine extends PrintLineRow {
  order_ref: string;
  buyer_name: string;
  bib_number: string;
  event_id: number;
  event_name: string;
  from_date: string | Date;
  course_map_key: string | null;
  product_name: string | null;
  print_width_in: string | number | null;
  print_height_in: string | number | null;
  participant_name: string | null;
  finish_time: string | null;
}

async function originals(ctx: AppContext, photoIds: number[]): Promise<Buffer[] | null> {
  const rows = await ctx.db.query<{ id: number; original_key: string }>('select id, original_key from photos where id = any($1::int[])', [photoIds]);
  const byId = new Map(rows.map((r) => [r.id, r.original_key]));
  const buffers: Buffer[] = [];
  for (const id of photoIds) {
    const key = byId.get(id);
    if (!key) return null;
    try {
      buffers.push(await ctx.storage.getBuffer(key));
    } catch (error) {
      if (error instanceof ObjectNotFoundError) return null;
      throw error;
    }
  }
  return buffers;
}

/** Thrown when an original cannot be read for a reason other than its absence (storage busy or down). */
class StorageUnavailable extends Error {}

async function fileOf(ctx: AppContext, line: PendingLine): Promise<PrintFile> {
  let photos: Buffer[] | null;
  try {
    photos = await originals(ctx, line.photo_ids);
  } catch (error) {
    throw new StorageUnavailable(String(error));
  }
  if (!photos || photos.length === 0) return { ok: false, reason: MISSING_ORIGINAL_REASON };
  if (line.kind === 'collage') {
    let courseMap: Buffer | null = null;
    if (line.course_map_key) courseMap = await ctx.storage.getBuffer(line.course_map_key).catch(() => null);
    return renderCollage({
      photos,
      orientation: line.orientation === 'Horizontal' ? 'Horizontal' : 'Vertical',
      eventName: line.event_name,
      eventDate: raceDate(line.from_date),
      runnerName: line.participant_name ?? line.buyer_name,
      officialTime: officialTime(line.finish_time),
      courseMap,
    });
  }
  const width = Number(line.print_width_in);
  const height = Number(line.print_height_in);
  if (!(width > 0 && height > 0)) return { ok: false, reason: NO_PRINT_SIZE_REASON };
  return renderPrintFile(photos[0]!, { widthIn: width, heightIn: height }, line.product_name ?? 'this print');
}

/** A render that failed this many times (the original unreadable as an image, say) is held, not tried forever. */
export const MAX_RENDER_ATTEMPTS = 3;
export const renderFailedReason = (error: string) =>
  `The print file could not be made (${error.slice(0, 200)}). Check the original with the photographer or refund the line.`;

export interface PrintFilesOptions {
  /** Lines fetched per round. */
  batch?: number;
  /** A run stops starting new lines after this long; the next run goes on (the queue is worked to its end otherwise). */
  budgetMs?: number;
  log?: (message: string) => void;
}

/**
 * One run of the print-files job: works the pending lines to the end of the queue (in rounds of a
 * few, lines never tried first, then oldest), or until its time budget is spent. A line whose storage
 * did not answer or whose render failed goes behind the others, so it never holds up the lines after
 * it; a render that fails MAX_RENDER_ATTEMPTS times holds the line with the reason.
 */
export async function preparePrintFiles(ctx: AppContext, options: PrintFilesOptions = {}): Promise<{ ready: number; held: number; left: number }> {
  await materialisePrintLines(ctx.db);
  const deadline = Date.now() + (options.budgetMs ?? 45_000);
  const tried: number[] = [];
  let ready = 0;
  let held = 0;
  let left = 0;
  while (Date.now() < deadline) {
    const lines = await ctx.db.query<PendingLine>(
      `select l.*, o.order_ref, o.name as buyer_name, o.bib_number, o.event_id, e.name as event_name, e.from_date, e.course_map_key,
              pp.name as product_name, pp.print_width_in, pp.print_height_in, p.name as participant_name, p.finish_time::text as finish_time
         from print_lines l
         join orders o on o.id = l.order_id
         join events e on e.id = o.event_id
         left join print_products pp on pp.id = l.print_product_id
         left join participants p on p.event_id = o.event_id and upper(p.bib_number) = upper(o.bib_number)
        where l.file_state = 'pending' and l.status = 'queued' and not (l.id = any($2::int[]))
        order by l.file_attempted_at nulls first, l.created_at, l.id
        limit $1`,
      [options.batch ?? 10, tried],
    );
    if (lines.length === 0) break;
    for (const line of lines) {
      tried.push(line.id);
      let file: PrintFile;
      try {
        file = await fileOf(ctx, line);
      } catch (error) {
        const storageDown = error instanceof StorageUnavailable;
        const message = error instanceof Error ? error.message : String(error);
        // Storage busy or down: the line waits for the next run without counting against it. A
        // failed render counts; after a few it is held for a person to look at.
        const rows = await ctx.db.query<{ file_state: string }>(
          `update print_lines
              set file_attempted_at = now(),
                  file_attempts = file_attempts + $2,
                  file_state = case when file_attempts + $2 >= $3 then 'held' else file_state end,
                  hold_reason = case when file_attempts + $2 >= $3 then $4 else hold_reason end
            where id = $1 and file_state = 'pending'
            returning file_state`,
          [line.id, storageDown ? 0 : 1, MAX_RENDER_ATTEMPTS, renderFailedReason(message)],
        );
        if (rows[0]?.file_state === 'held') held++;
        else left++;
        options.log?.(`print files: line ${line.id} ${rows[0]?.file_state === 'held' ? 'held' : 'left for later'}: ${message}`);
        continue;
      }
      if (!file.ok) {
        await ctx.db.query(`update print_lines set file_state = 'held', hold_reason = $2, file_attempted_at = now() where id = $1 and file_state = 'pending'`, [
          line.id,
          file.reason,
        ]);
        held++;
        continue;
      }
      const key = printFileKey(line.order_ref, line.id);
      try {
        await ctx.storage.put(key, file.file, 'image/jpeg');
      } catch (error) {
        await ctx.db.query('update print_lines set file_attempted_at = now() where id = $1', [line.id]);
        left++;
        options.log?.(`print files: line ${line.id} left for later: ${String(error)}`);
        continue;
      }
      await ctx.db.query(
        `update print_lines set file_state = 'ready', file_key = $2, file_width = $3, file_height = $4, file_dpi = $5, warning = $6, hold_reason = null, file_attempted_at = now()
          where id = $1 and file_state = 'pending'`,
        [line.id, key, file.width, file.height, file.dpi, file.warning],
      );
      ready++;
    }
  }
  return { ready, held, left };
}
