-- Person fields committed on the chain (docs/privacy.md). A new row's hash covers `chained`: the
-- row with each value naming a person replaced by an HMAC under that person's salt in the server.
-- Rows from before this migration keep chained NULL and are hashed as they always were.
ALTER TABLE rolls ADD COLUMN chained TEXT;

-- One salt per person per server; erasing the person deletes it, and their commitments can no
-- longer be opened by anyone.
CREATE TABLE people (
  guild_id   TEXT NOT NULL,
  user_id    TEXT NOT NULL,
  salt_id    TEXT NOT NULL UNIQUE,
  salt       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (guild_id, user_id)
);
-- /privacy finds every server where someone has a salt, named in others' rows only too.
CREATE INDEX people_user ON people (user_id);

-- A sealed roll's payload as its commitment covers it (people committed): a reveal publishes it.
ALTER TABLE sealed_payloads ADD COLUMN committed TEXT;

-- A committed row's person columns are only values beside its hash: an erasure blanks them, while
-- it holds its server's row here (set and cleared inside its own transaction, so no other sees it).
-- Every other column, every row from before this format, and any change outside an erasure is refused.
CREATE TABLE erasing (guild_id TEXT PRIMARY KEY);

DROP TRIGGER rolls_no_update;
CREATE TRIGGER rolls_no_update BEFORE UPDATE ON rolls
WHEN OLD.chained IS NULL OR NOT EXISTS (SELECT 1 FROM erasing WHERE guild_id = OLD.guild_id)
  OR NEW.chained IS NOT OLD.chained OR NEW.hash IS NOT OLD.hash OR NEW.prev_hash IS NOT OLD.prev_hash
  OR NEW.seq IS NOT OLD.seq OR NEW.id IS NOT OLD.id OR NEW.guild_id IS NOT OLD.guild_id OR NEW.guild_seq IS NOT OLD.guild_seq
  OR NEW.channel_id IS NOT OLD.channel_id OR NEW.game_id IS NOT OLD.game_id OR NEW.turn IS NOT OLD.turn
  OR NEW.phase IS NOT OLD.phase OR NEW.game_seq IS NOT OLD.game_seq OR NEW.command IS NOT OLD.command
  OR NEW.system IS NOT OLD.system OR NEW.kind IS NOT OLD.kind OR NEW.dice IS NOT OLD.dice OR NEW.result IS NOT OLD.result
  OR NEW.parent_id IS NOT OLD.parent_id OR NEW.once_key IS NOT OLD.once_key OR NEW.created_at IS NOT OLD.created_at
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: rows cannot be changed'); END;

DROP TRIGGER sealed_payloads_no_update;
CREATE TRIGGER sealed_payloads_no_update BEFORE UPDATE ON sealed_payloads
WHEN OLD.committed IS NULL OR NOT EXISTS (SELECT 1 FROM erasing WHERE guild_id = OLD.guild_id) OR NEW.committed IS NOT OLD.committed OR NEW.salt IS NOT OLD.salt
  OR NEW.roll_id IS NOT OLD.roll_id OR NEW.guild_id IS NOT OLD.guild_id
BEGIN SELECT RAISE(ABORT, 'sealed payloads are append-only: they cannot be changed'); END;
