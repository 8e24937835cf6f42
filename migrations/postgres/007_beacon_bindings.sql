-- Beacon games: a roll binds to a drand round before its dice exist. The binding is kept
-- beside the chain until the round is in (rolled) or ten minutes pass (expired), so a restart
-- completes it; its request is kept to roll it then as it was asked.
CREATE TABLE beacon_bindings (
  interaction_id TEXT PRIMARY KEY,
  guild_id TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  round INTEGER NOT NULL,
  request TEXT NOT NULL,
  created_at TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  roll_id TEXT,
  settled_at TEXT
);
CREATE INDEX beacon_bindings_pending ON beacon_bindings (state, created_at);
