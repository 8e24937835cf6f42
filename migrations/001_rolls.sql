-- The ledger: one row per roll and per recorded decision, never updated or deleted.
-- Each guild has its own hash chain: hash = SHA-256(prev_hash || canonical JSON of the row).
CREATE TABLE rolls (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,      -- global append order
  id         TEXT    NOT NULL UNIQUE,                -- the roll id users see and type
  guild_id   TEXT    NOT NULL,
  guild_seq  INTEGER NOT NULL,                       -- position in the guild's chain, from 1
  channel_id TEXT    NOT NULL,
  user_id    TEXT    NOT NULL,
  user_name  TEXT    NOT NULL,                       -- display name when the row was written
  game_id    TEXT,
  command    TEXT    NOT NULL,
  system     TEXT,
  kind       TEXT    NOT NULL,                       -- roll, reroll, decision, …
  unit       TEXT,
  input      TEXT    NOT NULL,                       -- validated options, canonical JSON
  dice       TEXT    NOT NULL,                       -- every die in the order rolled, JSON array
  outcome    TEXT    NOT NULL,                       -- the rules' outcome, canonical JSON
  result     TEXT,
  parent_id  TEXT    REFERENCES rolls(id),           -- the roll a re-roll or decision belongs to
  once_key   TEXT    UNIQUE,                         -- set by actions the rules allow only once
  created_at TEXT    NOT NULL,
  prev_hash  TEXT    NOT NULL,
  hash       TEXT    NOT NULL,
  UNIQUE (guild_id, guild_seq)
);

CREATE INDEX rolls_guild_channel_unit ON rolls (guild_id, channel_id, unit) WHERE unit IS NOT NULL;
CREATE INDEX rolls_parent ON rolls (parent_id) WHERE parent_id IS NOT NULL;

CREATE TRIGGER rolls_no_update BEFORE UPDATE ON rolls
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: rows cannot be changed'); END;

CREATE TRIGGER rolls_no_delete BEFORE DELETE ON rolls
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: rows cannot be deleted'); END;
