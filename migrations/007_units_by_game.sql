-- Every unit a game ever had, removed ones included, in order: brigade losses and the
-- end-of-turn rulings read them, and without this index each read scanned every game's units.
CREATE INDEX units_game ON units (game_id, id);
