-- depends: 0009_site
-- New games started in the last hour, for the quotas on new games (hearts.web.quotas): when
-- (seconds since 1970), by which browser (a hash of its cookie, as games.owner) and from
-- which address (an HMAC of it under the cookie secret, never the address itself; NULL when
-- the server was not told one). Kept apart from the games, which a quota or expiry removes:
-- a start counts for its hour whatever became of its game. Rows over an hour old are
-- removed at the next new game and by the hourly expiry.
CREATE TABLE IF NOT EXISTS starts (
    id TEXT PRIMARY KEY,
    started_at DOUBLE PRECISION NOT NULL,
    owner TEXT NOT NULL,
    address TEXT
);
CREATE INDEX IF NOT EXISTS starts_by_owner ON starts (owner, started_at);
CREATE INDEX IF NOT EXISTS starts_by_address ON starts (address, started_at);
CREATE INDEX IF NOT EXISTS starts_by_age ON starts (started_at);
