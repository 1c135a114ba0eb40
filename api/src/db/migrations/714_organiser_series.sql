-- A series (grand slam) an organiser made of their own races: its owner. The seed's series have none
-- (the platform's own); an organiser lists and changes only theirs.
alter table achievements add column if not exists organiser_user_id integer references users (id) on delete set null;
create index if not exists achievements_organiser_idx on achievements (organiser_user_id) where organiser_user_id is not null;
