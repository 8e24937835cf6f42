-- Each player's game rolls so far, per game: the k of their next roll in a game of per-player dice
-- (its k-th die stream). Kept in the transaction that appends each roll or re-roll of a game, so a
-- roll reads one row instead of counting the player's rows in the game; filled here from the rows
-- on record. It always equals the count common-sql.ts's PLAYER_ROLLS_SQL makes.
CREATE TABLE player_roll_counts (
  guild_id TEXT    NOT NULL,
  game_id  TEXT    NOT NULL,
  user_id  TEXT    NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (game_id, user_id)
);
-- The purge of a server finds its rows by it (retention.ts).
CREATE INDEX player_roll_counts_guild ON player_roll_counts (guild_id);

INSERT INTO player_roll_counts (guild_id, game_id, user_id, n)
  SELECT guild_id, game_id, user_id, COUNT(*) FROM rolls
  WHERE game_id IS NOT NULL AND kind IN ('roll', 'reroll')
  GROUP BY guild_id, game_id, user_id;
