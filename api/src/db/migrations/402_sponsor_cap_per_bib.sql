-- How many photos of the order the sponsor offer discounted: the offer's cap holds per BIB across orders.
alter table orders add column if not exists sponsor_photo_count integer not null default 0;
create index if not exists orders_sponsor_bib_idx on orders (sponsor_offer_id, event_id, bib_number) where sponsor_offer_id is not null;
