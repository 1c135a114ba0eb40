-- Smaller and modern-format copies of a home image (made once by features/events/homeImageRenditions.ts
-- and kept in object storage): { "width", "height", "sources": [{ "type", "files": [{ "key", "width" }] }] }.
-- Null until made; the home page then offers only the original.
alter table home_images add column renditions jsonb;
