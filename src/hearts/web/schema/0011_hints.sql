-- depends: 0010_starts
-- The coach's hints each person took at a table of friends (the others are told of each, and
-- the game's end says who took how many), and the decision the latest one was for (the move
-- count of a card, or the round's first move for a pass), so that asking again for the same
-- decision (a second tap, another tab) is counted once. Nothing else changes: whether a
-- table allows hints at all is kept with its other settings, in games.settings.
ALTER TABLE seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN hinted INTEGER;
