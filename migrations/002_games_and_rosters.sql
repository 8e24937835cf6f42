-- Games in a channel and their rosters: the current state, which commands read and update.
-- Every change to them is also written to the ledger (rolls) in the same transaction.
CREATE TABLE games (
  id          TEXT    PRIMARY KEY,
  guild_id    TEXT    NOT NULL,
  channel_id  TEXT    NOT NULL,
  system      TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  started_by  TEXT    NOT NULL,
  started_at  TEXT    NOT NULL,
  turn        INTEGER,
  phase       TEXT,
  ended_at    TEXT
);
-- One running game per channel.
CREATE UNIQUE INDEX games_one_active ON games (guild_id, channel_id) WHERE ended_at IS NULL;

CREATE TABLE units (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  game_id     TEXT    NOT NULL REFERENCES games(id),
  name        TEXT    NOT NULL,
  name_key    TEXT    NOT NULL,                 -- lower-cased name: names are unique per game, ignoring case
  owner_id    TEXT    NOT NULL,
  owner_name  TEXT    NOT NULL,
  side        TEXT,
  fields      TEXT    NOT NULL,                 -- the system's fields, JSON
  created_at  TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL,
  removed_at  TEXT
);
CREATE UNIQUE INDEX units_live_name ON units (game_id, name_key) WHERE removed_at IS NULL;

-- Rolls made in a game carry its turn and phase (the game id already has a column).
ALTER TABLE rolls ADD COLUMN turn INTEGER;
ALTER TABLE rolls ADD COLUMN phase TEXT;
CREATE INDEX rolls_game ON rolls (game_id) WHERE game_id IS NOT NULL;
