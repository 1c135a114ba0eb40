-- The print-files job's tries per line: a line whose file could not be made goes behind the lines not
-- yet tried (one broken line never blocks the queue), and after a few failed renders it is held with the
-- reason instead of being tried forever.
alter table print_lines add column if not exists file_attempts integer not null default 0;
alter table print_lines add column if not exists file_attempted_at timestamptz;
create index if not exists print_lines_pending_files on print_lines (file_attempted_at nulls first, created_at, id) where file_state = 'pending' and status = 'queued';
