-- The photographer's counts (uploaded, processing, searchable, needing attention) per event, kept
-- as photos change rather than counted on every poll of the upload page: a trigger adds and takes
-- away as a photo is inserted, changes status or owner, or is deleted. Searchable is 'ready' (tagged
-- or unlabeled alike), so BIB changes do not touch these counts.
create table partner_photo_counts (
  partner_user_id integer not null,
  event_id integer not null,
  uploaded integer not null default 0,
  processing integer not null default 0,
  searchable integer not null default 0,
  failed integer not null default 0,
  primary key (partner_user_id, event_id)
);

create function partner_photo_counts_apply(p_user integer, p_event integer, p_status text, p_sign integer) returns void language plpgsql as $$
begin
  if p_user is null then
    return;
  end if;
  insert into partner_photo_counts (partner_user_id, event_id, uploaded, processing, searchable, failed)
  values (p_user, p_event, p_sign,
          case when p_status = 'processing' then p_sign else 0 end,
          case when p_status = 'ready' then p_sign else 0 end,
          case when p_status = 'failed' then p_sign else 0 end)
  on conflict (partner_user_id, event_id) do update set
    uploaded = partner_photo_counts.uploaded + excluded.uploaded,
    processing = partner_photo_counts.processing + excluded.processing,
    searchable = partner_photo_counts.searchable + excluded.searchable,
    failed = partner_photo_counts.failed + excluded.failed;
end
$$;

create function partner_photo_counts_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and old.status is not distinct from new.status
     and old.partner_user_id is not distinct from new.partner_user_id and old.event_id = new.event_id then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    perform partner_photo_counts_apply(old.partner_user_id, old.event_id, old.status, -1);
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    perform partner_photo_counts_apply(new.partner_user_id, new.event_id, new.status, 1);
  end if;
  return null;
end
$$;

create trigger photos_partner_counts after insert or delete or update on photos
  for each row execute function partner_photo_counts_changed();

insert into partner_photo_counts (partner_user_id, event_id, uploaded, processing, searchable, failed)
select partner_user_id, event_id, count(*),
       count(*) filter (where status = 'processing'),
       count(*) filter (where status = 'ready'),
       count(*) filter (where status = 'failed')
  from photos where partner_user_id is not null
 group by partner_user_id, event_id;

-- The review screen's pages: the partner's photos of an event, newest first.
create index photos_partner_created_idx on photos (partner_user_id, event_id, created_at desc, id desc) where partner_user_id is not null;
