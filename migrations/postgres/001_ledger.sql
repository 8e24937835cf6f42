-- The ledger on PostgreSQL: the same tables and meaning as the SQLite migrations 001–007, in one
-- step. Text columns hold exactly what SQLite holds (the JSON columns as the canonical text that was
-- hashed), so a row's hash is computed the same way from either backend.
CREATE TABLE rolls (
  seq        BIGSERIAL PRIMARY KEY,                  -- global append order
  id         TEXT    NOT NULL UNIQUE,
  guild_id   TEXT    NOT NULL,
  guild_seq  INTEGER NOT NULL,                       -- position in the guild's chain, from 1
  channel_id TEXT    NOT NULL,
  user_id    TEXT    NOT NULL,
  user_name  TEXT    NOT NULL,
  game_id    TEXT,
  turn       INTEGER,
  phase      TEXT,
  game_seq   INTEGER,
  command    TEXT    NOT NULL,
  system     TEXT,
  kind       TEXT    NOT NULL,
  unit       TEXT,
  input      TEXT    NOT NULL,
  dice       TEXT    NOT NULL,
  outcome    TEXT    NOT NULL,
  result     TEXT,
  parent_id  TEXT    REFERENCES rolls(id),
  once_key   TEXT    CONSTRAINT rolls_once_key UNIQUE,
  created_at TEXT    NOT NULL,
  prev_hash  TEXT    NOT NULL,
  hash       TEXT    NOT NULL,
  UNIQUE (guild_id, guild_seq)
);
CREATE INDEX rolls_parent ON rolls (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX rolls_game ON rolls (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX rolls_guild ON rolls (guild_id, seq, kind);
CREATE INDEX rolls_channel ON rolls (guild_id, channel_id, seq, kind);
CREATE INDEX rolls_guild_user ON rolls (guild_id, user_id, seq, kind);
CREATE INDEX rolls_channel_user ON rolls (guild_id, channel_id, user_id, seq, kind);

-- Rows are never changed or removed.
CREATE FUNCTION rolls_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: rows cannot be changed or deleted';
END $$;
CREATE TRIGGER rolls_no_change BEFORE UPDATE OR DELETE ON rolls FOR EACH ROW EXECUTE FUNCTION rolls_append_only();

-- Each guild's chain head: an append locks this row (SELECT … FOR UPDATE), so writers on any number
-- of processes or machines append to one guild's chain one at a time, and never fork it.
CREATE TABLE chain_heads (
  guild_id   TEXT    PRIMARY KEY,
  guild_seq  INTEGER NOT NULL,
  hash       TEXT    NOT NULL
);

CREATE TABLE sealed_payloads (
  roll_id   TEXT PRIMARY KEY REFERENCES rolls(id),
  guild_id  TEXT NOT NULL,
  salt      TEXT NOT NULL,
  payload   TEXT NOT NULL
);

CREATE TABLE roll_messages (
  roll_id     TEXT PRIMARY KEY REFERENCES rolls(id),
  message_id  TEXT NOT NULL
);

CREATE TABLE games (
  id               TEXT    PRIMARY KEY,
  guild_id         TEXT    NOT NULL,
  channel_id       TEXT    NOT NULL,
  system           TEXT    NOT NULL,
  name             TEXT    NOT NULL,
  started_by       TEXT    NOT NULL,
  started_at       TEXT    NOT NULL,
  turn             INTEGER,
  phase            TEXT,
  ended_at         TEXT,
  server_seed      TEXT,
  player_seeds     TEXT    NOT NULL DEFAULT '[]',
  seed_commitments TEXT    NOT NULL DEFAULT '[]'
);
CREATE UNIQUE INDEX games_one_active ON games (guild_id, channel_id) WHERE ended_at IS NULL;

CREATE TABLE units (
  id          BIGSERIAL PRIMARY KEY,
  game_id     TEXT    NOT NULL REFERENCES games(id),
  name        TEXT    NOT NULL,
  name_key    TEXT    NOT NULL,
  owner_id    TEXT    NOT NULL,
  owner_name  TEXT    NOT NULL,
  side        TEXT,
  fields      TEXT    NOT NULL,
  created_at  TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL,
  removed_at  TEXT
);
CREATE UNIQUE INDEX units_live_name ON units (game_id, name_key) WHERE removed_at IS NULL;
CREATE INDEX units_game ON units (game_id, id);

CREATE TABLE guild_config (
  guild_id       TEXT PRIMARY KEY,
  gm_role_id     TEXT,
  gm_channel_id  TEXT
);

CREATE TABLE saved_queries (
  id          TEXT PRIMARY KEY,
  guild_id    TEXT NOT NULL,
  channel_id  TEXT NOT NULL,
  user_id     TEXT NOT NULL,
  params      TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
CREATE INDEX saved_queries_age ON saved_queries (created_at);

-- Unit names last rolled per channel, for autocomplete (derived from rolls: rebuilt on import).
CREATE TABLE channel_units (
  guild_id    TEXT   NOT NULL,
  channel_id  TEXT   NOT NULL,
  system      TEXT   NOT NULL,
  unit_key    TEXT   NOT NULL,
  unit        TEXT   NOT NULL,
  last_seq    BIGINT NOT NULL,
  PRIMARY KEY (guild_id, channel_id, system, unit_key)
);
CREATE INDEX channel_units_recent ON channel_units (guild_id, channel_id, system, last_seq);
