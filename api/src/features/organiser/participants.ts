import { parse } from 'csv-parse/sync';
import { ValidationError } from 'yup';
import {
  DASHBOARD_PAGE_SIZE,
  matchesBibFormat,
  PARTICIPANT_ERRORS_SHOWN,
  PARTICIPANTS_MAX_ROWS,
  participantRowSchema,
  type ParticipantRow,
  type ParticipantRowError,
  type ParticipantsImportRefusal,
  type ParticipantsImportResult,
  type ParticipantsResult,
} from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { ensureFinisherCertificate } from '../certificates';
import { AppError, badRequest } from '../../http/envelope';
import { recordChange } from './events';

/**
 * The event's participants (or results) from a CSV file: BIB and name required, finish time, email and
 * phone optional, columns found by their header. Every row is checked first (the shared row schema,
 * the event's BIB format, no BIB twice); a file with any bad row is refused whole with each row's
 * error, and a good file replaces the event's participants in one transaction. The certificate builder
 * reads the names and finish times, the privacy check mails the emails, the BIB reader and the
 * pre-order mapping know the event's BIBs from here.
 */

type Column = 'bib_number' | 'name' | 'finish_time' | 'email' | 'phone';
const HEADER_NAMES: Record<Column, RegExp> = {
  bib_number: /^(bib|bib ?(no\.?|num|number|id)|bib_number|bibno)$/i,
  name: /^(name|full ?name|participant( name)?|runner( name)?|athlete( name)?)$/i,
  finish_time: /^(finish ?time|finish_time|time|net ?time|chip ?time|gun ?time|result)$/i,
  email: /^(e-?mail|email ?(id|address)?)$/i,
  phone: /^(phone|mobile|phone ?(no\.?|number)|mobile ?(no\.?|number))$/i,
};

export const MISSING_COLUMNS_MESSAGE = 'The file needs a header row with the columns BIB and Name (Finish time, Email and Phone are optional).';
export const UNREADABLE_CSV_MESSAGE = 'The file could not be read as CSV. Please save it as CSV (comma separated) and try again.';

const rowErrorsMessage = (count: number) =>
  `${count} ${count === 1 ? 'row has an error' : 'rows have errors'}. Nothing was imported: please correct ${count === 1 ? 'it' : 'them'} and import the file again.`;

function columnsOf(header: string[]): Partial<Record<Column, number>> {
  const found: Partial<Record<Column, number>> = {};
  header.forEach((title, index) => {
    const clean = title.trim().replace(/^\uFEFF/, '');
    for (const [column, pattern] of Object.entries(HEADER_NAMES) as Array<[Column, RegExp]>) {
      if (found[column] === undefined && pattern.test(clean)) found[column] = index;
    }
  });
  return found;
}

interface CheckedRow {
  bib_number: string;
  name: string;
  finish_time: string | null;
  email: string | null;
  phone: string | null;
}

