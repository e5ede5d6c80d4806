-- depends: 0004_deal_secrets
-- A browser's statistics start afresh when it asks: the moment it asked (seconds since 1970),
-- by the browser (a hash of its cookie, as games.owner). Games finished before it are no
-- longer counted; they stay in the history with their records. Nothing else changes.
CREATE TABLE IF NOT EXISTS stats_resets (
    owner TEXT PRIMARY KEY,
    since DOUBLE PRECISION NOT NULL
);
