-- GM settings per server, saved /history queries for paging, the Discord message of each reply,
-- and the provably fair dice of games.
CREATE TABLE guild_config (
  guild_id       TEXT PRIMARY KEY,
  gm_role_id     TEXT,
  gm_channel_id  TEXT
);

-- A /history or /export query, so a paging button carries only its id (never the filters).
CREATE TABLE saved_queries (
  id          TEXT    PRIMARY KEY,
  guild_id    TEXT    NOT NULL,
  channel_id  TEXT    NOT NULL,
  user_id     TEXT    NOT NULL,
  params      TEXT    NOT NULL,
  created_at  TEXT    NOT NULL
);

-- Which message showed a roll: learnt after the reply, so it is kept beside the chain, not in it.
CREATE TABLE roll_messages (
  roll_id     TEXT    PRIMARY KEY REFERENCES rolls(id),
  message_id  TEXT    NOT NULL
);

-- The server seed stays here, secret, until /game end reveals it into the ledger.
ALTER TABLE games ADD COLUMN server_seed TEXT;
-- Seeds players added before the first roll, in order (each also has its ledger row).
ALTER TABLE games ADD COLUMN player_seeds TEXT NOT NULL DEFAULT '[]';
-- Rolls of a game are numbered from 1: the roll sequence that feeds its dice.
ALTER TABLE rolls ADD COLUMN game_seq INTEGER;
-- /history and /stats: newest first within a channel or the server, optionally one player's; the
-- kind rides along so a page and its count are read from the index alone.
CREATE INDEX rolls_channel_user ON rolls (guild_id, channel_id, user_id, seq, kind);
CREATE INDEX rolls_guild_user ON rolls (guild_id, user_id, seq, kind);
CREATE INDEX rolls_channel ON rolls (guild_id, channel_id, seq, kind);
