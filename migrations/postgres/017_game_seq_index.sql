-- A game roll's number, read at every game roll, in one seek: see migrations/023_game_seq_index.sql.
CREATE INDEX rolls_game_seq ON rolls (game_id, game_seq) WHERE game_id IS NOT NULL;
