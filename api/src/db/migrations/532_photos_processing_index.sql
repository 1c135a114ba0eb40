-- The face worker asks, before each photo, whether uploaded photos still wait to be made searchable
-- by BIB (it lets them go first): a small partial index answers that without reading the photos table.
create index if not exists photos_processing_idx on photos (id) where status = 'processing';
