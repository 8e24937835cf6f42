-- Sealed rolls: the chained row carries only a commitment, SHA-256(salt ‖ payload);
-- the salt and the payload (dice, outcome, result, the roster changes it makes) wait here, read by
-- GMs only, until /reveal appends them to the chain.
CREATE TABLE sealed_payloads (
  roll_id   TEXT PRIMARY KEY REFERENCES rolls(id),
  guild_id  TEXT NOT NULL,
  salt      TEXT NOT NULL,
  payload   TEXT NOT NULL
);

-- Saved /history queries expire: pruned by age.
CREATE INDEX saved_queries_age ON saved_queries (created_at);

-- Player seeds by commit-then-reveal: each player first commits to SHA-256 of a seed; once any seed
-- is revealed no more commitments are taken, and the game's first roll waits until every committed
-- seed is revealed. JSON array of {user_id, user_name, commitment, seed (null until revealed)}.
ALTER TABLE games ADD COLUMN seed_commitments TEXT NOT NULL DEFAULT '[]';
