-- Platform: key/value settings (master config, notifications) shared by every feature.

create table app_settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now()
);
