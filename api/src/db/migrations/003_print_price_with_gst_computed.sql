-- A print's price with GST is computed by the shared pricing rule (withGst, the amount the bill
-- charges); a stored copy could only disagree with it.
alter table print_products drop column if exists price_with_gst;
