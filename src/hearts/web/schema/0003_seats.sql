-- depends: 0002_games_by_age
-- Tables of several people: who sits in each person's seat, and the table's own state.
-- A game from before has no rows here: its one person is the game's owner, and it started
-- when it was made.
ALTER TABLE games ADD COLUMN started INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN rematch TEXT;
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    -- A hash of the browser's cookie (as games.owner); NULL while a friend's seat is open.
    owner TEXT,
    name TEXT NOT NULL,
    away INTEGER NOT NULL DEFAULT 0,
    seen_at DOUBLE PRECISION,
    reaction TEXT,
    reaction_at DOUBLE PRECISION,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_by_owner ON seats (owner);
