-- A binding remembers the game it was made in and whether that game is a tournament's: an expiry
-- is then recorded as a row of its game, a tournament's binding never expires, and a game does not
-- end while one of its rolls waits for its round. Bindings made before this have neither: their
-- game is read from their channel, and they keep the ten minutes every binding had.
ALTER TABLE beacon_bindings ADD COLUMN game_id TEXT;
ALTER TABLE beacon_bindings ADD COLUMN tournament INTEGER NOT NULL DEFAULT 0;
CREATE INDEX beacon_bindings_game ON beacon_bindings (game_id, state);
