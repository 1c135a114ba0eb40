-- Accounts: users with argon2id hashes, sessions (random tokens stored hashed), rate limit counters,
-- one-time codes (password reset, OTP) stored hashed with expiry and a try limit.
create table users (
  id serial primary key,
  first_name text not null,
  last_name text not null,
  email text not null,
  primary_phone text not null default '',
  isd_code text not null default '+91',
  gender text,
  address text,
  pincode text,
  password_hash text,
  is_organiser boolean not null default false,
  is_partner boolean not null default false,
  login_type smallint not null default 1, -- 1 email+password, 2 social
  created_at timestamptz not null default now()
);
create unique index users_email_lower on users (lower(email));

-- A session is either a signed-in user's or an anonymous search session (user_id null).
create table sessions (
  id serial primary key,
  token_hash text not null unique,
  user_id integer references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index sessions_user on sessions (user_id);

create table rate_limit_hits (
  bucket text not null,
  hit_at timestamptz not null default now()
);
create index rate_limit_hits_bucket on rate_limit_hits (bucket, hit_at);

create table one_time_codes (
  id serial primary key,
  purpose text not null,         -- 'password_reset' | 'privacy_otp' | ...
  subject text not null,         -- what the code is for, e.g. an email or 'event:bib'
  code_hash text not null,
  expires_at timestamptz not null,
  attempts integer not null default 0,
  max_attempts integer not null default 5,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index one_time_codes_subject on one_time_codes (purpose, subject);

create table captcha_used (
  signature text primary key,
  used_at timestamptz not null default now()
);
