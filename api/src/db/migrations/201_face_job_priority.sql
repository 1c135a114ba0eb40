-- Photos queued on purpose (just uploaded, replaced) are indexed before the backlog of a sweep,
-- so a fresh photo becomes findable by selfie within seconds even while a large event is indexed.
alter table face_index_jobs add column priority smallint not null default 0;
create index face_index_jobs_claim_idx on face_index_jobs (status, priority desc, created_at);
