-- A game roll's number is the game's last plus one: read at every game roll. With the rows of the
-- game alone indexed, that read visited every row of the game (slower the longer the game, and
-- the larger its rows); with their numbers in the index it is one seek.
CREATE INDEX rolls_game_seq ON rolls (game_id, game_seq) WHERE game_id IS NOT NULL;
