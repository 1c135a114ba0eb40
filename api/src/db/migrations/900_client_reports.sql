-- What the shell reports of each remote it ran (features/releases): page views and errors counted per
-- remote, release and minute (the canary watch compares a canary's errors per view with the current
-- release's), and a few samples of each minute's errors for a week. Nothing personal: the route has
-- no query and the message is scrubbed of emails and runs of digits before it is stored.
create table client_report_counts (
  remote text not null,
  version text not null,
  minute timestamptz not null,
  views integer not null default 0,
  errors integer not null default 0,
  primary key (remote, version, minute)
);
create index client_report_counts_minute_idx on client_report_counts (minute);

create table client_error_samples (
  id bigserial primary key,
  remote text not null,
  version text not null,
  minute timestamptz not null,
  kind text not null,
  route text not null,
  message text not null,
  count integer not null default 1,
  created_at timestamptz not null default now()
);
create index client_error_samples_at_idx on client_error_samples (remote, version, minute);
create index client_error_samples_created_idx on client_error_samples (created_at);
