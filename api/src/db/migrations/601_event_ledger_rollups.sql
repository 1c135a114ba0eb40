-- The Event Dashboard's sums, kept by the database in the same transaction as every order change, so
-- an event with 100,000 orders answers in milliseconds. They are sums of what orders and order_items
-- hold (never entered by anyone): ledger_apply_order adds an order's part when it is created or
-- changes status and takes the old part away; ledger_rebuild recomputes an event from its orders, and
-- a test checks that both always agree. Order lines never change after checkout stores them.

-- Orders by day, status and photo price (the amount of the order's photos, package or pre-order line).
create table event_sales_rollup (
  event_id integer not null references events (id) on delete cascade,
  day date not null,
  status text not null,
  price_kind text not null,
  price numeric(12, 2) not null,
  sponsor_offer_id integer not null default 0,
  orders integer not null default 0,
  photos integer not null default 0,
  amount numeric(14, 2) not null default 0,
  gst numeric(14, 2) not null default 0,
  discount numeric(14, 2) not null default 0,
  video_net numeric(14, 2) not null default 0,
  print_net numeric(14, 2) not null default 0,
  sponsor_photos integer not null default 0,
  primary key (event_id, day, status, price_kind, price, sponsor_offer_id)
);

-- Order lines by product and status.
create table event_product_rollup (
  event_id integer not null references events (id) on delete cascade,
  status text not null,
  kind text not null,
  quantity integer not null default 0,
  net numeric(14, 2) not null default 0,
  discount numeric(14, 2) not null default 0,
  gst numeric(14, 2) not null default 0,
  total numeric(14, 2) not null default 0,
  primary key (event_id, status, kind)
);

-- How many paid orders hold each photo or video (for the number of different photos sold).
create table event_photo_sold (
  event_id integer not null references events (id) on delete cascade,
  photo_id integer not null,
  orders integer not null default 0,
  primary key (event_id, photo_id)
);

create or replace function ledger_apply_order(o orders, sign integer) returns void language plpgsql as $$
declare
  main_kind text;
  main_price numeric;
  n_photos integer;
  v_net numeric;
  p_net numeric;
begin
  select coalesce(min(kind) filter (where kind in ('images', 'pack', 'preorder')), 'none'),
         coalesce(max(amount) filter (where kind in ('images', 'pack', 'preorder')), 0),
         coalesce(sum(cardinality(photo_ids)) filter (where kind in ('images', 'pack', 'video')), 0),
         coalesce(sum(amount - discount) filter (where kind = 'video'), 0),
         coalesce(sum(amount - discount) filter (where kind in ('print', 'collage')), 0)
    into main_kind, main_price, n_photos, v_net, p_net
    from order_items where order_id = o.id;

  insert into event_sales_rollup as r (event_id, day, status, price_kind, price, sponsor_offer_id, orders, photos, amount, gst, discount, video_net, print_net, sponsor_photos)
  values (o.event_id, (coalesce(o.paid_at, o.created_at) at time zone 'Asia/Kolkata')::date, o.status, main_kind, main_price, coalesce(o.sponsor_offer_id, 0),
          sign, sign * n_photos, sign * o.amount, sign * o.gst, sign * o.discount, sign * v_net, sign * p_net, sign * o.sponsor_photo_count)
  on conflict (event_id, day, status, price_kind, price, sponsor_offer_id) do update set
    orders = r.orders + excluded.orders, photos = r.photos + excluded.photos, amount = r.amount + excluded.amount, gst = r.gst + excluded.gst,
    discount = r.discount + excluded.discount, video_net = r.video_net + excluded.video_net, print_net = r.print_net + excluded.print_net,
    sponsor_photos = r.sponsor_photos + excluded.sponsor_photos;

  insert into event_product_rollup as r (event_id, status, kind, quantity, net, discount, gst, total)
  select o.event_id, o.status, i.kind,
         sign * sum(case when i.kind in ('images', 'pack') then cardinality(i.photo_ids) else i.quantity end),
         sign * sum(i.amount - i.discount), sign * sum(i.discount), sign * sum(i.gst), sign * sum(i.total)
    from order_items i where i.order_id = o.id group by i.kind
  on conflict (event_id, status, kind) do update set
    quantity = r.quantity + excluded.quantity, net = r.net + excluded.net, discount = r.discount + excluded.discount,
    gst = r.gst + excluded.gst, total = r.total + excluded.total;

  if o.status in ('Paid', 'Downloaded') then
    insert into event_photo_sold as r (event_id, photo_id, orders)
    select o.event_id, x.photo_id, sign * count(distinct i.order_id)
      from order_items i cross join lateral unnest(i.photo_ids) as x(photo_id)
     where i.order_id = o.id and i.kind in ('images', 'pack', 'video')
     group by x.photo_id
    on conflict (event_id, photo_id) do update set orders = r.orders + excluded.orders;
  end if;
end;
$$;

-- A new order counts once its lines are stored: at the end of the transaction that created it.
create or replace function ledger_order_inserted() returns trigger language plpgsql as $$
begin
  perform ledger_apply_order(new, 1);
  return null;
end;
$$;

-- A change of what the ledger is keyed by (status, payment time, creation time) moves the order's part.
create or replace function ledger_order_updated() returns trigger language plpgsql as $$
begin
  if (old.status, old.paid_at, old.created_at, old.amount, old.sponsor_offer_id, old.sponsor_photo_count)
     is distinct from (new.status, new.paid_at, new.created_at, new.amount, new.sponsor_offer_id, new.sponsor_photo_count) then
    perform ledger_apply_order(old, -1);
    perform ledger_apply_order(new, 1);
  end if;
  return null;
end;
$$;

create or replace function ledger_order_deleted() returns trigger language plpgsql as $$
begin
  perform ledger_apply_order(old, -1);
  return old;
end;
$$;

-- Deferred: an order and its lines are written in one transaction, lines after the order.
create constraint trigger orders_ledger_insert after insert on orders deferrable initially deferred
  for each row execute function ledger_order_inserted();
create constraint trigger orders_ledger_update after update on orders deferrable initially deferred
  for each row execute function ledger_order_updated();
create trigger orders_ledger_delete before delete on orders
  for each row execute function ledger_order_deleted();

-- Recomputes an event's sums from its orders in three statements (a repair tool, what the bulk
-- benchmark uses, and what the consistency test compares the kept sums with).
create or replace function ledger_rebuild(target_event integer) returns void language plpgsql as $$
begin
  delete from event_sales_rollup where event_id = target_event;
  delete from event_product_rollup where event_id = target_event;
  delete from event_photo_sold where event_id = target_event;

  insert into event_sales_rollup (event_id, day, status, price_kind, price, sponsor_offer_id, orders, photos, amount, gst, discount, video_net, print_net, sponsor_photos)
  select o.event_id, (coalesce(o.paid_at, o.created_at) at time zone 'Asia/Kolkata')::date, o.status, x.main_kind, x.main_price, coalesce(o.sponsor_offer_id, 0),
         count(*), sum(x.n_photos), sum(o.amount), sum(o.gst), sum(o.discount), sum(x.v_net), sum(x.p_net), sum(o.sponsor_photo_count)
    from orders o
    cross join lateral (
      select coalesce(min(i.kind) filter (where i.kind in ('images', 'pack', 'preorder')), 'none') as main_kind,
             coalesce(max(i.amount) filter (where i.kind in ('images', 'pack', 'preorder')), 0) as main_price,
             coalesce(sum(cardinality(i.photo_ids)) filter (where i.kind in ('images', 'pack', 'video')), 0) as n_photos,
             coalesce(sum(i.amount - i.discount) filter (where i.kind = 'video'), 0) as v_net,
             coalesce(sum(i.amount - i.discount) filter (where i.kind in ('print', 'collage')), 0) as p_net
        from order_items i where i.order_id = o.id) x
   where o.event_id = target_event
   group by 1, 2, 3, 4, 5, 6;

  insert into event_product_rollup (event_id, status, kind, quantity, net, discount, gst, total)
  select o.event_id, o.status, i.kind, sum(case when i.kind in ('images', 'pack') then cardinality(i.photo_ids) else i.quantity end),
         sum(i.amount - i.discount), sum(i.discount), sum(i.gst), sum(i.total)
    from orders o join order_items i on i.order_id = o.id
   where o.event_id = target_event
   group by 1, 2, 3;

  insert into event_photo_sold (event_id, photo_id, orders)
  select o.event_id, x.photo_id, count(distinct o.id)
    from orders o join order_items i on i.order_id = o.id cross join lateral unnest(i.photo_ids) as x(photo_id)
   where o.event_id = target_event and o.status in ('Paid', 'Downloaded') and i.kind in ('images', 'pack', 'video')
   group by 1, 2;
end;
$$;

-- Orders stored before this migration.
do $$
declare
  e integer;
begin
  for e in select distinct event_id from orders loop
    perform ledger_rebuild(e);
  end loop;
end;
$$;

-- Stage counts read the Pending orders of an event by their age.
create index orders_event_pending_idx on orders (event_id, created_at) include (amount) where status = 'Pending';

-- Visitors per funnel step, counted as marks arrive (one statement adds many marks at once too).
create table event_funnel_counts (
  event_id integer not null references events (id) on delete cascade,
  step text not null,
  visitors integer not null default 0,
  primary key (event_id, step)
);
create or replace function funnel_marks_added() returns trigger language plpgsql as $$
begin
  insert into event_funnel_counts as c (event_id, step, visitors)
  select event_id, step, count(*) from added group by event_id, step
  on conflict (event_id, step) do update set visitors = c.visitors + excluded.visitors;
  return null;
end;
$$;
create trigger event_funnel_marks_count after insert on event_funnel_marks referencing new table as added
  for each statement execute function funnel_marks_added();
insert into event_funnel_counts (event_id, step, visitors) select event_id, step, count(*) from event_funnel_marks group by event_id, step;
