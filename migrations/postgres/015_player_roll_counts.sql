-- Each player's game rolls so far, per game: see migrations/021_player_roll_counts.sql. Kept by the
-- statement that appends each roll or re-roll of a game, filled here from the rows on record.
CREATE TABLE player_roll_counts (
  guild_id TEXT    NOT NULL,
  game_id  TEXT    NOT NULL,
  user_id  TEXT    NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (game_id, user_id)
);
CREATE INDEX player_roll_counts_guild ON player_roll_counts (guild_id);

INSERT INTO player_roll_counts (guild_id, game_id, user_id, n)
  SELECT guild_id, game_id, user_id, COUNT(*) FROM rolls
  WHERE game_id IS NOT NULL AND kind IN ('roll', 'reroll')
  GROUP BY guild_id, game_id, user_id;
