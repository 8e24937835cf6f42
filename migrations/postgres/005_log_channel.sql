-- Issue 30. The channel a one-line copy of every public result is posted to (/config log-channel).
ALTER TABLE guild_config ADD COLUMN log_channel_id TEXT;
