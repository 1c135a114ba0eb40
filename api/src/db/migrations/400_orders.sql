-- Orders and their items, payment callbacks (audit of every return from the gateway) and the
-- download log. Amounts are rupees including GST, as numeric so PayU's two-decimal text is exact.
create table orders (
  id serial primary key,
  order_ref text not null unique,
  -- The PayU transaction id; one per order (a retry posts the same order again).
  txnid text not null unique,
  user_id integer references users (id) on delete set null,
  event_id integer not null references events (id),
  -- 'prebook' for a pre-order until it is mapped to a BIB; 'unlabeled' for unlabeled carts.
  bib_number text not null,
  name text not null,
  email text not null,
  phone text not null,
  isd_code text not null default '+91',
  gender text,
  shipping_address text,
  pincode text,
  print_instruction text not null default '',
  status text not null default 'Pending' check (status in ('Pending', 'Paid', 'Downloaded', 'Cancelled')),
  subtotal numeric(12, 2) not null default 0,
  discount numeric(12, 2) not null default 0,
  gst numeric(12, 2) not null default 0,
  amount numeric(12, 2) not null check (amount >= 0),
  -- The exact amount text sent to the gateway and covered by both hashes.
  amount_text text not null,
  productinfo text not null,
  search_kind text not null default 'bib',
  package_kind text,
  bundle text,
  unlabeled boolean not null default false,
  is_preorder boolean not null default false,
  sponsor_offer_id integer,
  -- The cart as sent (lines, package, discounted photos), restored into the cart on Retry.
  cart_info jsonb not null default '{}'::jsonb,
  payment_id text,
  payment_mode text,
  bank_ref_num text,
  created_at timestamptz not null default now(),
  paid_at timestamptz,
  first_download_at timestamptz,
  mapped_at timestamptz
);
create index orders_email_idx on orders (lower(email), created_at desc);
create index orders_user_idx on orders (user_id);

-- The server's priced bill lines (from buildBill): what was bought and what it cost.
create table order_items (
  id serial primary key,
  order_id integer not null references orders (id) on delete cascade,
  kind text not null check (kind in ('images', 'pack', 'video', 'print', 'collage', 'preorder')),
  label text not null,
  photo_ids integer[] not null default '{}',
  quantity integer not null default 1,
  amount numeric(12, 2) not null default 0,
  discount numeric(12, 2) not null default 0,
  gst numeric(12, 2) not null default 0,
  total numeric(12, 2) not null default 0,
  print_product_id integer references print_products (id),
  orientation text,
  pack_id text
);
create index order_items_order_idx on order_items (order_id);

-- Every return from the gateway, accepted or not, for support and audits.
create table payment_callbacks (
  id serial primary key,
  txnid text,
  kind text not null check (kind in ('success', 'failure')),
  status text,
  outcome text not null,
  payload jsonb not null,
  received_at timestamptz not null default now()
);
create index payment_callbacks_txnid_idx on payment_callbacks (txnid);