/** Reads and checks the whole file; throws a 400 naming each bad row, or returns every row. */
export function checkParticipantsCsv(csv: string, bibPattern: string | null): CheckedRow[] {
  let records: string[][];
  try {
    records = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true, max_record_size: 10_000 }) as string[][];
  } catch (error) {
    const line =
      typeof error === 'object' && error !== null && typeof (error as { lines?: unknown }).lines === 'number' ? (error as { lines: number }).lines : null;
    throw badRequest(line ? `${UNREADABLE_CSV_MESSAGE} (The problem is near line ${line}.)` : UNREADABLE_CSV_MESSAGE);
  }
  const [header, ...data] = records;
  if (!header) throw badRequest('The file is empty. Please choose the CSV file of the participants.');
  const columns = columnsOf(header);
  if (columns.bib_number === undefined || columns.name === undefined) throw badRequest(MISSING_COLUMNS_MESSAGE);
  if (data.length === 0) throw badRequest('The file has no participants below its header row.');
  if (data.length > PARTICIPANTS_MAX_ROWS) throw badRequest(`A file holds at most ${PARTICIPANTS_MAX_ROWS} participants.`);

  const errors: ParticipantRowError[] = [];
  const rows: CheckedRow[] = [];
  const firstLineOf = new Map<string, number>();
  const cell = (record: string[], column: Column) => (columns[column] === undefined ? '' : (record[columns[column]!] ?? ''));
  data.forEach((record, index) => {
    const line = index + 2;
    try {
      const row = participantRowSchema.validateSync(
        {
          bib_number: cell(record, 'bib_number'),
          name: cell(record, 'name'),
          finish_time: cell(record, 'finish_time'),
          email: cell(record, 'email'),
          phone: cell(record, 'phone'),
        },
        { abortEarly: true, stripUnknown: true },
      );
      const bib = row.bib_number.toUpperCase();
      if (!matchesBibFormat(bibPattern, bib)) throw new ValidationError("the BIB does not match the event's BIB format");
      const first = firstLineOf.get(bib);
      if (first !== undefined) throw new ValidationError(`the BIB is already on line ${first}`);
      firstLineOf.set(bib, line);
      rows.push({
        bib_number: bib,
        name: row.name,
        finish_time: row.finish_time || null,
        email: row.email ? row.email.toLowerCase() : null,
        phone: row.phone || null,
      });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push({ line, message: `Line ${line}: ${error.errors[0] ?? error.message}.` });
    }
  });
  if (errors.length > 0) {
    const refusal: ParticipantsImportRefusal = { errorCount: errors.length, errors: errors.slice(0, PARTICIPANT_ERRORS_SHOWN) };
    throw new AppError(400, rowErrorsMessage(errors.length), refusal);
  }
  return rows;
}

/** Replaces the event's participants with the file's rows, all or nothing. */
export async function importParticipants(db: Db, eventId: number, csv: string, organiserId: number): Promise<ParticipantsImportResult> {
  const pattern = await db.query<{ bib_pattern: string | null }>('select bib_pattern from events where id = $1', [eventId]);
  const rows = checkParticipantsCsv(csv, pattern[0]?.bib_pattern ?? null);
  return db.transaction(async (tx) => {
    const removed = await tx.query<{ n: number }>(
      'with gone as (delete from participants where event_id = $1 returning 1) select count(*)::int as n from gone',
      [eventId],
    );
    const chunk = 5000;
    for (let start = 0; start < rows.length; start += chunk) {
      const part = rows.slice(start, start + chunk);
      await tx.query(
        `insert into participants (event_id, bib_number, name, email, phone, finish_time)
         select $1, b, n, e, p, f::interval from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as t(b, n, e, p, f)`,
        [eventId, part.map((r) => r.bib_number), part.map((r) => r.name), part.map((r) => r.email), part.map((r) => r.phone), part.map((r) => r.finish_time)],
      );
    }
    const replaced = removed[0]?.n ?? 0;
    // Results with official times give the race its finisher certificate, with no further step.
    await ensureFinisherCertificate(tx, eventId);
    await recordChange(tx, eventId, 'participants imported', replaced, rows.length, organiserId);
    return { imported: rows.length, replaced };
  });
}

/** One page (15 rows) of the event's participants, by BIB, filtered by BIB or name; or all of them (all). */
export async function participantsPage(db: Db, eventId: number, page: number, search: string, all = false): Promise<ParticipantsResult> {
  const like = `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  const rows = await db.query<ParticipantRow & { total: number; [k: string]: unknown }>(
    `select bib_number, name, email, phone, finish_time::text as finish_time, count(*) over ()::int as total
       from participants where event_id = $1 and ($2 = '' or bib_number ilike $3 or name ilike $3)
      order by bib_number limit $4 offset $5`,
    [eventId, search, like, all ? null : DASHBOARD_PAGE_SIZE, all ? 0 : (page - 1) * DASHBOARD_PAGE_SIZE],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && page > 1) {
    const counted = await db.query<{ n: number }>(
      `select count(*)::int as n from participants where event_id = $1 and ($2 = '' or bib_number ilike $3 or name ilike $3)`,
      [eventId, search, like],
    );
    total = counted[0]?.n ?? 0;
  }
  return { rows: rows.map(({ total: _t, ...r }) => r as ParticipantRow), total, page: all ? 1 : page };
}
