-- Sealed payloads are append-only, like the rows whose commitments they open (the same
-- refusal as the rows': 001's rolls_append_only).
CREATE TRIGGER sealed_payloads_no_change BEFORE UPDATE OR DELETE ON sealed_payloads FOR EACH ROW EXECUTE FUNCTION rolls_append_only();

-- Every interaction id is used once, whatever transport delivers it; ids older than an hour are pruned.
CREATE TABLE interactions (
  id        TEXT PRIMARY KEY,
  guild_id  TEXT NOT NULL,
  at        TEXT NOT NULL
);
CREATE INDEX interactions_at ON interactions (at);

-- The dice scheme a game keeps from its start: 'player-v1', or NULL for a game started before it.
ALTER TABLE games ADD COLUMN dice_scheme TEXT;

-- A game roll counts the roller's earlier game rolls (per-player dice): from this index alone, one
-- player's rows of one game, not every row of the game.
CREATE INDEX rolls_game_user ON rolls (game_id, user_id, kind) WHERE game_id IS NOT NULL;
