-- The account that was signed in when the order was placed (null for a guest checkout, a guest
-- pre-order and the demo's generated buyers). An account always sees the orders it placed itself;
-- orders placed under its email by anyone not signed in to it only once it proved the address
-- (users.email_verified_at, migration 110).
alter table orders add column placed_by_user_id integer references users (id) on delete set null;
create index orders_placed_by_idx on orders (placed_by_user_id) where placed_by_user_id is not null;

-- Existing orders: only the signed-in checkout ever stored the buyer's gender (its form requires
-- it, the guest form has no such field), and a signed-in order is stored under the account's id
-- and email. So an order with a gender was placed by its user_id's account while signed in.
-- Everything else (guest checkouts, pre-orders) is treated as a guest's: its buyer keeps the
-- pre-authorised link of the confirmation mail, and the account gets it back by proving the address.
update orders o set placed_by_user_id = o.user_id
  from users u
 where u.id = o.user_id and o.gender is not null and lower(u.email) = lower(o.email);
