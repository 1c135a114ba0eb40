-- Contact form messages: kept so support can answer them even when a mail goes astray.
create table contact_messages (
  id serial primary key,
  first_name text not null,
  last_name text not null,
  email text not null,
  isd_code text not null default '+91',
  phone_no text not null,
  message text not null,
  bib_id text,
  user_id integer references users(id) on delete set null,
  client_ip text,
  created_at timestamptz not null default now()
);
create index contact_messages_created on contact_messages (created_at);
