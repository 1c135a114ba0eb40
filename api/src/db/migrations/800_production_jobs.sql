-- Work after a payment that must not be lost, and the payment reconciliation's bookkeeping.

-- Mail written in the same transaction as the change that causes it (an order marked Paid); a queue
-- worker delivers it with retries. dedupe_key makes a second write of the same mail a no-op, so a
-- buyer gets one confirmation per order however often the payment is reported.
create table mail_outbox (
  id bigserial primary key,
  dedupe_key text not null unique,
  tag text not null,
  to_address text not null,
  subject text not null,
  body_text text not null,
  order_id integer references orders (id) on delete set null,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  -- A failed attempt moves this forward (backoff); the worker takes rows whose time has come.
  next_attempt_at timestamptz not null default now(),
  -- A delivery in progress holds its row until then: a process that dies mid-send releases it by time.
  claimed_until timestamptz,
  last_error text,
  sent_at timestamptz
);
create index mail_outbox_due_idx on mail_outbox (next_attempt_at) where sent_at is null;

-- When the reconciliation last asked the gateway about a Pending order, and how often it has.
alter table orders add column payment_checked_at timestamptz;
alter table orders add column payment_checks integer not null default 0;
create index orders_pending_created_idx on orders (created_at) where status = 'Pending';
