-- Face indexing runs on the API's one job queue (pg-boss). face_index_jobs stays the per-photo record
-- of face indexing (status, attempts, error, faces found); queued_at marks a row handed to the queue,
-- so a sweep hands each pending row over once.
alter table face_index_jobs add column queued_at timestamptz;
