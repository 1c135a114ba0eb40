-- Every race with results has a finisher certificate: a one-event achievement that belongs to the
-- race (finisher_event_id). It is made as soon as the race has a participant with an official finish
-- time (the participants import, the demo seed, and below for the races that already have results);
-- its organiser turns it on or off (active), and sets its title and template. Series (grand slams)
-- keep finisher_event_id null. Titles stay unique among series only (the key of the home page's
-- slam_events): a race's certificate is titled after the race unless its organiser names it.
alter table achievements add column finisher_event_id integer unique references events (id) on delete cascade;
alter table achievements drop constraint achievements_title_key;
create unique index achievements_series_title_idx on achievements (title) where finisher_event_id is null;

insert into achievements (title, description, finisher_event_id)
select e.name, '', e.id from events e
 where exists (select 1 from participants p where p.event_id = e.id and p.finish_time is not null)
on conflict (finisher_event_id) do nothing;

insert into achievement_events (achievement_id, event_id, seq)
select a.id, a.finisher_event_id, 1 from achievements a
 where a.finisher_event_id is not null
on conflict do nothing;
