-- A paid pre-order's buyer is mailed the download link once, when the first photos of its BIB are ready.
alter table orders add column photos_ready_mailed_at timestamptz;
