import type { Db } from '../../db/db';

/** A builder run (certificate_runs): what one session searched, chose and uploaded for an achievement. */
export interface RunRow {
  [column: string]: unknown;
  id: number;
  achievement_id: number;
  pairs: Array<{ event_id: number; bib_number: string }>;
  participant_name: string;
  selected_photos: Record<string, number> | null;
  certificate_key: string | null;
}

export interface RunCaller {
  sessionId: number;
  userId: number | null;
}

const COLUMNS = 'id::int as id, achievement_id, pairs, participant_name, selected_photos, certificate_key';

export async function startRun(db: Db, caller: RunCaller, run: Pick<RunRow, 'achievement_id' | 'pairs' | 'participant_name'>): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `insert into certificate_runs (achievement_id, session_id, user_id, pairs, participant_name) values ($1, $2, $3, $4::jsonb, $5) returning id::int as id`,
    [run.achievement_id, caller.sessionId, caller.userId, JSON.stringify(run.pairs), run.participant_name],
  );
  return rows[0].id;
}

/** The session's latest run for the achievement; with `stage`, the latest that got that far. */
export async function latestRun(
  db: Db,
  sessionId: number,
  achievementId: number,
  stage: 'searched' | 'photos chosen' | 'uploaded' = 'searched',
): Promise<RunRow | null> {
  const condition = stage === 'uploaded' ? 'and certificate_key is not null' : stage === 'photos chosen' ? 'and selected_photos is not null' : '';
  const rows = await db.query<RunRow>(
    `select ${COLUMNS} from certificate_runs where session_id = $1 and achievement_id = $2 ${condition} order by id desc limit 1`,
    [sessionId, achievementId],
  );
  return rows[0] ?? null;
}

export async function chosePhotos(db: Db, runId: number, photos: Record<string, number>): Promise<void> {
  await db.query('update certificate_runs set selected_photos = $2::jsonb where id = $1', [runId, JSON.stringify(photos)]);
}

export async function uploaded(db: Db, runId: number, key: string, bytes: number): Promise<void> {
  await db.query('update certificate_runs set certificate_key = $2, certificate_bytes = $3, uploaded_at = now() where id = $1', [runId, key, bytes]);
}

export async function recordDownload(db: Db, runId: number, caller: RunCaller): Promise<number> {
  await db.query('insert into certificate_downloads (run_id, session_id, user_id) values ($1, $2, $3)', [runId, caller.sessionId, caller.userId]);
  const rows = await db.query<{ n: number }>('select count(*)::int as n from certificate_downloads where run_id = $1', [runId]);
  return rows[0].n;
}

/** The latest certificate this caller's session uploaded for the achievement with this event and BIB among its pairs. */
export async function uploadedCertificateOf(db: Db, sessionId: number, achievementId: number, eventId: number, bib: string): Promise<string | null> {
  const rows = await db.query<{ certificate_key: string }>(
    `select certificate_key from certificate_runs
      where session_id = $1 and achievement_id = $2 and certificate_key is not null
        and pairs @> $3::jsonb
      order by id desc limit 1`,
    [sessionId, achievementId, JSON.stringify([{ event_id: eventId, bib_number: bib }])],
  );
  return rows[0]?.certificate_key ?? null;
}
