-- depends: 0008_page_closed
-- Facts about the whole site, one value a key. The first: a fingerprint of the cookie secret
-- (an HMAC of a fixed label under it, which does not give the secret away), so that a process
-- whose data directory holds another secret is refused at start instead of quietly taking
-- every player's games from them.
CREATE TABLE IF NOT EXISTS site (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
