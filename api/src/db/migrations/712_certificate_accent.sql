-- The organiser's colour for a race's certificate: the standard layout's border, heading and times
-- are drawn in it (null: the standard colour). The title, template (template_config) and background
-- (template_image_key) the organiser sets are the achievement's existing columns.
alter table achievements add column accent_color text;
