-- The roll log: the channel a one-line copy of every public result is posted to (/config log-channel).
ALTER TABLE guild_config ADD COLUMN log_channel_id TEXT;
-- The server's (or a channel's) games, newest first, as `game` options offer them while a user types.
CREATE INDEX games_recent ON games (guild_id, started_at);
