-- Who each table beside the chain names, so a person's own data (/privacy show, export, erase) is
-- found from the person, never by reading every server's rows.
CREATE INDEX roll_requests_asker ON roll_requests (asker_id);
CREATE INDEX roll_requests_player ON roll_requests (player_id);
CREATE INDEX units_owner ON units (owner_id);
CREATE INDEX schedules_user ON schedules (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX game_clocks_turn_player ON game_clocks (turn_player_id) WHERE turn_player_id IS NOT NULL;
CREATE INDEX saved_queries_user ON saved_queries (user_id);
CREATE INDEX beacon_bindings_user ON beacon_bindings (user_id);
CREATE INDEX games_started_by ON games (started_by);
