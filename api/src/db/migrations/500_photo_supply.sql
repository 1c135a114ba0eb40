-- The photo supply line. A photo may show several runners, so the BIBs a photo is found under move
-- from photos.bib_number to photo_bibs (one row per BIB, with where the tag came from). A photo is
-- shown only once it is ready; a photo without any BIB is one of the event's unlabeled photos.
create table photo_bibs (
  photo_id integer not null references photos (id) on delete cascade,
  event_id integer not null references events (id) on delete cascade,
  -- Stored trimmed and upper case.
  bib_number text not null,
  -- seed: demo data; ocr: read from the photo; manual: set by its photographer or the organiser.
  source text not null default 'manual' check (source in ('seed', 'ocr', 'manual')),
  confidence real,
  created_at timestamptz not null default now(),
  primary key (photo_id, bib_number)
);
-- BIB search: every photo of one BIB of one event, straight from the index.
create index photo_bibs_event_bib_idx on photo_bibs (event_id, bib_number, photo_id);

insert into photo_bibs (photo_id, event_id, bib_number, source)
  select id, event_id, bib_number, 'seed' from photos where bib_number is not null;

alter table photos drop column bib_number;

alter table photos
  -- processing: uploaded, not yet shown anywhere; ready: searchable (by its BIBs, or unlabeled); failed: see failure_reason.
  add column status text not null default 'ready' check (status in ('processing', 'ready', 'failed')),
  add column failure_reason text,
  -- The photographer who supplied it (null for the demo seed's own photos).
  add column partner_user_id integer references users (id) on delete set null,
  -- SHA-256 of the uploaded file: the same file sent twice to one event is stored once.
  add column content_sha256 text,
  add column original_name text;
create unique index photos_event_content_idx on photos (event_id, content_sha256) where content_sha256 is not null;
create index photos_partner_idx on photos (partner_user_id, event_id) where partner_user_id is not null;
create index photos_event_seq_idx on photos (event_id, seq, id);

-- The event's BIB format (an anchored, case-insensitive regular expression): the BIB reader accepts
-- only readings that match it. Null: any 1 to 12 letters and digits.
alter table events add column bib_pattern text;

-- Photographers: a partner profile per account (bank account number and PAN encrypted at rest), and a
-- registration per event that the event's organiser approves or rejects.
create table partner_profiles (
  user_id integer primary key references users (id) on delete cascade,
  first_name text not null,
  last_name text not null,
  mobile text not null,
  -- Locked once set (spec): shown on the photographer's photos and statements.
  nickname text not null,
  bank_account_name text not null,
  bank_account_number_enc text not null,
  bank_account_last4 text not null,
  -- 1 savings, 2 current (spec).
  bank_account_type smallint not null check (bank_account_type in (1, 2)),
  bank_name text not null,
  bank_branch text not null,
  bank_ifsc text not null,
  pan_enc text not null,
  pan_last4 text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index partner_profiles_nickname_idx on partner_profiles (lower(nickname));

create table event_partners (
  event_id integer not null references events (id) on delete cascade,
  user_id integer not null references users (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  dates_available date[] not null default '{}',
  remarks text not null default '',
  terms_accepted_at timestamptz not null default now(),
  -- The photographer's share of the sales of their photos, in percent (70 unless the organiser agrees otherwise).
  share_percent integer not null default 70 check (share_percent between 0 and 100),
  decided_by integer references users (id) on delete set null,
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (event_id, user_id)
);
create index event_partners_user_idx on event_partners (user_id, status);
