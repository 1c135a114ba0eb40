-- A running face_index_jobs row names the queue attempt that holds it (the pg-boss job and its retry)
-- instead of a lease of its own: whether that attempt still lives is what the job queue's heartbeat
-- says, so one mechanism decides when a photo of a dead worker is taken again. lease_until stays
-- (unused) while processes of the earlier release may still run; a later migration drops it.
alter table face_index_jobs add column claim_job uuid;
alter table face_index_jobs add column claim_retry integer;
update face_index_jobs set status = 'pending', queued_at = null where status = 'running';
