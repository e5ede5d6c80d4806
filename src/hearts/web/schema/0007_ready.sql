-- depends: 0006_stats_reset
-- At the end of a round at a table of friends, each person says when they are ready for the
-- next: the game's move count when they asked (so a later round's end needs asking again).
-- NULL until they first ask. Nothing else changes.
ALTER TABLE seats ADD COLUMN ready INTEGER;
