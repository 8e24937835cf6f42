-- Sealed payloads are append-only, like the rows whose commitments they open.
CREATE TRIGGER sealed_payloads_no_update BEFORE UPDATE ON sealed_payloads
BEGIN SELECT RAISE(ABORT, 'sealed payloads are append-only: they cannot be changed'); END;

CREATE TRIGGER sealed_payloads_no_delete BEFORE DELETE ON sealed_payloads
BEGIN SELECT RAISE(ABORT, 'sealed payloads are append-only: they cannot be deleted'); END;

-- Every interaction id is used once, whatever transport delivers it (a replayed HTTP request, a
-- gateway redelivery); ids older than an hour are pruned (Discord's tokens last 15 minutes).
CREATE TABLE interactions (
  id        TEXT PRIMARY KEY,
  guild_id  TEXT NOT NULL,
  at        TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX interactions_at ON interactions (at);

-- The dice scheme a game keeps from its start: 'player-v1' (each player's k-th roll), or NULL for
-- a game started before it (the roll's position in the game).
ALTER TABLE games ADD COLUMN dice_scheme TEXT;

-- A game roll counts the roller's earlier game rolls (per-player dice): from this index alone, one
-- player's rows of one game, not every row of the game.
CREATE INDEX rolls_game_user ON rolls (game_id, user_id, kind) WHERE game_id IS NOT NULL;
