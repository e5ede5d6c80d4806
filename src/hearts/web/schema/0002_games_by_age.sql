-- depends: 0001_games
-- Expiry looks for unfinished games by when they were last played.
CREATE INDEX IF NOT EXISTS games_by_age ON games (status, updated_at);
