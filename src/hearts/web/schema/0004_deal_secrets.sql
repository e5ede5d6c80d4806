-- depends: 0003_seats
-- A game dealt from keys keeps its secret (at least 128 random bits, as text) here; the
-- old integer seed stays in `seed` for the games made before, which are dealt as they were.
ALTER TABLE games ADD COLUMN secret TEXT;
