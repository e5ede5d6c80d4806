-- depends: 0007_ready
-- When a person's last open page at the table closed (its event stream ended). Until they
-- are heard from again (seen_at later than this) the others see them as not connected at
-- once, instead of once their heartbeats have run out. The turn clock still counts from
-- seen_at: a page reloaded, or a phone that dropped its connection, loses no time.
ALTER TABLE seats ADD COLUMN left_at DOUBLE PRECISION;
