-- Back-pressure on race day (docs/supply-line.md, "When many photos arrive"): the photographer is
-- told how long until their photos are findable when more wait than the line clears in its promised
-- minute. The estimate needs the line's recent rate, so a photo now records when it left 'processing'
-- (ready or failed). The database stamps it as the status changes, whichever process finished the
-- photo. Finish-line clips (cut on the video queue, not the photo queue) are not stamped.
alter table photos add column processed_at timestamptz;

create function photos_stamp_processed() returns trigger language plpgsql as $$
begin
  new.processed_at := now();
  return new;
end
$$;

create trigger photos_processed_at before update of status on photos
  for each row when (old.status = 'processing' and new.status <> 'processing' and new.source_video_id is null)
  execute function photos_stamp_processed();

-- Photos finished over the last minutes: a range of this index.
create index photos_processed_at_idx on photos (processed_at) where processed_at is not null;
-- Photos waiting on the photo queue, which takes them in the order they arrived (id): how many wait up
-- to a given photo, and a partner's last waiting photo of an event. Both indexes hold the waiting
-- photos only.
create index photos_waiting_idx on photos (id) where status = 'processing' and source_video_id is null;
create index photos_partner_waiting_idx on photos (partner_user_id, event_id, id) where status = 'processing' and source_video_id is null;
