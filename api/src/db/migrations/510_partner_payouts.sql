-- Money paid out to a photographer for one event, recorded by that event's organiser. What is still
-- to pay is the share computed from paid orders (rules/photoSales.ts) less these rows: the share
-- itself is never stored.
create table partner_payouts (
  id serial primary key,
  event_id integer not null references events (id) on delete cascade,
  user_id integer not null references users (id) on delete cascade,
  amount numeric(12, 2) not null check (amount > 0),
  -- The bank transfer's reference, as the organiser's bank gave it.
  reference text not null,
  recorded_by integer references users (id) on delete set null,
  paid_at timestamptz not null default now()
);
create index partner_payouts_user_idx on partner_payouts (user_id, event_id);
