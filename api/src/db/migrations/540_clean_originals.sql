-- Originals are stored without personal metadata (GPS position, camera serial numbers, maker notes,
-- owner and artist names, XMP and IPTC, embedded thumbnails): media/jpegMetadata.ts. An image whose
-- stored original has been cleaned carries the time; the clean-originals job cleans the others
-- (every original stored before this migration), and a download cleans one first if the job has
-- not reached it yet.
alter table photos add column metadata_cleaned_at timestamptz;
create index photos_metadata_uncleaned_idx on photos (id) where metadata_cleaned_at is null and kind = 'image';

-- Photographers' file names were stored as sent ("../../x.jpg"). Keep the display name only: the
-- part after the last slash or backslash, without control or text-direction characters (the
-- same rule as displayFileName in features/supply/uploads.ts), no name at all when nothing is left.
update photos
   set original_name = nullif(btrim(regexp_replace(regexp_replace(original_name, '^.*[/\\]', ''), '[\u0001-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]', '', 'g')), '')
 where original_name is not null;
update photos set original_name = null where original_name ~ '^\.+$';
