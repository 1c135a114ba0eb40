-- The session an order was placed in (a visitor's search session for a guest checkout, or the
-- signed-in session). The certificate builder lets a session use a BIB's own photos only when that
-- session bought them: a signed-in account by the order history's rule, a guest by this column.
-- No foreign key: sessions expire and are cleaned up, the order stays. Existing orders: null (their
-- buyers reach them through their account or the confirmation mail's link).
alter table orders add column placed_session_id integer;
create index orders_placed_session_idx on orders (placed_session_id, event_id, bib_number) where placed_session_id is not null;
