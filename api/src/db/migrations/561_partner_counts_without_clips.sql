-- The photographer's kept counts (553) are of the photos they uploaded: finish-line clips cut from
-- their videos (560, source_video_id set) are not photos to process or review, so they stay out,
-- as they stay out of the review list.
create or replace function partner_photo_counts_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and old.status is not distinct from new.status
     and old.partner_user_id is not distinct from new.partner_user_id and old.event_id = new.event_id
     and old.source_video_id is not distinct from new.source_video_id then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.source_video_id is null then
    perform partner_photo_counts_apply(old.partner_user_id, old.event_id, old.status, -1);
  end if;
  if tg_op in ('UPDATE', 'INSERT') and new.source_video_id is null then
    perform partner_photo_counts_apply(new.partner_user_id, new.event_id, new.status, 1);
  end if;
  return null;
end
$$;

delete from partner_photo_counts;
insert into partner_photo_counts (partner_user_id, event_id, uploaded, processing, searchable, failed)
select partner_user_id, event_id, count(*),
       count(*) filter (where status = 'processing'),
       count(*) filter (where status = 'ready'),
       count(*) filter (where status = 'failed')
  from photos where partner_user_id is not null and source_video_id is null
 group by partner_user_id, event_id;
