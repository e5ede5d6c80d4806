-- The games and their actions: the schema of the first release (kept as it was, so an
-- existing database, made before migrations, takes this step without change).
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed BIGINT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL,
    moves INTEGER NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_owner ON games (owner, updated_at);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
