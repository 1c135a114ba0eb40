-- Issue 33 item 4: an organiser opens photographer registration before the race is public.
-- Off for every existing event: they are offered to photographers as before (searchable and published).
alter table events add column partner_registration boolean not null default false;
